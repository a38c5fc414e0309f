/**
 * HTML built by a tagged template that escapes every interpolated value: schedule names,
 * descriptions, commands, output tails and error texts come from manifest authors and from jobs,
 * and are hostile (a `<script>` in a job's stderr must print, not run). Only markup made by this
 * template (an `Html` value) is inserted as is; strings, numbers and arrays of either are escaped.
 * Attribute values are always written between double quotes, so escaping `"` is enough there.
 */
import { makeVisible } from '../../shared/visible-text.js';

export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Fragment = Html | string | number | null | undefined | false | readonly Fragment[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

function render(fragment: Fragment): string {
  if (fragment === null || fragment === undefined || fragment === false) return '';
  if (fragment instanceof Html) return fragment.text;
  if (Array.isArray(fragment)) return fragment.map(render).join('');
  return escapeHtml(String(fragment));
}

export function html(strings: TemplateStringsArray, ...values: Fragment[]): Html {
  let text = strings[0]!;
  for (let index = 0; index < values.length; index += 1) text += render(values[index]) + strings[index + 1]!;
  return new Html(text);
}

/**
 * One line of author text as it must be seen: controls, bidi overrides and invisible characters
 * written as escapes (shared/visible-text), then HTML-escaped by the template.
 */
export function visible(text: string | null | undefined): string {
  return text === null || text === undefined ? '' : makeVisible(text);
}

/** Output of a job (several lines): line breaks kept, every other control made visible. */
export function visibleLines(text: string): string {
  return text.split('\n').map(makeVisible).join('\n');
}

/** A path segment of one of the dashboard's own links. */
export function pathSegment(text: string): string {
  return encodeURIComponent(text);
}

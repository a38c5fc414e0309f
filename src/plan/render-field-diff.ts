/**
 * Turns one FieldChange into something a reader can review: short values inline (`a → b`), long
 * strings, arrays and objects as a line diff with unchanged runs collapsed. Every output is bounded
 * by the caller's limits, so a 100 KB payload cannot flood a terminal or a PR comment.
 */
import { diffLines } from 'diff';
import { makeVisible } from '../shared/visible-text.js';
import type { FieldChange, PlannedChange } from './plan-types.js';

export interface FieldDiffLimits {
  /** Unchanged lines kept around each change; longer unchanged runs collapse to one `…` line. */
  contextLines: number;
  /** Diff lines per field before the rest is replaced by a note. */
  maxLines: number;
  /** Characters per line (and per inline value) before the rest is replaced by a note. */
  maxLineChars: number;
}

/** What runs is never cut: a job change is shown whole, every line and character. */
export const UNCUT_DIFF_LIMITS: FieldDiffLimits = { contextLines: Number.POSITIVE_INFINITY, maxLines: Number.POSITIVE_INFINITY, maxLineChars: Number.POSITIVE_INFINITY };

/** `' '` unchanged, `'+'` added, `'-'` removed, `'…'` a note about what was left out. */
export interface DiffLine {
  kind: ' ' | '+' | '-' | '…';
  text: string;
}

export type RenderedFieldChange =
  | { kind: 'inline'; path: string; before: string; after: string }
  | { kind: 'lines'; path: string; lines: DiffLine[] };

/** Values up to this many characters of compact JSON read best on one line. */
const INLINE_MAX_CHARS = 60;
/** Myers diff is O(N·D); past this many edits a before/after listing is as useful and far cheaper. */
const MAX_EDIT_LENGTH = 2_000;

/** Compact JSON, with `(none)` for a field that is absent on one side; control and invisible characters made visible. */
export function formatCompactValue(value: unknown): string {
  return value === undefined ? '(none)' : makeVisible(JSON.stringify(value));
}

/** Cuts a string to `maxChars` and says how much was cut, so truncation is never silent. */
export function truncateText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}… (${text.length - maxChars} more characters)`;
}

export function renderFieldChange(change: FieldChange, limits: FieldDiffLimits): RenderedFieldChange {
  const before = formatCompactValue(change.before);
  const after = formatCompactValue(change.after);
  if (before.length <= INLINE_MAX_CHARS && after.length <= INLINE_MAX_CHARS) {
    return { kind: 'inline', path: makeVisible(change.path), before, after };
  }
  return { kind: 'lines', path: makeVisible(change.path), lines: diffValueLines(change.before, change.after, limits) };
}

/** Multi-line strings (descriptions, scripts) diff as themselves; everything else as pretty JSON. */
function toDiffText(value: unknown, bothStrings: boolean): string {
  if (value === undefined) return '';
  if (bothStrings) return value as string;
  return JSON.stringify(value, null, 2);
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

export function diffValueLines(before: unknown, after: unknown, limits: FieldDiffLimits): DiffLine[] {
  const bothStrings = typeof before === 'string' && typeof after === 'string';
  const beforeText = toDiffText(before, bothStrings);
  const afterText = toDiffText(after, bothStrings);
  const parts = diffLines(beforeText, afterText, { maxEditLength: MAX_EDIT_LENGTH });
  const lines: DiffLine[] = parts
    ? parts.flatMap((part) => {
        const kind = part.added ? '+' : part.removed ? '-' : ' ';
        return splitLines(part.value).map((text) => ({ kind, text: makeVisible(text) }) as DiffLine);
      })
    : [
        ...splitLines(beforeText).map((text): DiffLine => ({ kind: '-', text: makeVisible(text) })),
        ...splitLines(afterText).map((text): DiffLine => ({ kind: '+', text: makeVisible(text) })),
      ];
  return capLines(collapseUnchanged(lines, limits.contextLines), limits);
}

/** Keeps `context` unchanged lines next to each change and replaces the rest of a run with a note. */
function collapseUnchanged(lines: DiffLine[], context: number): DiffLine[] {
  const result: DiffLine[] = [];
  let index = 0;
  while (index < lines.length) {
    if (lines[index]!.kind !== ' ') {
      result.push(lines[index]!);
      index += 1;
      continue;
    }
    let end = index;
    while (end < lines.length && lines[end]!.kind === ' ') end += 1;
    const keepHead = index === 0 ? 0 : context;
    const keepTail = end === lines.length ? 0 : context;
    const run = lines.slice(index, end);
    if (run.length <= keepHead + keepTail + 1) {
      result.push(...run);
    } else {
      const hidden = run.length - keepHead - keepTail;
      result.push(...run.slice(0, keepHead), { kind: '…', text: `… ${hidden} unchanged ${hidden === 1 ? 'line' : 'lines'}` });
      result.push(...run.slice(run.length - keepTail));
    }
    index = end;
  }
  return result;
}

function capLines(lines: DiffLine[], limits: FieldDiffLimits): DiffLine[] {
  const kept = lines.slice(0, limits.maxLines).map((line) => ({ ...line, text: truncateText(line.text, limits.maxLineChars) }));
  if (lines.length > limits.maxLines) {
    kept.push({ kind: '…', text: `… ${lines.length - limits.maxLines} more diff lines not shown` });
  }
  return kept;
}

/**
 * A cron or timezone change is easiest to review as the slots themselves (SPEC §5): the next few
 * local times before and after, or null when the change does not move slots.
 */
export function describeNextSlots(change: PlannedChange, count = 3): { before: string; after: string } | null {
  const movesSlots = change.changedPaths.some((path) => path === 'cron' || path === 'timezone' || path.startsWith('dst'));
  const { before, after } = change.figures;
  if (change.action !== 'update' || !movesSlots || !before || !after) return null;
  // An empty list would read as a rendering fault: say why there is no slot.
  const describe = (slots: string[], cron: string | null | undefined, upstreams: string[]) =>
    slots.length > 0 ? slots.slice(0, count).join(', ') : cron === null ? `none of its own (runs after ${makeVisible(upstreams.join(' + '))})` : 'none in the next year';
  const upstreamsOf = (def: PlannedChange['before']) => (def?.after ?? []).map((a) => a.schedule);
  return {
    before: describe(before.nextSlotsLocal, change.before?.cron, upstreamsOf(change.before)),
    after: describe(after.nextSlotsLocal, change.after?.cron, upstreamsOf(change.after)),
  };
}

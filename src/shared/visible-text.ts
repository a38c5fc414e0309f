/**
 * User text as a reviewer must see it. A plan comment, a terminal and `history` print strings an
 * author wrote; characters that move the cursor (a lone `\r`, ESC sequences), end a line where the
 * renderer does not expect one (U+2028, NEL), reorder what is displayed (bidi overrides) or display
 * as nothing (zero-width, soft hyphen, variation selectors, tag characters) would let that author
 * forge a heading, clear a screen, or make `daily\u200b-report.js` look like `daily-report.js`.
 * Each such character is written as its escape (`\u202E`, `\r`), so it is visible and cannot act.
 */

/**
 * C0 controls (tab and newline included), DEL, C1 controls (NEL among them), the soft hyphen,
 * U+061C, U+180E, zero-width and bidi marks, line and paragraph separators, bidi embeddings and
 * isolates, invisible operators and deprecated format characters, variation selectors, the BOM,
 * interlinear annotations, and (astral) tag characters and the supplementary variation selectors.
 */
// Matching control and combining-format characters is this module's purpose.
const INVISIBLE_OR_CONTROL =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class
  /[\u0000-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFE00-\uFE0F\uFEFF\uFFF9-\uFFFB]|\uDB40[\uDC00-\uDDEF]/g;

const SHORT_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeCharacter(char: string): string {
  const short = SHORT_ESCAPES[char];
  if (short) return short;
  const code = char.codePointAt(0)!;
  return code > 0xffff ? `\\u{${code.toString(16).toUpperCase()}}` : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The text with every control, line-breaking, bidi and invisible character written as an escape. */
export function makeVisible(text: string): string {
  return text.replace(INVISIBLE_OR_CONTROL, escapeCharacter);
}

/** Whether `makeVisible` would change the text: the text hides or controls something. */
export function hasHiddenCharacters(text: string): boolean {
  INVISIBLE_OR_CONTROL.lastIndex = 0;
  const found = INVISIBLE_OR_CONTROL.test(text);
  INVISIBLE_OR_CONTROL.lastIndex = 0;
  return found;
}

/** Multi-line text made visible line by line: `\n` stays a line break, everything else is escaped. */
export function makeVisibleLines(text: string): string {
  return text.split('\n').map(makeVisible).join('\n');
}

/** A string as a JSON literal, made visible: how plan quotes one argv element or value. */
export function quoteVisibly(text: string): string {
  return makeVisible(JSON.stringify(text));
}

/**
 * Code spans and fences that the text inside cannot close: the delimiter is one backtick longer
 * than the longest backtick run in the content, so a value holding ``` or ```` ends nothing.
 */

function longestBacktickRun(text: string): number {
  let longest = 0;
  let run = 0;
  for (const char of text) {
    run = char === '`' ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/**
 * The `<` of an HTML comment or a details tag, written `\u003C` (the escape style of makeVisible).
 * Inside code they are inert when rendered, but a comment's text is also read raw (its marker
 * line, the balance of its sections): no value may carry them into it.
 */
function inertTags(text: string): string {
  return text.replace(/<(?=!--|\/?details)/gi, '\\u003C');
}

/** An inline code span for one line of (already visible) text. */
export function codeSpan(value: string): string {
  const text = inertTags(value);
  const delimiter = '`'.repeat(longestBacktickRun(text) + 1);
  // A span that starts or ends with a backtick, or with a space on both sides, needs a space of padding (CommonMark strips one).
  const pad = /^[` ]|[` ]$/.test(text) ? ' ' : '';
  return `${delimiter}${pad}${text}${pad}${delimiter}`;
}

/** A fenced block of `lines` with the given info string (`diff`, `text`). */
export function fencedBlock(info: string, lines: readonly string[]): string {
  const shown = lines.map(inertTags);
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(shown.join('\n')) + 1));
  return [`${fence}${info}`, ...shown, fence].join('\n');
}

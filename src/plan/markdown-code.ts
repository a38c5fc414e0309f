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

/** An inline code span for one line of (already visible) text. */
export function codeSpan(text: string): string {
  const delimiter = '`'.repeat(longestBacktickRun(text) + 1);
  // A span that starts or ends with a backtick, or with a space on both sides, needs a space of padding (CommonMark strips one).
  const pad = /^[` ]|[` ]$/.test(text) ? ' ' : '';
  return `${delimiter}${pad}${text}${pad}${delimiter}`;
}

/** A fenced block of `lines` with the given info string (`diff`, `text`). */
export function fencedBlock(info: string, lines: readonly string[]): string {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(lines.join('\n')) + 1));
  return [`${fence}${info}`, ...lines, fence].join('\n');
}

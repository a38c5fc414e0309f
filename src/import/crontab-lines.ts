/**
 * The lines of a classic crontab (Vixie cron / cronie), classified. An active line is either an
 * environment setting (`NAME = value`, applying to the lines below it) or a job (five time fields,
 * or an `@macro`, then the command; system crontabs add a user column). Comments are kept so the
 * ones right above a job can become its description.
 */

export type CrontabLine =
  | { kind: 'blank'; line: number }
  | { kind: 'comment'; line: number; text: string }
  | { kind: 'env'; line: number; name: string; value: string }
  | { kind: 'job'; line: number; schedule: string; user: string | null; command: string; commandColumn: number }
  | { kind: 'malformed'; line: number; message: string };

const ENV_LINE = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/;
const FIELD = /\S+/y;

export function readCrontabLines(text: string, options: { systemFormat: boolean }): CrontabLine[] {
  return text.split(/\r?\n/).map((raw, index) => classifyLine(raw, index + 1, options.systemFormat));
}

function classifyLine(raw: string, line: number, systemFormat: boolean): CrontabLine {
  const trimmed = raw.trim();
  if (trimmed === '') return { kind: 'blank', line };
  if (trimmed.startsWith('#')) return { kind: 'comment', line, text: trimmed.replace(/^#+\s?/, '').trimEnd() };
  const env = ENV_LINE.exec(raw);
  if (env) return { kind: 'env', line, name: env[1]!, value: unquote(env[2]!) };
  return parseJobLine(raw, line, systemFormat);
}

/** cronie strips one pair of matching quotes around a value (`NAME="a b"` is `a b`). */
function unquote(value: string): string {
  const match = /^(['"])(.*)\1$/.exec(value);
  return match ? match[2]! : value;
}

function parseJobLine(raw: string, line: number, systemFormat: boolean): CrontabLine {
  const fields: string[] = [];
  let position = raw.length - raw.trimStart().length;
  const timeFields = raw.trimStart().startsWith('@') ? 1 : 5;
  const wanted = timeFields + (systemFormat ? 1 : 0);
  while (fields.length < wanted) {
    FIELD.lastIndex = position;
    const match = FIELD.exec(raw);
    if (!match) break;
    fields.push(match[0]);
    position = FIELD.lastIndex;
    while (raw[position] === ' ' || raw[position] === '\t') position += 1;
  }
  const command = raw.slice(position).trim();
  if (fields.length < wanted || command === '') {
    const expected = `${timeFields === 1 ? 'an @macro' : 'five time fields'}${systemFormat ? ', a user' : ''} and a command`;
    return { kind: 'malformed', line, message: `not a job or an environment setting: expected ${expected}` };
  }
  return {
    kind: 'job',
    line,
    schedule: fields.slice(0, timeFields).join(' '),
    user: systemFormat ? fields[timeFields]! : null,
    command,
    commandColumn: position + 1,
  };
}

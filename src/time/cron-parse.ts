/**
 * Our own cron grammar. We parse cron ourselves (instead of taking a library's parse tree)
 * because the semantics are part of cronform's contract: which tokens mean what, how the
 * day-of-month/day-of-week combination works, and where in the expression an error is, so a
 * diagnostic can point at the offending field. croner is used in tests as an oracle.
 */
export type DayMatch = 'any' | 'all';

export interface CronExpression {
  source: string;
  /** Sorted, de-duplicated allowed values per field. */
  seconds: number[];
  minutes: number[];
  hours: number[];
  daysOfMonth: number[];
  months: number[];
  /** 0 = Sunday … 6 = Saturday (7 is folded into 0). */
  daysOfWeek: number[];
  /** `L` in the day-of-month field: the last day of the month. */
  lastDayOfMonth: boolean;
  /** Whether the field is anything other than `*` or `?`. */
  dayOfMonthRestricted: boolean;
  dayOfWeekRestricted: boolean;
  /** The hour field is `*`: the schedule fires at every real instant whose local time matches. */
  intervalLike: boolean;
  hasSecondsField: boolean;
}

export type CronErrorKind = 'syntax' | 'ambiguous';

export interface CronParseError {
  kind: CronErrorKind;
  message: string;
  /** 0-based character offset in the expression where the problem starts. */
  offset: number;
  hint?: string;
}

export type CronParseResult = { ok: true; cron: CronExpression } | { ok: false; error: CronParseError };

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  names?: string[];
  namesStartAt?: number;
}

const SECOND: FieldSpec = { name: 'second', min: 0, max: 59 };
const MINUTE: FieldSpec = { name: 'minute', min: 0, max: 59 };
const HOUR: FieldSpec = { name: 'hour', min: 0, max: 23 };
const DAY_OF_MONTH: FieldSpec = { name: 'day-of-month', min: 1, max: 31 };
const MONTH: FieldSpec = { name: 'month', min: 1, max: 12, names: MONTH_NAMES, namesStartAt: 1 };
const DAY_OF_WEEK: FieldSpec = { name: 'day-of-week', min: 0, max: 7, names: DAY_NAMES, namesStartAt: 0 };

class CronSyntaxError extends Error {
  constructor(
    readonly kind: CronErrorKind,
    message: string,
    readonly offset: number,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/**
 * Parsed expressions by source text: 10,000 schedules share a few thousand expressions, and
 * validate, plan and the runner each parse them. Only successes are kept, frozen so that no caller
 * can change what the next one reads; bounded because the runner is long-lived (past the limit the
 * cache starts over, which costs only time).
 */
const parsedBySource = new Map<string, CronParseResult>();
const PARSE_CACHE_LIMIT = 10_000;

export function parseCron(source: string): CronParseResult {
  const cached = parsedBySource.get(source);
  if (cached) return cached;
  const result = parseUncached(source);
  if (result.ok) {
    if (parsedBySource.size >= PARSE_CACHE_LIMIT) parsedBySource.clear();
    parsedBySource.set(source, Object.freeze({ ok: true, cron: freezeExpression(result.cron) }));
  }
  return result.ok ? parsedBySource.get(source)! : result;
}

function freezeExpression(cron: CronExpression): CronExpression {
  for (const values of [cron.seconds, cron.minutes, cron.hours, cron.daysOfMonth, cron.months, cron.daysOfWeek]) Object.freeze(values);
  return Object.freeze(cron);
}

function parseUncached(source: string): CronParseResult {
  try {
    return { ok: true, cron: parseOrThrow(source) };
  } catch (error) {
    if (error instanceof CronSyntaxError) {
      return { ok: false, error: { kind: error.kind, message: error.message, offset: error.offset, ...(error.hint ? { hint: error.hint } : {}) } };
    }
    throw error;
  }
}

interface Token {
  text: string;
  offset: number;
}

function splitFields(expression: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /\S+/g;
  for (let match = pattern.exec(expression); match; match = pattern.exec(expression)) {
    tokens.push({ text: match[0], offset: match.index });
  }
  return tokens;
}

function parseOrThrow(source: string): CronExpression {
  const trimmed = source.trim();
  if (trimmed.startsWith('@')) {
    const expansion = MACROS[trimmed.toLowerCase()];
    if (!expansion) {
      const hint = trimmed.toLowerCase() === '@reboot' ? '@reboot has no time: cronform schedules need slots' : `known macros: ${Object.keys(MACROS).join(' ')}`;
      throw new CronSyntaxError('syntax', `unknown cron macro "${trimmed}"`, source.indexOf('@'), hint);
    }
    return { ...parseFields(splitFields(expansion), expansion, false), source };
  }
  const tokens = splitFields(source);
  if (tokens.length !== 5 && tokens.length !== 6) {
    throw new CronSyntaxError('syntax', `cron must have 5 fields (minute hour day-of-month month day-of-week) or 6 with seconds first; got ${tokens.length}`, tokens[0]?.offset ?? 0);
  }
  return parseFields(tokens, source, true);
}

function parseFields(tokens: Token[], source: string, reportOffsets: boolean): CronExpression {
  const hasSecondsField = tokens.length === 6;
  const [secondToken, rest] = hasSecondsField ? [tokens[0], tokens.slice(1)] : [{ text: '0', offset: 0 }, tokens];
  const [minuteToken, hourToken, domToken, monthToken, dowToken] = rest as [Token, Token, Token, Token, Token];
  const at = (token: Token) => (reportOffsets ? token.offset : 0);
  try {
    const seconds = parseFieldOnce(secondToken!, SECOND, parseField);
    const minutes = parseFieldOnce(minuteToken, MINUTE, parseField);
    const hours = parseFieldOnce(hourToken, HOUR, parseField);
    const { values: daysOfMonth, last } = parseFieldOnce(domToken, DAY_OF_MONTH, parseDayOfMonth);
    const months = parseFieldOnce(monthToken, MONTH, parseField);
    const daysOfWeek = parseFieldOnce(dowToken, DAY_OF_WEEK, (token) => [...new Set(parseDayOfWeek(token).map((d) => (d === 7 ? 0 : d)))].sort((a, b) => a - b));
    return {
      source,
      seconds,
      minutes,
      hours,
      daysOfMonth,
      months,
      daysOfWeek,
      lastDayOfMonth: last,
      dayOfMonthRestricted: !isUnrestricted(domToken.text),
      dayOfWeekRestricted: !isUnrestricted(dowToken.text),
      intervalLike: hourToken.text === '*',
      hasSecondsField,
    };
  } catch (error) {
    if (error instanceof CronSyntaxError && hasSecondsField && looksLikeSecondsLast(tokens)) {
      throw new CronSyntaxError(error.kind, error.message, error.offset, 'a 6-field cron puts seconds FIRST: "sec min hour day-of-month month day-of-week"');
    }
    if (error instanceof CronSyntaxError && !reportOffsets) throw new CronSyntaxError(error.kind, error.message, at(tokens[0]!), error.hint);
    throw error;
  }
}

/**
 * Values of a field by its text: thousands of expressions share fields (`*`, `0`, `MON-FRI`), and a
 * field's values depend on its text alone. Only successes are kept (an error's offset depends on
 * where the field is), frozen like the expressions that share them, bounded per field.
 */
const fieldsByText = new Map<FieldSpec, Map<string, unknown>>();
const FIELD_CACHE_LIMIT = 1_000;

function parseFieldOnce<T>(token: Token, spec: FieldSpec, parse: (token: Token, spec: FieldSpec) => T): T {
  let byText = fieldsByText.get(spec);
  const cached = byText?.get(token.text) as T | undefined;
  if (cached !== undefined) return cached;
  const values = deepFreeze(parse(token, spec));
  if (!byText || byText.size >= FIELD_CACHE_LIMIT) fieldsByText.set(spec, (byText = new Map()));
  byText.set(token.text, values);
  return values;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) for (const member of Object.values(value)) deepFreeze(member);
  return Object.freeze(value);
}

function looksLikeSecondsLast(tokens: Token[]): boolean {
  const last = tokens[5]?.text ?? '';
  return /^\d+$/.test(last) && Number(last) > 7 && Number(last) <= 59;
}

function isUnrestricted(text: string): boolean {
  return text === '*' || text === '?';
}

function parseDayOfMonth(token: Token): { values: number[]; last: boolean } {
  if (token.text === '?') return { values: range(1, 31), last: false };
  let last = false;
  const parts: Token[] = [];
  for (const part of splitList(token)) {
    if (part.text.toUpperCase() === 'L') last = true;
    else parts.push(part);
  }
  checkAmbiguousTokens(token, DAY_OF_MONTH);
  const values = parts.length > 0 ? parseList(parts, DAY_OF_MONTH) : [];
  return { values, last };
}

function parseDayOfWeek(token: Token): number[] {
  if (token.text === '?') return range(0, 6);
  checkAmbiguousTokens(token, DAY_OF_WEEK);
  return parseList(splitList(token), DAY_OF_WEEK);
}

function parseField(token: Token, spec: FieldSpec): number[] {
  if (token.text === '?') throw new CronSyntaxError('syntax', `"?" is only allowed in the day-of-month and day-of-week fields`, token.offset);
  checkAmbiguousTokens(token, spec);
  return parseList(splitList(token), spec);
}

const PLAIN_FIELD = /^[\d*,/-]*$/;

/** Tokens whose meaning differs between cron implementations: rejected, never guessed. */
function checkAmbiguousTokens(token: Token, spec: FieldSpec): void {
  // Digits, "*", ",", "-" and "/" (nearly every field) hold none of the letters or "#" checked below.
  if (PLAIN_FIELD.test(token.text)) return;
  const upper = token.text.toUpperCase();
  const checks: Array<[RegExp, string, string]> = [
    [/H/, '"H" (hashed value) is Jenkins-specific', 'write the exact value, or use spec.jitter to spread load'],
    [/#/, '"#" (nth weekday of the month) is not supported by cronform yet', 'restrict day-of-month to the week instead, e.g. "0 9 1-7 * MON" with dayMatch: all'],
    [/W/, '"W" (nearest weekday) means different things in different cron implementations', 'list the days explicitly'],
  ];
  for (const [pattern, message, hint] of checks) {
    const index = stripNames(upper, spec).search(pattern);
    if (index >= 0) throw new CronSyntaxError('ambiguous', `${message} (in the ${spec.name} field)`, token.offset + index, hint);
  }
  if (spec === DAY_OF_WEEK && /L/.test(stripNames(upper, spec))) {
    const index = stripNames(upper, spec).search(/L/);
    throw new CronSyntaxError('ambiguous', `"L" in the day-of-week field (e.g. "5L", last Friday) is interpreted differently across cron implementations`, token.offset + index, 'use day-of-month "L" for the last day of the month, or a day range with dayMatch: all (e.g. "0 9 25-31 * FRI")');
  }
  if (spec !== DAY_OF_MONTH && spec !== DAY_OF_WEEK && /L/.test(stripNames(upper, spec))) {
    throw new CronSyntaxError('syntax', `"L" is only allowed in the day-of-month field`, token.offset + stripNames(upper, spec).search(/L/));
  }
  if (spec === DAY_OF_MONTH) {
    const odd = upper.split(',').find((part) => part.includes('L') && part !== 'L');
    if (odd !== undefined) {
      throw new CronSyntaxError('ambiguous', `"${odd}" in the day-of-month field is interpreted differently across cron implementations; only a plain "L" (last day of the month) is supported`, token.offset + upper.indexOf(odd));
    }
  }
}

/** Replace names (JAN, MON…) by placeholders so their letters do not look like L/W/H tokens. */
function stripNames(upper: string, spec: FieldSpec): string {
  if (!spec.names) return upper;
  return upper.replace(/[A-Z]{3}/g, (name) => (spec.names!.includes(name) ? '000' : name));
}

function splitList(token: Token): Token[] {
  const parts: Token[] = [];
  let offset = token.offset;
  for (const text of token.text.split(',')) {
    if (text === '') throw new CronSyntaxError('syntax', `empty list item in "${token.text}"`, offset);
    parts.push({ text, offset });
    offset += text.length + 1;
  }
  return parts;
}

function parseList(parts: Token[], spec: FieldSpec): number[] {
  // One part is a range with a positive step: ascending and distinct already.
  if (parts.length === 1) return parsePart(parts[0]!, spec);
  const values = new Set<number>();
  for (const part of parts) for (const value of parsePart(part, spec)) values.add(value);
  return [...values].sort((a, b) => a - b);
}

function parsePart(part: Token, spec: FieldSpec): number[] {
  const [rangeText, stepText, extra] = part.text.split('/');
  if (extra !== undefined) throw new CronSyntaxError('syntax', `more than one "/" in "${part.text}"`, part.offset);
  let step = 1;
  if (stepText !== undefined) {
    if (!/^\d+$/.test(stepText) || Number(stepText) === 0) {
      throw new CronSyntaxError('syntax', `step must be a positive integer in "${part.text}"`, part.offset + rangeText!.length + 1);
    }
    step = Number(stepText);
    if (step > spec.max) throw new CronSyntaxError('syntax', `step ${step} is larger than the ${spec.name} range ${spec.min}-${spec.max}`, part.offset + rangeText!.length + 1);
  }
  const maxForRange = spec === DAY_OF_WEEK ? 6 : spec.max;
  let start: number;
  let end: number;
  if (rangeText === '*') {
    [start, end] = [spec.min, maxForRange];
  } else if (rangeText!.includes('-')) {
    const [a, b, extra] = rangeText!.split('-') as [string, string, string | undefined];
    if (extra !== undefined) throw new CronSyntaxError('syntax', `more than one "-" in "${part.text}"`, part.offset + a.length + b.length + 2);
    start = parseValue(a, spec, part.offset);
    end = parseValue(b, spec, part.offset + a.length + 1);
    if (start > end) {
      throw new CronSyntaxError('syntax', `range ${rangeText} runs backwards in the ${spec.name} field`, part.offset, 'wrap-around ranges mean different things in different cron implementations: write two ranges, e.g. "22-23,0-2"');
    }
  } else {
    start = parseValue(rangeText!, spec, part.offset);
    // "a/n" means "from a to the end of the range, every n" (Vixie and most modern parsers agree);
    // day-of-week 7 is past the end of 0-6 and stands alone ("7/2" is Sunday, never an empty field).
    end = stepText !== undefined ? Math.max(maxForRange, start) : start;
  }
  return range(start, end, step);
}

function parseValue(text: string, spec: FieldSpec, offset: number): number {
  if (spec.names) {
    const index = spec.names.indexOf(text.toUpperCase());
    if (index >= 0) return index + (spec.namesStartAt ?? 0);
  }
  if (!/^\d+$/.test(text)) {
    throw new CronSyntaxError('syntax', `"${text}" is not a valid ${spec.name} value`, offset, spec.names ? `use ${spec.min}-${spec.max} or ${spec.names.slice(0, 3).join(', ')}…` : `use ${spec.min}-${spec.max}`);
  }
  const value = Number(text);
  if (value < spec.min || value > spec.max) {
    throw new CronSyntaxError('syntax', `${spec.name} ${value} is out of range ${spec.min}-${spec.max}`, offset);
  }
  return value;
}

function range(start: number, end: number, step = 1): number[] {
  const values: number[] = [];
  for (let value = start; value <= end; value += step) values.push(value);
  return values;
}

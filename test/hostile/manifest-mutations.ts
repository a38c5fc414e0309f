/**
 * Mutations of the valid example manifests (property 2): structural edits of the parsed document
 * (delete, retype, insert, swap), random cron expressions built from cron tokens, random time
 * zones and durations, and line-level edits that YAML alone catches (duplicated keys).
 */
import fc from 'fast-check';
import { parse, stringify } from 'yaml';
import { exampleSchedules } from './hostile-texts.js';

type Path = Array<string | number>;
type Mutation = (document: Record<string, unknown>) => void;

const CRON_ATOMS = [
  '*', '?', 'L', 'W', 'H', '#', 'LW', '5L', 'L-2', '1W', '15W', '2#3', '6#5', 'H/5', 'H(0-29)', 'MON', 'fri', 'Sun', 'JAN', 'dec', 'FOO',
  '0', '1', '2', '3', '5', '7', '8', '12', '13', '23', '24', '29', '30', '31', '32', '59', '60', '61', '99', '-1', '00', '007', '1.5', '',
  '9999999999999999999999',
];

const cronValue = fc.oneof(fc.constantFrom(...CRON_ATOMS), fc.integer({ min: -3, max: 100 }).map(String));
const cronPart = fc.oneof(
  { arbitrary: cronValue, weight: 4 },
  { arbitrary: fc.tuple(cronValue, cronValue).map(([a, b]) => `${a}-${b}`), weight: 2 },
  { arbitrary: fc.tuple(cronValue, cronValue).map(([a, n]) => `${a}/${n}`), weight: 2 },
  { arbitrary: fc.tuple(cronValue, cronValue, cronValue).map(([a, b, n]) => `${a}-${b}/${n}`), weight: 1 },
  { arbitrary: fc.tuple(cronValue, cronValue, cronValue).map(([a, b, c]) => `${a}-${b}-${c}`), weight: 1 },
);
const cronField = fc.array(cronPart, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(','));
const separator = fc.constantFrom(' ', ' ', ' ', '  ', '\t', '\u00A0', '\u3000', ',');

interface FieldRange {
  min: number;
  max: number;
  names?: string[];
}

/** One field of a mostly well-formed cron: values near the field's range, sometimes just outside it. */
function plausibleField({ min, max, names }: FieldRange): fc.Arbitrary<string> {
  const value = fc.oneof(
    { arbitrary: fc.integer({ min, max }).map(String), weight: 8 },
    { arbitrary: fc.constantFrom(String(min - 1), String(max + 1)), weight: 1 },
    { arbitrary: names ? fc.constantFrom(...names) : fc.integer({ min, max }).map((n) => `0${n}`), weight: 2 },
  );
  const step = fc.integer({ min: 1, max: max + 1 }).map(String);
  const part = fc.oneof(
    { arbitrary: value, weight: 4 },
    { arbitrary: fc.tuple(fc.integer({ min, max }), fc.integer({ min, max })).map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`), weight: 2 },
    { arbitrary: fc.tuple(value, value).map(([a, b]) => `${a}-${b}`), weight: 1 },
    { arbitrary: fc.tuple(value, value, value).map(([a, b, c]) => `${a}-${b}-${c}`), weight: 1 },
    { arbitrary: step.map((n) => `*/${n}`), weight: 2 },
    { arbitrary: fc.tuple(value, step).map(([a, n]) => `${a}/${n}`), weight: 1 },
    { arbitrary: fc.tuple(fc.integer({ min, max }), fc.integer({ min, max }), step).map(([a, b, n]) => `${Math.min(a, b)}-${Math.max(a, b)}/${n}`), weight: 1 },
  );
  return fc.oneof({ arbitrary: fc.constant('*'), weight: 3 }, { arbitrary: fc.array(part, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(',')), weight: 5 });
}

const MONTHS = ['JAN', 'feb', 'Mar', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const WEEKDAYS = ['SUN', 'mon', 'Tue', 'WED', 'THU', 'FRI', 'SAT'];

/** Cron expressions most of which parse: the ones worth comparing with an oracle and scheduling. */
export const plausibleCron: fc.Arbitrary<string> = fc
  .tuple(
    fc.option(plausibleField({ min: 0, max: 59 }), { freq: 4 }),
    plausibleField({ min: 0, max: 59 }),
    plausibleField({ min: 0, max: 23 }),
    fc.oneof({ arbitrary: plausibleField({ min: 1, max: 31 }), weight: 6 }, { arbitrary: fc.constantFrom('L', '1,L', 'L,15'), weight: 1 }),
    plausibleField({ min: 1, max: 12, names: MONTHS }),
    plausibleField({ min: 0, max: 7, names: WEEKDAYS }),
  )
  .map(([second, ...rest]) => [...(second === null ? [] : [second]), ...rest].join(' '));

/** Cron expressions: mostly 5 or 6 fields of real tokens, sometimes anything. */
export const cronExpression: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: plausibleCron, weight: 8 },
  { arbitrary: fc.tuple(fc.array(cronField, { minLength: 5, maxLength: 6 }), separator).map(([fields, sep]) => fields.join(sep)), weight: 8 },
  { arbitrary: fc.array(cronField, { minLength: 0, maxLength: 8 }).map((fields) => fields.join(' ')), weight: 2 },
  { arbitrary: fc.constantFrom('@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly', '@reboot', '@every 5m', '@DAILY', ' @daily ', '@daily 1'), weight: 2 },
  { arbitrary: fc.string({ maxLength: 30 }), weight: 1 },
);

/** Zones with the local day, month and hour of a DST gap (the wall hour skipped in spring). */
const DST_GAPS = [
  { timezone: 'America/New_York', days: '8-14', month: '3', hour: '2' },
  { timezone: 'Europe/Berlin', days: '25-31', month: '3', hour: '2' },
  { timezone: 'Australia/Sydney', days: '1-7', month: '10', hour: '2' },
  { timezone: 'America/Havana', days: '8-14', month: '3', hour: '0' },
  { timezone: 'Australia/Lord_Howe', days: '1-7', month: '10', hour: '2' },
];

export interface DstTrap {
  cron: string;
  dayMatch: 'any' | 'all';
  timezone: string;
  dst: { gap: string; fold: string };
}

/** Fixed-time schedules on DST transition days, where the gap and fold policies decide whether a slot exists. */
export const dstTrapCron: fc.Arbitrary<DstTrap> = fc
  .record({
    gap: fc.constantFrom(...DST_GAPS),
    minute: fc.constantFrom('0', '30', '59', '*/30', '15,45'),
    exactHour: fc.boolean(),
    exactDays: fc.boolean(),
    exactMonth: fc.boolean(),
    weekday: fc.constantFrom('0', 'SUN', '*', '6'),
    dayMatch: fc.constantFrom('any' as const, 'all' as const),
    dst: fc.record({ gap: fc.constantFrom('shift', 'skip'), fold: fc.constantFrom('first', 'second', 'both') }),
  })
  .map(({ gap, minute, exactHour, exactDays, exactMonth, weekday, dayMatch, dst }) => ({
    cron: [minute, exactHour ? gap.hour : `${gap.hour},5`, exactDays ? gap.days : '*', exactMonth ? gap.month : '*', weekday].join(' '),
    dayMatch,
    timezone: gap.timezone,
    dst,
  }));

/** Slot-less by construction: the only matching wall times fall in a DST gap and the gap policy is skip. */
export const knownDstTraps: DstTrap[] = DST_GAPS.map((gap) => ({ cron: `15 ${gap.hour} ${gap.days} ${gap.month} 0`, dayMatch: 'all', timezone: gap.timezone, dst: { gap: 'skip', fold: 'first' } }));

export const timezoneName: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...Intl.supportedValuesOf('timeZone')),
  fc.constantFrom('UTC', 'Etc/UTC', 'utc', 'asia/seoul', 'ASIA/SEOUL', 'KST', 'EST', 'EST5EDT', 'UTC+9', 'GMT-3', '+09:00', 'Z', 'Etc/GMT+14', 'Etc/GMT-14', 'Etc/GMT+15', 'America/Argentina/ComodRivadavia', 'US/Pacific', 'Europe/Kyiv', 'Europe/Kiev', 'Mars/Olympus', 'Asia/Seoul/', '/Asia/Seoul', 'Asia//Seoul', '../../etc/passwd', 'Asia/Seoul\n', ' Asia/Seoul', 'Asia/Seoul\0'),
  fc.string({ maxLength: 20 }),
);

export const duration: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(fc.oneof(fc.nat({ max: 1_000 }), fc.nat(), fc.constantFrom(0, 2 ** 31, 2 ** 53, 9.9e15)), fc.constantFrom('ms', 's', 'm', 'h', 'd')).map(([n, unit]) => `${n}${unit}`),
  fc.tuple(fc.integer({ min: 16, max: 400 }), fc.constantFrom('ms', 'd')).map(([digits, unit]) => `${'9'.repeat(digits)}${unit}`),
  fc.constantFrom('', '0', '1', '-1s', '1.5s', '1w', '1y', '1 m', '1M', 'PT1H', '1h30m', 's', '01s', '1e3s', 'Infinityms', 'NaNs'),
);

const scalar = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 2 ** 53, 1e300, -1e300, 0.5, -0, 3000000000),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('SKIP_NEW', 'CATCH_UP_ALL', 'QUEUE_NEW', 'ALLOW', 'MANUAL', 'RUN_ONCE', 'SKIP', 'constructor', 'default', 'reports', 'toString', '__proto__', 'http', 'command', 'any', 'all', 'none', 'required'),
);
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: scalar, weight: 6 },
  { arbitrary: fc.array(scalar, { maxLength: 4 }), weight: 1 },
  { arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), scalar, { maxKeys: 4 }), weight: 1 },
  { arbitrary: cronExpression, weight: 1 },
  { arbitrary: timezoneName, weight: 1 },
  { arbitrary: duration, weight: 1 },
);

const UNKNOWN_KEYS = ['overlpa', 'cronn', 'timeZone', 'Spec', 'extra', 'maxRuntime', 'retries', 'dayMatch', 'dst', 'payload', 'previousName', 'riskAccepted', 'enabled', 'queue', 'labels', 'jitter'];

function listPaths(value: unknown, path: Path = [], paths: Path[] = []): Path[] {
  if (path.length > 0) paths.push(path);
  if (Array.isArray(value)) value.forEach((item, i) => listPaths(item, [...path, i], paths));
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) listPaths(item, [...path, key], paths);
  return paths;
}

function containerOf(document: Record<string, unknown>, path: Path): { parent: Record<string | number, unknown>; key: string | number } | undefined {
  let parent: unknown = document;
  for (const segment of path.slice(0, -1)) parent = (parent as Record<string | number, unknown>)[segment];
  if (parent === null || typeof parent !== 'object') return undefined;
  return { parent: parent as Record<string | number, unknown>, key: path[path.length - 1]! };
}

/** The spec mapping, unless an earlier mutation replaced it with something else. */
function specOf(document: Record<string, unknown>): Record<string, unknown> {
  const spec = document.spec;
  if (spec !== null && typeof spec === 'object' && !Array.isArray(spec)) return spec as Record<string, unknown>;
  document.spec = {};
  return document.spec as Record<string, unknown>;
}

const pick = <T>(items: readonly T[], index: number): T | undefined => (items.length === 0 ? undefined : items[index % items.length]);

const mutation: fc.Arbitrary<{ describe: string; apply: Mutation }> = fc.oneof(
  fc.nat().map((i) => ({
    describe: `delete path #${i}`,
    apply: (doc: Record<string, unknown>) => {
      const path = pick(listPaths(doc), i);
      const at = path && containerOf(doc, path);
      if (!at) return;
      if (Array.isArray(at.parent)) at.parent.splice(Number(at.key), 1);
      else delete at.parent[at.key];
    },
  })),
  fc.tuple(fc.nat(), anyValue).map(([i, value]) => ({
    describe: `set path #${i} to ${JSON.stringify(value)}`,
    apply: (doc: Record<string, unknown>) => {
      const at = containerOf(doc, pick(listPaths(doc), i) ?? []);
      if (at) at.parent[at.key] = value;
    },
  })),
  fc.tuple(fc.nat(), fc.constantFrom(...UNKNOWN_KEYS), anyValue).map(([i, key, value]) => ({
    describe: `insert ${key}: ${JSON.stringify(value)} into mapping #${i}`,
    apply: (doc: Record<string, unknown>) => {
      const mappings = [doc, ...listPaths(doc).map((path) => path.reduce<unknown>((node, segment) => (node as Record<string | number, unknown>)[segment], doc))].filter(
        (node): node is Record<string, unknown> => node !== null && typeof node === 'object' && !Array.isArray(node),
      );
      const target = pick(mappings, i);
      if (target) target[key] = value;
    },
  })),
  fc.tuple(fc.nat(), fc.nat()).map(([i, j]) => ({
    describe: `swap paths #${i} and #${j}`,
    apply: (doc: Record<string, unknown>) => {
      const paths = listPaths(doc).filter((path) => path.length >= 2);
      const a = pick(paths, i);
      const b = pick(paths, j);
      const at = a && containerOf(doc, a);
      const bt = b && containerOf(doc, b);
      if (!at || !bt) return;
      const value = at.parent[at.key];
      at.parent[at.key] = bt.parent[bt.key];
      bt.parent[bt.key] = value;
    },
  })),
  cronExpression.map((cron) => ({ describe: `cron ${JSON.stringify(cron)}`, apply: (doc: Record<string, unknown>) => void (specOf(doc).cron = cron) })),
  fc.tuple(cronExpression, fc.constantFrom('any', 'all')).map(([cron, dayMatch]) => ({
    describe: `cron ${JSON.stringify(cron)} with dayMatch ${dayMatch}`,
    apply: (doc: Record<string, unknown>) => Object.assign(specOf(doc), { cron, dayMatch }),
  })),
  dstTrapCron.map((trap) => ({ describe: `DST trap ${JSON.stringify(trap)}`, apply: (doc: Record<string, unknown>) => Object.assign(specOf(doc), trap) })),
  fc.constantFrom('default', 'reports', 'constructor', 'prototype', 'tostring', 'valueof', 'hasownproperty', 'missing-queue').map((queue) => ({
    describe: `queue ${queue}`,
    apply: (doc: Record<string, unknown>) => void (specOf(doc).queue = queue),
  })),
  timezoneName.map((timezone) => ({ describe: `timezone ${JSON.stringify(timezone)}`, apply: (doc: Record<string, unknown>) => void (specOf(doc).timezone = timezone) })),
  fc.tuple(fc.constantFrom('timeout', 'gracePeriod', 'jitter', 'retry.initialDelay', 'retry.maxDelay'), duration).map(([field, value]) => ({
    describe: `${field}: ${value}`,
    apply: (doc: Record<string, unknown>) => {
      const spec = specOf(doc);
      if (field.startsWith('retry.')) spec.retry = { ...(spec.retry as object | undefined), [field.slice(6)]: value };
      else spec[field] = value;
    },
  })),
);

export interface MutatedManifest {
  file: string;
  text: string;
  edits: string[];
}

/** The examples parsed once: the thousands of mutations each edit a copy. */
const parsedExamples = new Map<string, Record<string, unknown>>();
function parsedExample(text: string): Record<string, unknown> {
  let document = parsedExamples.get(text);
  if (document === undefined) parsedExamples.set(text, (document = parse(text) as Record<string, unknown>));
  return document;
}

/** A mutated example; line edits (duplicate, delete, re-indent a line) are applied to the YAML text. */
export const mutatedManifest: fc.Arbitrary<MutatedManifest> = fc
  .tuple(
    fc.constantFrom(...exampleSchedules),
    fc.array(mutation, { minLength: 1, maxLength: 3 }),
    fc.option(fc.tuple(fc.constantFrom('duplicate', 'delete', 'indent', 'dedent'), fc.nat()), { freq: 4 }),
  )
  .map(([source, mutations, lineEdit]) => {
    const document = structuredClone(parsedExample(source.text));
    for (const m of mutations) m.apply(document);
    let text = stringify(document);
    const edits = mutations.map((m) => m.describe);
    if (lineEdit) {
      const [kind, index] = lineEdit;
      const lines = text.split('\n');
      const at = index % lines.length;
      const line = lines[at]!;
      if (kind === 'duplicate') lines.splice(at, 0, line);
      else if (kind === 'delete') lines.splice(at, 1);
      else lines[at] = kind === 'indent' ? ` ${line}` : line.replace(/^ /, '');
      text = lines.join('\n');
      edits.push(`${kind} line ${at + 1}`);
    }
    return { file: source.file, text, edits };
  });

/**
 * Random cron expressions with the value sets their text means, computed here and not by the
 * parser under test: lists, ranges, steps (`*\/n`, `a-b/n`, `a/n`), `?`, `L`, an optional seconds
 * field, interval-like (`*`) or fixed-time hours. Hours lean towards the ones DST transitions touch
 * (midnight, 01:00–03:00, 23:00), or most cases would never meet a gap or a fold.
 */
import fc from 'fast-check';
import type { CronFields } from './brute-force-slots.js';

interface Field {
  text: string;
  values: number[];
}

interface Bounds {
  min: number;
  max: number;
}

function span(from: number, to: number, step = 1): number[] {
  const values: number[] = [];
  for (let value = from; value <= to; value += step) values.push(value);
  return values;
}

function sorted(values: Iterable<number>): number[] {
  return [...new Set(values)].sort((a, b) => a - b);
}

/** One list item: a value, a range, a stepped range, `*\/n` or `a/n` (from a to the end). */
function listItem({ min, max }: Bounds): fc.Arbitrary<Field> {
  const value = fc.integer({ min, max });
  const step = fc.integer({ min: 1, max: Math.min(max, 30) });
  const ordered = fc.tuple(value, value).map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const);
  return fc.oneof(
    { weight: 3, arbitrary: value.map((v) => ({ text: `${v}`, values: [v] })) },
    { weight: 2, arbitrary: ordered.map(([a, b]) => ({ text: `${a}-${b}`, values: span(a, b) })) },
    { weight: 1, arbitrary: fc.tuple(ordered, step).map(([[a, b], s]) => ({ text: `${a}-${b}/${s}`, values: span(a, b, s) })) },
    { weight: 1, arbitrary: step.map((s) => ({ text: `*/${s}`, values: span(min, max, s) })) },
    { weight: 1, arbitrary: fc.tuple(value, step).map(([a, s]) => ({ text: `${a}/${s}`, values: span(a, max, s) })) },
  );
}

function list(bounds: Bounds, maxItems = 3): fc.Arbitrary<Field> {
  return fc.array(listItem(bounds), { minLength: 1, maxLength: maxItems }).map((items) => ({ text: items.map((item) => item.text).join(','), values: sorted(items.flatMap((item) => item.values)) }));
}

const star = (bounds: Bounds): Field => ({ text: '*', values: span(bounds.min, bounds.max) });
const fixed = (text: string, values: number[]): fc.Arbitrary<Field> => fc.constant({ text, values });

const SECOND = { min: 0, max: 59 };
const MINUTE = { min: 0, max: 59 };
const HOUR = { min: 0, max: 23 };
const DAY_OF_MONTH = { min: 1, max: 31 };
const MONTH = { min: 1, max: 12 };
const DAY_OF_WEEK = { min: 0, max: 6 };

const minutes = fc.oneof(fixed('0', [0]), fixed('0,30', [0, 30]), fixed('*/15', [0, 15, 30, 45]), fc.constant(star(MINUTE)), list(MINUTE));

const fixedHours = fc.oneof(
  { weight: 3, arbitrary: list(HOUR) },
  { weight: 1, arbitrary: fixed('0,23', [0, 23]) },
  { weight: 1, arbitrary: fixed('22-23,0-3', [0, 1, 2, 3, 22, 23]) },
  { weight: 1, arbitrary: fixed('*/1', span(0, 23)) },
  { weight: 1, arbitrary: fixed('0-23', span(0, 23)) },
  { weight: 1, arbitrary: fixed('1-3', [1, 2, 3]) },
);

/** Few seconds for fixed-time schedules: their oracle walks every wall time of every day. */
const fewSeconds = fc.oneof(fixed('0', [0]), fixed('*/20', [0, 20, 40]), fixed('15,45', [15, 45]), list(SECOND, 2).filter((field) => field.values.length <= 6));
const anySeconds = fc.oneof(fewSeconds, fc.constant(star(SECOND)), fixed('*/5', span(0, 55, 5)), list(SECOND));

const daysOfMonth = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ ...star(DAY_OF_MONTH), restricted: false, last: false }) },
  { weight: 1, arbitrary: fc.constant({ text: '?', values: span(1, 31), restricted: false, last: false }) },
  { weight: 3, arbitrary: list(DAY_OF_MONTH).map((field) => ({ ...field, restricted: true, last: false })) },
  { weight: 1, arbitrary: fc.constant({ text: 'L', values: [] as number[], restricted: true, last: true }) },
  { weight: 1, arbitrary: list(DAY_OF_MONTH, 2).map((field) => ({ text: `${field.text},L`, values: field.values, restricted: true, last: true })) },
);
const months = fc.oneof({ weight: 6, arbitrary: fc.constant(star(MONTH)) }, { weight: 2, arbitrary: list(MONTH) });
const daysOfWeek = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ ...star(DAY_OF_WEEK), restricted: false }) },
  { weight: 1, arbitrary: fc.constant({ text: '?', values: span(0, 6), restricted: false }) },
  { weight: 3, arbitrary: list(DAY_OF_WEEK).map((field) => ({ ...field, restricted: true })) },
  { weight: 1, arbitrary: fc.constant({ text: '7', values: [0] as number[], restricted: true }) },
);

export interface RandomCron {
  text: string;
  fields: CronFields;
}

export function randomCron(): fc.Arbitrary<RandomCron> {
  return fc
    .record({
      intervalLike: fc.boolean(),
      withSeconds: fc.integer({ min: 0, max: 9 }).map((n) => n < 3),
      minute: minutes,
      fixedHour: fixedHours,
      fewSecond: fewSeconds,
      anySecond: anySeconds,
      dayOfMonth: daysOfMonth,
      month: months,
      dayOfWeek: daysOfWeek,
    })
    .map(({ intervalLike, withSeconds, minute, fixedHour, fewSecond, anySecond, dayOfMonth, month, dayOfWeek }) => {
      const hour = intervalLike ? star(HOUR) : fixedHour;
      const second: Field = withSeconds ? (intervalLike ? anySecond : fewSecond) : { text: '', values: [0] };
      const text = [...(withSeconds ? [second.text] : []), minute.text, hour.text, dayOfMonth.text, month.text, dayOfWeek.text].join(' ');
      const fields: CronFields = {
        seconds: second.values,
        minutes: minute.values,
        hours: hour.values,
        daysOfMonth: dayOfMonth.values,
        lastDayOfMonth: dayOfMonth.last,
        months: month.values,
        daysOfWeek: dayOfWeek.values,
        dayOfMonthRestricted: dayOfMonth.restricted,
        dayOfWeekRestricted: dayOfWeek.restricted,
        intervalLike,
        hasSecondsField: withSeconds,
      };
      return { text, fields };
    });
}

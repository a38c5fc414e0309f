/**
 * Differential test of the slot engine (`src/time`) against a brute-force oracle written from
 * SPEC §4 (`brute-force-slots.ts`: Intl offsets, minute-by-minute or second-by-second scans of
 * real instants for interval-like schedules, a walk over local dates with the gap/fold rules for
 * fixed-time ones). Each case takes a zone from `Intl.supportedValuesOf('timeZone')`, the first
 * transition after a random instant of 1900–2031 (the oracle's own scan and bisection), a window
 * around it, a random cron and dst policy, and checks: slots strictly increasing, equal to the
 * oracle's, `nextSlot(t)` = the first of `slotsBetween(t + 1, …)` = the oracle's next slot, and
 * `countRunsOnDay` = the oracle's slots on each local day the window covers.
 *
 * The default run is small and seeded (CRONFORM_FC_SEED, as in test/hostile/run-options.ts). A
 * larger exploration: CRONFORM_SLOTS_DIFFERENTIAL_RUNS=5000 npx vitest run test/time/slots-differential.test.ts
 * (with CRONFORM_FC_SEED=<n> for a new seed; a failure prints the seed and path to replay).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCron } from '../../src/time/cron-parse.js';
import { countRunsOnDay } from '../../src/time/runs-per-day.js';
import { createSlotCalendar, nextSlot, slotsBetween, type DstPolicy } from '../../src/time/slots.js';
import { runOptions } from '../hostile/run-options.js';
import { bruteForceSlots, coversLocalDay, findTransitions, OracleZone, type CronFields } from './brute-force-slots.js';
import { randomCron } from './random-cron.js';

const DEFAULT_RUNS = 100;
const RUNS = Number(process.env.CRONFORM_SLOTS_DIFFERENTIAL_RUNS ?? DEFAULT_RUNS);

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const FIRST_START_MS = Date.UTC(1900, 0, 1);
const LAST_START_MS = Date.UTC(2031, 0, 1);
const ZONES = Intl.supportedValuesOf('timeZone');

interface DifferentialCase {
  zone: string;
  cron: string;
  fields: CronFields;
  dst: DstPolicy;
  dayMatch: 'any' | 'all' | undefined;
  fromMs: number;
  toMs: number;
  /** Instants after which `nextSlot` is asked, besides each slot and the instant before it. */
  probes: number[];
}

const iso = (ms: number | undefined) => (ms === undefined ? 'none' : new Date(ms).toISOString());

function describeCase(c: DifferentialCase): string {
  return `"${c.cron}" in ${c.zone}, dst ${c.dst.gap}/${c.dst.fold}, dayMatch ${c.dayMatch ?? '-'}, [${iso(c.fromMs)}, ${iso(c.toMs)})`;
}

function checkAgainstOracle(c: DifferentialCase): void {
  const parsed = parseCron(c.cron);
  if (!parsed.ok) throw new Error(`generated cron refused: ${describeCase(c)}: ${parsed.error.message}`);
  const calendar = createSlotCalendar({ cron: parsed.cron, timezone: c.zone, dst: c.dst, dayMatch: c.dayMatch });
  const oracle = new OracleZone(c.zone, c.fromMs - 3 * DAY_MS, c.toMs + 3 * DAY_MS);
  const expected = bruteForceSlots(oracle, c.fields, c.dayMatch, c.dst, c.fromMs, c.toMs);
  const actual = slotsBetween(calendar, c.fromMs, c.toMs);
  const context = describeCase(c);

  for (let index = 1; index < actual.length; index += 1) {
    if (actual[index]! <= actual[index - 1]!) throw new Error(`${context}: slot ${iso(actual[index])} follows ${iso(actual[index - 1])}`);
  }
  if (actual.length !== expected.length || actual.some((slot, index) => slot !== expected[index])) {
    const extra = actual.filter((slot) => !expected.includes(slot)).slice(0, 5).map(iso);
    const missing = expected.filter((slot) => !actual.includes(slot)).slice(0, 5).map(iso);
    throw new Error(`${context}: ${actual.length} slots, oracle ${expected.length}; extra ${extra.join(' ') || '-'}; missing ${missing.join(' ') || '-'}`);
  }

  const probes = [c.fromMs, ...c.probes, ...expected.slice(0, 40).flatMap((slot) => [slot - 1, slot]), ...oracle.transitions.map((t) => t.atMs - 1)];
  for (const probe of probes.filter((t) => t >= c.fromMs && t < c.toMs)) {
    const next = nextSlot(calendar, probe);
    const [first] = slotsBetween(calendar, probe + 1, Number.POSITIVE_INFINITY, 1);
    if (next !== first) throw new Error(`${context}: nextSlot(${iso(probe)}) = ${iso(next)}, slotsBetween starts at ${iso(first)}`);
    const expectedNext = expected.find((slot) => slot > probe);
    const agrees = expectedNext === undefined ? next === undefined || next >= c.toMs : next === expectedNext;
    if (!agrees) throw new Error(`${context}: nextSlot(${iso(probe)}) = ${iso(next)}, oracle ${iso(expectedNext)}`);
  }

  for (let day = Math.floor(c.fromMs / DAY_MS); day * DAY_MS < c.toMs; day += 1) {
    if (!coversLocalDay(c.fromMs, c.toMs, day)) continue;
    const onDay = expected.filter((slot) => oracle.localDayOf(slot) === day).length;
    const counted = countRunsOnDay(calendar, day);
    if (counted !== onDay) throw new Error(`${context}: countRunsOnDay(${iso(day * DAY_MS).slice(0, 10)}) = ${counted}, oracle ${onDay}`);
  }
}

/** A zone, an instant of 1900–2031 and the first transition after it (within three years), with a window around it. */
const differentialCase = fc
  .record({
    zoneIndex: fc.nat(ZONES.length - 1),
    startMinute: fc.integer({ min: 0, max: (LAST_START_MS - FIRST_START_MS) / MINUTE_MS }),
    cron: randomCron(),
    dst: fc.record({ gap: fc.constantFrom('shift' as const, 'skip' as const), fold: fc.constantFrom('first' as const, 'second' as const, 'both' as const) }),
    dayMatch: fc.constantFrom('any' as const, 'all' as const, undefined),
    beforeMinutes: fc.integer({ min: 0, max: 60 * 60 }),
    afterMinutes: fc.integer({ min: 1, max: 60 * 60 }),
    probeFractions: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }),
  })
  .map(({ zoneIndex, startMinute, cron, dst, dayMatch, beforeMinutes, afterMinutes, probeFractions }): DifferentialCase => {
    const zone = ZONES[zoneIndex]!;
    const startMs = FIRST_START_MS + startMinute * MINUTE_MS;
    const [transition] = findTransitions(zone, startMs, startMs + 3 * 365 * DAY_MS, 7 * DAY_MS, 1);
    const centerMs = Math.floor((transition?.atMs ?? startMs) / MINUTE_MS) * MINUTE_MS;
    // A second-by-second scan is kept to a few hours around the transition.
    const scale = cron.fields.intervalLike && cron.fields.hasSecondsField ? 20 : 1;
    const fromMs = centerMs - Math.round(beforeMinutes / scale) * MINUTE_MS;
    const toMs = centerMs + Math.max(1, Math.round(afterMinutes / scale)) * MINUTE_MS;
    const probes = probeFractions.map((fraction) => fromMs + Math.floor(fraction * (toMs - fromMs)));
    return { zone, cron: cron.text, fields: cron.fields, dst, dayMatch, fromMs, toMs, probes };
  });

/** Fields of a plain five-field cron without day restrictions, for the pinned vectors. */
function dailyFields(minutes: number[], hours: number[], intervalLike = false): CronFields {
  const span = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);
  return { seconds: [0], minutes, hours, daysOfMonth: span(1, 31), lastDayOfMonth: false, months: span(1, 12), daysOfWeek: span(0, 6), dayOfMonthRestricted: false, dayOfWeekRestricted: false, intervalLike, hasSecondsField: false };
}

describe('slot engine against a brute-force zoneinfo oracle', () => {
  const shiftFirst: DstPolicy = { gap: 'shift', fold: 'first' };
  // The counterexamples of issue 17, checked against this machine's ICU data.
  it.each<[string, DifferentialCase]>([
    ['a time shifted onto the next day is one slot (America/Nuuk, March)', { zone: 'America/Nuuk', cron: '0 0,23 * * *', fields: dailyFields([0], [0, 23]), dst: shiftFirst, dayMatch: undefined, fromMs: Date.parse('2025-03-28T00:00Z'), toMs: Date.parse('2025-04-01T00:00Z'), probes: [Date.parse('2025-03-30T00:59Z')] }],
    ['…every hour listed (America/Nuuk, "0 */1")', { zone: 'America/Nuuk', cron: '0 */1 * * *', fields: dailyFields([0], Array.from({ length: 24 }, (_, h) => h)), dst: shiftFirst, dayMatch: undefined, fromMs: Date.parse('2025-03-28T00:00Z'), toMs: Date.parse('2025-04-01T00:00Z'), probes: [] }],
    ['…Scoresbysund too', { zone: 'America/Scoresbysund', cron: '*/15 0-23 * * *', fields: dailyFields([0, 15, 30, 45], Array.from({ length: 24 }, (_, h) => h)), dst: { gap: 'shift', fold: 'both' }, dayMatch: undefined, fromMs: Date.parse('2025-03-28T00:00Z'), toMs: Date.parse('2025-04-01T00:00Z'), probes: [] }],
    ['a repeated hour across midnight in order (America/St_Johns 2006)', { zone: 'America/St_Johns', cron: '0,30 * * * *', fields: dailyFields([0, 30], Array.from({ length: 24 }, (_, h) => h), true), dst: shiftFirst, dayMatch: undefined, fromMs: Date.parse('2006-10-27T00:00Z'), toMs: Date.parse('2006-10-31T00:00Z'), probes: [Date.parse('2006-10-29T02:00Z')] }],
    ['…fixed-time, both passes', { zone: 'America/St_Johns', cron: '0,30 0,23 * * *', fields: dailyFields([0, 30], [0, 23]), dst: { gap: 'skip', fold: 'both' }, dayMatch: undefined, fromMs: Date.parse('2006-10-27T00:00Z'), toMs: Date.parse('2006-10-31T00:00Z'), probes: [] }],
    ['a transition at 1 January 00:00 UTC (Antarctica/Casey 1969)', { zone: 'Antarctica/Casey', cron: '0 0 * * *', fields: dailyFields([0], [0]), dst: shiftFirst, dayMatch: undefined, fromMs: Date.parse('1968-12-29T00:00Z'), toMs: Date.parse('1969-01-03T00:00Z'), probes: [] }],
    ['a whole day skipped (Pacific/Apia 2011-12-30)', { zone: 'Pacific/Apia', cron: '0 0,12,23 * * *', fields: dailyFields([0], [0, 12, 23]), dst: shiftFirst, dayMatch: undefined, fromMs: Date.parse('2011-12-27T00:00Z'), toMs: Date.parse('2012-01-02T00:00Z'), probes: [] }],
  ])('%s', (_name, c) => {
    checkAgainstOracle(c);
  });

  it(`agrees on ${RUNS} random zones, windows, crons and policies`, () => {
    fc.assert(
      fc.property(differentialCase, (c) => {
        checkAgainstOracle(c);
      }),
      runOptions(RUNS),
    );
    expect(RUNS).toBeGreaterThan(0);
  }, Math.max(30_000, RUNS * 100));
});

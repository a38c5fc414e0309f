/**
 * Random cron expressions built from cron tokens: the parser never throws and points inside the
 * expression; whatever it accepts reads the fields as croner (the test oracle) does, and its slots
 * are those of a brute-force walk over UTC days. cronform may be stricter than croner, never more
 * lenient: an expression croner refuses must be refused.
 */
import { CronPattern } from 'croner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCron, type CronExpression } from '../../src/time/cron-parse.js';
import { minIntervalSeconds } from '../../src/time/interval.js';
import { countRunsPerDay } from '../../src/time/runs-per-day.js';
import { createSlotCalendar, nextSlots } from '../../src/time/slots.js';
import { cronExpression, plausibleCron, timezoneName } from './manifest-mutations.js';
import { HOSTILE_NOW_MS, MAX_COMPILE_MS, runOptions } from './run-options.js';
import { runBounded } from './watchdog.js';
import { isValidTimezone } from '../../src/time/zone.js';

const START = new Date('2026-01-15T10:17:23Z');
const DAY_MS = 86_400_000;

/** croner's reading of the fields, or its refusal. Its slot iteration is not used: it has bugs of its own (with a day-of-month step of 15 it skips 1 March). */
function cronerFields(expression: string): Omit<CronExpression, 'source' | 'dayOfMonthRestricted' | 'dayOfWeekRestricted' | 'intervalLike' | 'hasSecondsField'> | Error {
  let pattern: CronPattern;
  try {
    pattern = new CronPattern(expression, 'UTC');
  } catch (error) {
    return error as Error;
  }
  const set = (flags: number[], offset = 0) => flags.flatMap((flag, index) => (flag ? [index + offset] : []));
  return {
    seconds: set(pattern.second),
    minutes: set(pattern.minute),
    hours: set(pattern.hour),
    daysOfMonth: set(pattern.day, 1),
    months: set(pattern.month, 1),
    daysOfWeek: [...new Set(set(pattern.dayOfWeek).map((d) => d % 7))].sort((a, b) => a - b),
    lastDayOfMonth: pattern.lastDayOfMonth,
  };
}

/** The first slots after START in UTC by brute force over calendar days, independent of slots.ts. */
function referenceSlots(cron: CronExpression, dayMatch: 'any' | 'all', count: number, horizonDays: number): number[] {
  const slots: number[] = [];
  const firstDay = Math.floor(START.getTime() / DAY_MS);
  for (let day = firstDay; day < firstDay + horizonDays && slots.length < count; day += 1) {
    const date = new Date(day * DAY_MS);
    const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
    const domMatch = cron.daysOfMonth.includes(date.getUTCDate()) || (cron.lastDayOfMonth && date.getUTCDate() === lastDay);
    const dowMatch = cron.daysOfWeek.includes(date.getUTCDay());
    const dayMatches = cron.dayOfMonthRestricted && cron.dayOfWeekRestricted ? (dayMatch === 'any' ? domMatch || dowMatch : domMatch && dowMatch) : cron.dayOfMonthRestricted ? domMatch : cron.dayOfWeekRestricted ? dowMatch : true;
    if (!cron.months.includes(date.getUTCMonth() + 1) || !dayMatches) continue;
    for (const hour of cron.hours) {
      for (const minute of cron.minutes) {
        for (const second of cron.seconds) {
          const slot = day * DAY_MS + (hour * 3600 + minute * 60 + second) * 1000;
          if (slot > START.getTime() && slots.length < count) slots.push(slot);
        }
      }
    }
  }
  return slots;
}

describe('cron expressions from cron tokens', () => {
  it('parse without throwing; errors point inside the expression', () => {
    fc.assert(
      fc.property(cronExpression, (expression) => {
        const parsed = runBounded(expression, MAX_COMPILE_MS, () => parseCron(expression));
        if (!parsed.ok) {
          expect(parsed.error.offset).toBeGreaterThanOrEqual(0);
          expect(parsed.error.offset).toBeLessThanOrEqual(expression.length);
          expect(parsed.error.message).not.toBe('');
        }
      }),
      runOptions(2_000),
    );
  });

  it('read fields as croner does, and refuse what croner refuses', () => {
    fc.assert(
      fc.property(cronExpression, (expression) => {
        const parsed = parseCron(expression);
        // "?" means "now" to croner and "any" to cronform; macros are cronform's own list: not comparable.
        if (!parsed.ok || expression.includes('?') || expression.trim().startsWith('@')) return;
        // Day-of-week readings known to differ: croner mishandles a step from 7 ("7/2": a stack overflow,
        // or no day at all) and reads SUN closing a range as 7 ("0-SUN": every day); cronform reads Sunday.
        const weekdays = expression.trim().split(/\s+/).at(-1) ?? '';
        if (/(^|,)0*7\//.test(weekdays) || /-sun\b/i.test(weekdays)) return;
        const theirs = cronerFields(expression.trim());
        const { seconds, minutes, hours, daysOfMonth, months, daysOfWeek, lastDayOfMonth } = parsed.cron;
        expect(theirs instanceof Error ? `croner refuses: ${theirs.message}` : theirs, expression).toEqual({ seconds, minutes, hours, daysOfMonth, months, daysOfWeek, lastDayOfMonth });
      }),
      runOptions(2_000),
    );
  });

  it('give the slots a brute-force walk over UTC days gives', () => {
    fc.assert(
      fc.property(plausibleCron, fc.constantFrom('any' as const, 'all' as const), (expression, dayMatch) => {
        const parsed = parseCron(expression);
        if (!parsed.ok) return;
        const ours = runBounded(expression, MAX_COMPILE_MS, () => nextSlots({ cron: parsed.cron, timezone: 'UTC', dst: { gap: 'shift', fold: 'first' }, dayMatch }, START.getTime(), 20));
        const horizonMs = START.getTime() + 800 * DAY_MS;
        expect(ours.filter((slot) => slot < horizonMs), expression).toEqual(referenceSlots(parsed.cron, dayMatch, 20, 800).filter((slot) => slot < horizonMs));
      }),
      runOptions(600),
    );
  });

  it('accepted expressions in any valid zone: slots, intervals and runs per day in bounded time', () => {
    fc.assert(
      fc.property(cronExpression, timezoneName, fc.constantFrom('shift' as const, 'skip' as const), fc.constantFrom('first' as const, 'second' as const, 'both' as const), (expression, timezone, gap, fold) => {
        const parsed = parseCron(expression);
        if (!parsed.ok || !isValidTimezone(timezone)) return;
        runBounded({ expression, timezone, gap, fold }, MAX_COMPILE_MS, () => {
          const calendar = createSlotCalendar({ cron: parsed.cron, timezone, dst: { gap, fold } });
          const slots = nextSlots(calendar, HOSTILE_NOW_MS, 10);
          expect([...slots].sort((a, b) => a - b)).toEqual(slots);
          expect(new Set(slots).size).toBe(slots.length);
          const interval = minIntervalSeconds(parsed.cron);
          if (interval !== undefined) expect(interval).toBeGreaterThan(0);
          expect(countRunsPerDay(calendar, HOSTILE_NOW_MS).peak).toBeGreaterThanOrEqual(0);
        });
      }),
      runOptions(500),
    );
  });
});

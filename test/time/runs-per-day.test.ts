import { describe, expect, it } from 'vitest';
import { parseCron } from '../../src/time/cron-parse.js';
import { createSlotCalendar, slotsBetween, type DstPolicy } from '../../src/time/slots.js';
import { countRunsOnDay, countRunsPerDay } from '../../src/time/runs-per-day.js';
import { daysFromCivil } from '../../src/time/civil.js';

function calendar(cron: string, timezone: string, dst: Partial<DstPolicy> = {}, dayMatch?: 'any' | 'all') {
  const parsed = parseCron(cron);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return createSlotCalendar({ cron: parsed.cron, timezone, dst: { gap: 'shift', fold: 'first', ...dst }, dayMatch });
}

describe('runs per day', () => {
  it.each([
    { cron: '* * * * * *', zone: 'UTC', peak: 86_400, average: 86_400 },
    { cron: '*/5 * * * *', zone: 'Europe/Berlin', peak: 288, average: 288 },
    { cron: '30 19 * * *', zone: 'Asia/Seoul', peak: 1, average: 1 },
    { cron: '0 8 * * 1', zone: 'America/New_York', peak: 1, average: 1 / 7 },
    { cron: '@hourly', zone: 'Asia/Seoul', peak: 24, average: 24 },
  ])('$cron in $zone: peak $peak, average $average', ({ cron, zone, peak, average }) => {
    const result = countRunsPerDay(calendar(cron, zone), Date.parse('2026-06-01T12:00:00Z'));
    expect(result.peak).toBe(peak);
    expect(result.average).toBeCloseTo(average, 10);
  });

  it('counts the real hours of DST days for interval-like schedules', () => {
    const hourly = calendar('0 * * * *', 'America/New_York');
    const quarter = calendar('*/15 * * * *', 'America/New_York');
    const spring = daysFromCivil(2026, 3, 8);
    const fall = daysFromCivil(2026, 11, 1);
    expect(countRunsOnDay(hourly, spring)).toBe(23);
    expect(countRunsOnDay(hourly, fall)).toBe(25);
    expect(countRunsOnDay(quarter, spring)).toBe(92);
    expect(countRunsOnDay(quarter, fall)).toBe(100);
    const secondly = calendar('* * * * * *', 'America/New_York');
    expect(countRunsOnDay(secondly, spring)).toBe(23 * 3600);
    expect(countRunsOnDay(secondly, fall)).toBe(25 * 3600);
    // The 35-day window starting on 2026-10-20 contains the 25-hour day: it is the peak.
    const window = countRunsPerDay(hourly, Date.parse('2026-10-20T12:00:00Z'));
    expect(window).toMatchObject({ peak: 25, peakDate: '2026-11-01' });
    expect(window.total).toBe(35 * 24 + 1);
  });

  it('applies the fixed-time dst policy to the count', () => {
    const spring = daysFromCivil(2026, 3, 8);
    const fall = daysFromCivil(2026, 11, 1);
    expect(countRunsOnDay(calendar('30 2 * * *', 'America/New_York', { gap: 'shift' }), spring)).toBe(1);
    expect(countRunsOnDay(calendar('30 2 * * *', 'America/New_York', { gap: 'skip' }), spring)).toBe(0);
    expect(countRunsOnDay(calendar('30 2,3 * * *', 'America/New_York', { gap: 'shift' }), spring)).toBe(1);
    expect(countRunsOnDay(calendar('30 1 * * *', 'America/New_York', { fold: 'both' }), fall)).toBe(2);
    expect(countRunsOnDay(calendar('30 1 * * *', 'America/New_York', { fold: 'second' }), fall)).toBe(1);
  });

  // The analytic count must agree with enumerating the day's slots, for every kind of day.
  const expressions = ['0 * * * *', '*/7 * * * *', '30 2 * * *', '0,30 1-3 * * *', '15 0-2,23 * * *', '*/20 * * * * *', '0 */2 * * *', '45 1 * * *', '0 0 * * *', '30 23 * * *'];
  const zones: Array<[string, Array<[number, number, number]>]> = [
    ['America/New_York', [[2026, 3, 8], [2026, 11, 1]]],
    ['Europe/Berlin', [[2026, 3, 29], [2026, 10, 25]]],
    ['Australia/Lord_Howe', [[2026, 4, 5], [2026, 10, 4]]],
    ['America/Santiago', [[2026, 4, 4], [2026, 9, 6]]],
    ['Africa/Cairo', [[2026, 4, 24], [2026, 10, 29]]],
  ];
  const policies: DstPolicy[] = [
    { gap: 'shift', fold: 'first' },
    { gap: 'skip', fold: 'second' },
    { gap: 'shift', fold: 'both' },
  ];
  for (const [zone, days] of zones) {
    it(`matches enumeration on DST days in ${zone}`, () => {
      for (const expression of expressions) {
        for (const policy of policies) {
          const cal = calendar(expression, zone, policy);
          for (const [y, m, d] of days) {
            const day = daysFromCivil(y, m, d);
            for (const dayNumber of [day - 1, day, day + 1]) {
              expect(countRunsOnDay(cal, dayNumber), `${expression} ${zone} ${JSON.stringify(policy)} day ${dayNumber}`).toBe(cal.slotsOfDay(dayNumber).length);
            }
          }
        }
      }
    });
  }

  it('counts a slot shifted past midnight on the day it runs, once (America/Nuuk 2025-03-29)', () => {
    // Saturday 23:00 -02 → Sunday 00:00 -01: Saturday's shifted 23:00 is Sunday's midnight.
    const saturday = daysFromCivil(2025, 3, 29);
    const hourly = calendar('0 0-23 * * *', 'America/Nuuk');
    expect([countRunsOnDay(hourly, saturday), countRunsOnDay(hourly, saturday + 1)]).toEqual([23, 24]);
    const lateEvening = calendar('0 23 * * *', 'America/Nuuk');
    expect([countRunsOnDay(lateEvening, saturday), countRunsOnDay(lateEvening, saturday + 1)]).toEqual([0, 2]);
    expect([countRunsOnDay(calendar('0 23 * * *', 'America/Nuuk', { gap: 'skip' }), saturday), countRunsOnDay(calendar('0 23 * * *', 'America/Nuuk', { gap: 'skip' }), saturday + 1)]).toEqual([0, 1]);
    // Saturdays only: the shifted slot still runs on Sunday, a day the expression does not match.
    const saturdays = calendar('0 23 * * 6', 'America/Nuuk');
    expect([countRunsOnDay(saturdays, saturday), countRunsOnDay(saturdays, saturday + 1)]).toEqual([0, 1]);
  });

  // Each slot counts on the local day of its instant, whichever day's wall time produced it.
  const shiftZones: Array<[string, [number, number, number]]> = [
    ['America/Nuuk', [2025, 3, 29]],
    ['America/Santiago', [2026, 9, 6]],
    ['Pacific/Apia', [2011, 12, 30]],
    ['America/St_Johns', [2006, 10, 29]],
  ];
  it.each(shiftZones)('matches the slots whose instant falls on each day in %s', (zone, [y, m, d]) => {
    const day = daysFromCivil(y, m, d);
    for (const expression of ['0 0,23 * * *', '0 23 * * *', '30 22-23 * * 5,6', '0,30 0-23 * * *', '15 0-2,23 * * *', '0 * * * *', '*/20 * * * * *']) {
      for (const policy of [{ gap: 'shift', fold: 'first' }, { gap: 'skip', fold: 'both' }, { gap: 'shift', fold: 'second' }] as DstPolicy[]) {
        const cal = calendar(expression, zone, policy);
        const slots = slotsBetween(cal, (day - 4) * 86_400_000, (day + 5) * 86_400_000);
        for (let dayNumber = day - 2; dayNumber <= day + 2; dayNumber += 1) {
          const onDay = slots.filter((slot) => Math.floor(cal.zone.wallFromInstant(slot) / 86_400_000) === dayNumber).length;
          expect(countRunsOnDay(cal, dayNumber), `${expression} ${JSON.stringify(policy)} day ${dayNumber - day}`).toBe(onDay);
        }
      }
    }
  });
});

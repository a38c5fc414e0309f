import { describe, expect, it } from 'vitest';
import { parseCron } from '../../src/time/cron-parse.js';
import { nextSlot, slotsBetween, type DstPolicy } from '../../src/time/slots.js';
import { ZoneRules } from '../../src/time/zone.js';

function parsedCron(cron: string) {
  const parsed = parseCron(cron);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.cron;
}

function slots(cron: string, timezone: string, dst: Partial<DstPolicy>, from: string, to: string): string[] {
  const rules = { cron: parsedCron(cron), timezone, dst: { gap: 'shift', fold: 'first', ...dst } as DstPolicy };
  return slotsBetween(rules, Date.parse(from), Date.parse(to)).map((ms) => new Date(ms).toISOString());
}

const z = (isoMinute: string) => `${isoMinute}:00.000Z`;

describe('fixed-time schedules inside the changed hour', () => {
  const cases: Array<{ name: string; cron: string; zone: string; dst: Partial<DstPolicy>; from: string; to: string; expected: string[] }> = [
    // America/New_York: 2026-03-08 02:00 EST → 03:00 EDT; 2026-11-01 02:00 EDT → 01:00 EST.
    { name: 'New York spring, gap shift', cron: '30 2 * * *', zone: 'America/New_York', dst: { gap: 'shift' }, from: '2026-03-07T00:00Z', to: '2026-03-10T00:00Z', expected: ['2026-03-07T07:30', '2026-03-08T07:30', '2026-03-09T06:30'].map(z) },
    { name: 'New York spring, gap skip', cron: '30 2 * * *', zone: 'America/New_York', dst: { gap: 'skip' }, from: '2026-03-07T00:00Z', to: '2026-03-10T00:00Z', expected: ['2026-03-07T07:30', '2026-03-09T06:30'].map(z) },
    { name: 'New York fall, fold first', cron: '30 1 * * *', zone: 'America/New_York', dst: { fold: 'first' }, from: '2026-10-31T00:00Z', to: '2026-11-03T00:00Z', expected: ['2026-10-31T05:30', '2026-11-01T05:30', '2026-11-02T06:30'].map(z) },
    { name: 'New York fall, fold second', cron: '30 1 * * *', zone: 'America/New_York', dst: { fold: 'second' }, from: '2026-10-31T00:00Z', to: '2026-11-03T00:00Z', expected: ['2026-10-31T05:30', '2026-11-01T06:30', '2026-11-02T06:30'].map(z) },
    { name: 'New York fall, fold both', cron: '30 1 * * *', zone: 'America/New_York', dst: { fold: 'both' }, from: '2026-10-31T00:00Z', to: '2026-11-03T00:00Z', expected: ['2026-10-31T05:30', '2026-11-01T05:30', '2026-11-01T06:30', '2026-11-02T06:30'].map(z) },
    // Europe/Berlin: 2026-03-29 02:00 CET → 03:00 CEST; 2026-10-25 03:00 CEST → 02:00 CET.
    { name: 'Berlin spring, gap shift', cron: '30 2 * * *', zone: 'Europe/Berlin', dst: { gap: 'shift' }, from: '2026-03-28T00:00Z', to: '2026-03-31T00:00Z', expected: ['2026-03-28T01:30', '2026-03-29T01:30', '2026-03-30T00:30'].map(z) },
    { name: 'Berlin spring, gap skip', cron: '30 2 * * *', zone: 'Europe/Berlin', dst: { gap: 'skip' }, from: '2026-03-28T00:00Z', to: '2026-03-31T00:00Z', expected: ['2026-03-28T01:30', '2026-03-30T00:30'].map(z) },
    { name: 'Berlin fall, fold first', cron: '30 2 * * *', zone: 'Europe/Berlin', dst: { fold: 'first' }, from: '2026-10-24T00:00Z', to: '2026-10-27T00:00Z', expected: ['2026-10-24T00:30', '2026-10-25T00:30', '2026-10-26T01:30'].map(z) },
    { name: 'Berlin fall, fold second', cron: '30 2 * * *', zone: 'Europe/Berlin', dst: { fold: 'second' }, from: '2026-10-24T00:00Z', to: '2026-10-27T00:00Z', expected: ['2026-10-24T00:30', '2026-10-25T01:30', '2026-10-26T01:30'].map(z) },
    { name: 'Berlin fall, fold both', cron: '30 2 * * *', zone: 'Europe/Berlin', dst: { fold: 'both' }, from: '2026-10-24T00:00Z', to: '2026-10-27T00:00Z', expected: ['2026-10-24T00:30', '2026-10-25T00:30', '2026-10-25T01:30', '2026-10-26T01:30'].map(z) },
    // Australia/Sydney (southern hemisphere): 2026-04-05 03:00 AEDT → 02:00 AEST; 2026-10-04 02:00 AEST → 03:00 AEDT.
    { name: 'Sydney April fold first', cron: '30 2 * * *', zone: 'Australia/Sydney', dst: { fold: 'first' }, from: '2026-04-03T00:00Z', to: '2026-04-06T00:00Z', expected: ['2026-04-03T15:30', '2026-04-04T15:30', '2026-04-05T16:30'].map(z) },
    { name: 'Sydney April fold second', cron: '30 2 * * *', zone: 'Australia/Sydney', dst: { fold: 'second' }, from: '2026-04-03T00:00Z', to: '2026-04-06T00:00Z', expected: ['2026-04-03T15:30', '2026-04-04T16:30', '2026-04-05T16:30'].map(z) },
    { name: 'Sydney October gap shift', cron: '30 2 * * *', zone: 'Australia/Sydney', dst: { gap: 'shift' }, from: '2026-10-02T00:00Z', to: '2026-10-05T00:00Z', expected: ['2026-10-02T16:30', '2026-10-03T16:30', '2026-10-04T15:30'].map(z) },
    { name: 'Sydney October gap skip', cron: '30 2 * * *', zone: 'Australia/Sydney', dst: { gap: 'skip' }, from: '2026-10-02T00:00Z', to: '2026-10-05T00:00Z', expected: ['2026-10-02T16:30', '2026-10-04T15:30'].map(z) },
    // Australia/Lord_Howe: 30-minute shifts. 2026-10-04 02:00 → 02:30 (+10:30 → +11); 2026-04-05 02:00 → 01:30.
    { name: 'Lord Howe October gap shift by 30 min', cron: '15 2 * * *', zone: 'Australia/Lord_Howe', dst: { gap: 'shift' }, from: '2026-10-02T00:00Z', to: '2026-10-05T00:00Z', expected: ['2026-10-02T15:45', '2026-10-03T15:45', '2026-10-04T15:15'].map(z) },
    { name: 'Lord Howe October gap skip', cron: '15 2 * * *', zone: 'Australia/Lord_Howe', dst: { gap: 'skip' }, from: '2026-10-02T00:00Z', to: '2026-10-05T00:00Z', expected: ['2026-10-02T15:45', '2026-10-04T15:15'].map(z) },
    { name: 'Lord Howe April fold both', cron: '45 1 * * *', zone: 'Australia/Lord_Howe', dst: { fold: 'both' }, from: '2026-04-03T00:00Z', to: '2026-04-06T00:00Z', expected: ['2026-04-03T14:45', '2026-04-04T14:45', '2026-04-04T15:15', '2026-04-05T15:15'].map(z) },
    // America/Santiago: midnight is skipped on 2026-09-06 (00:00 → 01:00) and 23:00–24:00 repeats on 2026-04-04.
    { name: 'Santiago skipped midnight, shift', cron: '0 0 * * *', zone: 'America/Santiago', dst: { gap: 'shift' }, from: '2026-09-05T00:00Z', to: '2026-09-08T00:00Z', expected: ['2026-09-05T04:00', '2026-09-06T04:00', '2026-09-07T03:00'].map(z) },
    { name: 'Santiago skipped midnight, skip', cron: '0 0 * * *', zone: 'America/Santiago', dst: { gap: 'skip' }, from: '2026-09-05T00:00Z', to: '2026-09-08T00:00Z', expected: ['2026-09-05T04:00', '2026-09-07T03:00'].map(z) },
    { name: 'Santiago repeated 23:30, both', cron: '30 23 * * *', zone: 'America/Santiago', dst: { fold: 'both' }, from: '2026-04-04T12:00Z', to: '2026-04-06T12:00Z', expected: ['2026-04-05T02:30', '2026-04-05T03:30', '2026-04-06T03:30'].map(z) },
    // Africa/Cairo: midnight skipped on 2026-04-24 (00:00 EET → 01:00 EEST).
    { name: 'Cairo skipped midnight, shift', cron: '0 0 * * *', zone: 'Africa/Cairo', dst: { gap: 'shift' }, from: '2026-04-22T12:00Z', to: '2026-04-25T12:00Z', expected: ['2026-04-22T22:00', '2026-04-23T22:00', '2026-04-24T21:00'].map(z) },
    // Asia/Seoul: no DST, 19:30 KST is always 10:30Z.
    { name: 'Seoul, no DST', cron: '30 19 * * *', zone: 'Asia/Seoul', dst: {}, from: '2026-03-07T00:00Z', to: '2026-03-10T00:00Z', expected: ['2026-03-07T10:30', '2026-03-08T10:30', '2026-03-09T10:30'].map(z) },
  ];

  it.each(cases)('$name', ({ cron, zone, dst, from, to, expected }) => {
    expect(slots(cron, zone, dst, from, to)).toEqual(expected);
  });

  it('a shifted slot that lands on an existing slot fires once', () => {
    // 02:30 shifts to 03:30, which is already a slot.
    expect(slots('30 2,3 * * *', 'America/New_York', { gap: 'shift' }, '2026-03-08T05:00Z', '2026-03-08T09:00Z')).toEqual([z('2026-03-08T07:30')]);
  });
});

describe('interval-like schedules across transitions', () => {
  const cases = [
    { cron: '*/15 * * * *', stepMinutes: 15, zone: 'America/New_York', from: '2026-03-08T04:00Z', to: '2026-03-08T10:00Z' },
    { cron: '*/15 * * * *', stepMinutes: 15, zone: 'America/New_York', from: '2026-11-01T03:00Z', to: '2026-11-01T09:00Z' },
    { cron: '0 * * * *', stepMinutes: 60, zone: 'America/New_York', from: '2026-03-08T00:00Z', to: '2026-03-09T00:00Z' },
    { cron: '0 * * * *', stepMinutes: 60, zone: 'America/New_York', from: '2026-11-01T00:00Z', to: '2026-11-02T00:00Z' },
    { cron: '*/15 * * * *', stepMinutes: 15, zone: 'Europe/Berlin', from: '2026-03-29T00:00Z', to: '2026-03-29T03:00Z' },
    { cron: '0 * * * *', stepMinutes: 60, zone: 'Europe/Berlin', from: '2026-10-24T22:00Z', to: '2026-10-25T04:00Z' },
    { cron: '*/15 * * * *', stepMinutes: 15, zone: 'Australia/Lord_Howe', from: '2026-10-03T14:00Z', to: '2026-10-03T17:00Z' },
    { cron: '*/15 * * * *', stepMinutes: 15, zone: 'Australia/Lord_Howe', from: '2026-04-04T13:00Z', to: '2026-04-04T17:00Z' },
  ];

  it.each(cases)('$cron in $zone from $from has no duplicates and no gaps in real time', ({ cron, stepMinutes, zone, from, to }) => {
    const result = slots(cron, zone, {}, from, to).map((iso) => Date.parse(iso));
    const expectedCount = (Date.parse(to) - Date.parse(from)) / (stepMinutes * 60_000);
    expect(result).toHaveLength(expectedCount);
    expect(result[0]).toBe(Date.parse(from));
    for (let i = 1; i < result.length; i += 1) expect(result[i]! - result[i - 1]!).toBe(stepMinutes * 60_000);
  });

  it('ignores dst options: the repeated hour fires in both passes even with fold: first', () => {
    const firstOnly = slots('30 * * * *', 'America/New_York', { fold: 'first' }, '2026-11-01T04:00Z', '2026-11-01T08:00Z');
    expect(firstOnly).toEqual(['2026-11-01T04:30', '2026-11-01T05:30', '2026-11-01T06:30', '2026-11-01T07:30'].map(z));
  });
});

// Counterexamples found by differential testing against a brute-force zoneinfo enumerator (issue
// 17), checked against this machine's ICU data; test/time/slots-differential.test.ts explores more.
describe('transitions the zone table once lost or misordered', () => {
  it('keeps a transition exactly at 1 January 00:00 UTC (Antarctica/Casey 1969: +00 → +08)', () => {
    // Midnight of 1 January 1969 is skipped (00:00 → 08:00): shifted, it runs at 08:00 = 00:00Z.
    // The table once dropped the transition and put a slot at 16:00 local on 31 December.
    expect(slots('0 0 * * *', 'Antarctica/Casey', {}, '1968-12-30T00:00Z', '1969-01-03T00:00Z')).toEqual(['1968-12-30T00:00', '1968-12-31T00:00', '1969-01-01T00:00', '1969-01-01T16:00', '1969-01-02T16:00'].map(z));
    expect(slots('0 0 * * *', 'Antarctica/Casey', { gap: 'skip' }, '1968-12-30T00:00Z', '1969-01-03T00:00Z')).toEqual(['1968-12-30T00:00', '1968-12-31T00:00', '1969-01-01T16:00', '1969-01-02T16:00'].map(z));
    const casey = new ZoneRules('Antarctica/Casey');
    const newYear = Date.parse('1969-01-01T00:00Z');
    expect(casey.transitionsBetween(newYear - 86_400_000, newYear + 86_400_000)).toEqual([{ atMs: newYear, offsetBeforeMs: 0, offsetAfterMs: 8 * 3_600_000 }]);
    expect([casey.offsetAt(newYear - 1000), casey.offsetAt(newYear)]).toEqual([0, 8 * 3_600_000]);
  });

  it('fires a repeated hour that crosses local midnight in time order (America/St_Johns 2006-10-29)', () => {
    // 00:01 NDT (-02:30) → 23:01 NST (-03:30) at 02:31Z: 23:01–24:00 of the 28th and 00:00–00:01 of
    // the 29th happen twice, so 00:00 (02:30Z) comes before the second 23:30 (03:00Z).
    const expected = ['2006-10-29T01:30', '2006-10-29T02:00', '2006-10-29T02:30', '2006-10-29T03:00', '2006-10-29T03:30', '2006-10-29T04:00'].map(z);
    expect(slots('0,30 * * * *', 'America/St_Johns', {}, '2006-10-29T01:30Z', '2006-10-29T04:01Z')).toEqual(expected);
    expect(slots('0,30 * * * *', 'America/St_Johns', { fold: 'first' }, '2006-10-29T01:30Z', '2006-10-29T04:01Z')).toEqual(expected);
    expect(slots('0,30 0,23 * * *', 'America/St_Johns', { fold: 'both' }, '2006-10-28T12:00Z', '2006-10-29T12:00Z')).toEqual(['2006-10-29T01:30', '2006-10-29T02:00', '2006-10-29T02:30', '2006-10-29T03:00', '2006-10-29T03:30', '2006-10-29T04:00'].map(z));
    expect(slots('0,30 0,23 * * *', 'America/St_Johns', { fold: 'second' }, '2006-10-28T12:00Z', '2006-10-29T12:00Z')).toEqual(['2006-10-29T01:30', '2006-10-29T03:00', '2006-10-29T03:30', '2006-10-29T04:00'].map(z));
    const rules = { cron: parsedCron('0,30 * * * *'), timezone: 'America/St_Johns', dst: { gap: 'shift', fold: 'first' } as DstPolicy };
    expect(new Date(nextSlot(rules, Date.parse('2006-10-29T02:00Z'))!).toISOString()).toBe(z('2006-10-29T02:30'));
  });

  it('fires a time shifted onto the next day\'s own slot once (America/Nuuk 2025-03-29)', () => {
    // Saturday 23:00 -02 → Sunday 00:00 -01 at 01:00Z: Saturday's 23:00, shifted by the gap, is
    // Sunday's midnight (01:00Z), which is also Sunday's own slot.
    const expected = ['2025-03-29T01:00', '2025-03-29T02:00', '2025-03-30T01:00', '2025-03-31T00:00', '2025-03-31T01:00'].map(z);
    for (const gap of ['shift', 'skip'] as const) {
      expect(slots('0 0,23 * * *', 'America/Nuuk', { gap }, '2025-03-29T00:00Z', '2025-03-31T02:00Z')).toEqual(expected);
    }
    for (const cron of ['0 */1 * * *', '*/15 0-23 * * *']) {
      const fired = slots(cron, 'America/Nuuk', {}, '2025-03-29T12:00Z', '2025-03-30T12:00Z');
      expect(new Set(fired).size).toBe(fired.length);
      expect([...fired].sort()).toEqual(fired);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { businessDateFor } from '../../../src/runner/policy/business-date.js';
import { at } from './definition-fixture.js';

describe('businessDateFor', () => {
  it.each([
    // Asia/Seoul is UTC+9 all year: local midnight is 15:00Z the day before.
    { slot: '2026-03-01T14:59:59.999Z', timezone: 'Asia/Seoul', offsetDays: 0, expected: '2026-03-01' }, // 23:59:59.999 local
    { slot: '2026-03-01T15:00:00.000Z', timezone: 'Asia/Seoul', offsetDays: 0, expected: '2026-03-02' }, // 00:00 local
    { slot: '2026-03-01T15:30:00.000Z', timezone: 'Asia/Seoul', offsetDays: -1, expected: '2026-03-01' }, // 00:30 on 03-02, the day before
    { slot: '2026-03-01T14:30:00.000Z', timezone: 'Asia/Seoul', offsetDays: -1, expected: '2026-02-28' }, // 23:30 on 03-01
    { slot: '2026-03-01T00:30:00.000Z', timezone: 'Asia/Seoul', offsetDays: -1, expected: '2026-02-28' }, // 09:30 on 03-01
    { slot: '2028-02-29T15:30:00.000Z', timezone: 'Asia/Seoul', offsetDays: -1, expected: '2028-02-29' }, // 00:30 on 2028-03-01, leap year
    { slot: '2026-12-31T15:30:00.000Z', timezone: 'Asia/Seoul', offsetDays: -1, expected: '2026-12-31' }, // 00:30 on 2027-01-01
    { slot: '2026-12-31T15:30:00.000Z', timezone: 'Asia/Seoul', offsetDays: 1, expected: '2027-01-02' },
    // America/New_York springs forward on 2026-03-08 (02:00 EST → 03:00 EDT): midnight moves from 05:00Z to 04:00Z.
    { slot: '2026-03-08T04:59:59.000Z', timezone: 'America/New_York', offsetDays: 0, expected: '2026-03-07' },
    { slot: '2026-03-08T05:00:00.000Z', timezone: 'America/New_York', offsetDays: 0, expected: '2026-03-08' },
    { slot: '2026-03-08T07:30:00.000Z', timezone: 'America/New_York', offsetDays: -1, expected: '2026-03-07' }, // 03:30 EDT
    { slot: '2026-03-09T03:59:59.000Z', timezone: 'America/New_York', offsetDays: 0, expected: '2026-03-08' }, // 23:59:59 EDT
    { slot: '2026-03-09T04:00:00.000Z', timezone: 'America/New_York', offsetDays: -1, expected: '2026-03-08' }, // 00:00 EDT on 03-09
    // Falls back on 2026-11-01: both passes of 01:30 belong to that day; the day has 25 hours.
    { slot: '2026-11-01T05:30:00.000Z', timezone: 'America/New_York', offsetDays: 0, expected: '2026-11-01' }, // 01:30 EDT
    { slot: '2026-11-01T06:30:00.000Z', timezone: 'America/New_York', offsetDays: 0, expected: '2026-11-01' }, // 01:30 EST
    { slot: '2026-11-02T04:59:59.000Z', timezone: 'America/New_York', offsetDays: 0, expected: '2026-11-01' }, // 23:59:59 EST
    // A quarter-hour offset: Asia/Kathmandu is UTC+5:45.
    { slot: '2026-03-01T18:14:59.000Z', timezone: 'Asia/Kathmandu', offsetDays: 0, expected: '2026-03-01' },
    { slot: '2026-03-01T18:15:00.000Z', timezone: 'Asia/Kathmandu', offsetDays: 0, expected: '2026-03-02' },
  ])('$slot in $timezone, offsetDays $offsetDays → $expected', ({ slot, timezone, offsetDays, expected }) => {
    expect(businessDateFor(at(slot), timezone, offsetDays)).toBe(expected);
  });
});

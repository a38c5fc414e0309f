import { describe, expect, expectTypeOf, it } from 'vitest';
import type { DefinitionTiming } from '../../src/compile/definition.js';
import { slotsBetween } from '../../src/time/slots.js';
import { calendarForDefinition, countSlotsBetween, type ScheduleTiming } from '../../src/time/timing-cache.js';

const HOUR = 3_600_000;

function timing(overrides: Partial<ScheduleTiming> = {}): ScheduleTiming {
  return { name: 'daily-report', cron: '30 19 * * *', timezone: 'Asia/Seoul', enabled: true, dayMatch: null, dst: { gap: 'shift', fold: 'first' }, ...overrides };
}

describe('ScheduleTiming', () => {
  it('has the fields of compile\'s DefinitionTiming, so a Definition is a timing and back', () => {
    expectTypeOf<DefinitionTiming>().toEqualTypeOf<ScheduleTiming>();
  });
});

describe('countSlotsBetween', () => {
  // Enumerating slots is the oracle; the count walks minutes, including across DST days.
  it.each([
    { cron: '*/7 * * * * *', zone: 'America/New_York', from: '2026-11-01T04:59:30Z', hours: 3 },
    { cron: '0,30 * * * *', zone: 'America/New_York', from: '2026-03-08T05:00:17Z', hours: 24 },
    { cron: '10-20 30 2 * * *', zone: 'Europe/Berlin', from: '2026-03-28T12:00:00Z', hours: 48 },
    { cron: '30 19 * * *', zone: 'Asia/Seoul', from: '2026-06-01T12:00:00Z', hours: 24 * 9 },
  ])('$cron in $zone over $hours h from $from', ({ cron, zone, from, hours }) => {
    const def = timing({ cron, timezone: zone });
    const fromMs = Date.parse(from);
    expect(countSlotsBetween(def, fromMs, fromMs + hours * HOUR)).toBe(slotsBetween(calendarForDefinition(def), fromMs, fromMs + hours * HOUR).length);
  });

  it('counts seconds at partial minutes exactly', () => {
    const def = timing({ cron: '* * * * * *', timezone: 'UTC' });
    expect(countSlotsBetween(def, Date.parse('2026-06-01T12:00:30.500Z'), Date.parse('2026-06-01T12:02:10Z'))).toBe(29 + 60 + 10);
  });
});

/**
 * The DST notes of `cronform preview`: a slot is labelled only by what happens to it or on its own
 * local day, never because a transition is near (the days either side are ordinary days).
 */
import { describe, expect, it } from 'vitest';
import type { CompiledSchedule } from '../../src/compile/definition.js';
import { buildPreview } from '../../src/plan/preview.js';

function schedule(cron: string, timezone: string): CompiledSchedule {
  return {
    definition: { name: 'x', cron, timezone, dst: { gap: 'shift', fold: 'first' }, dayMatch: null, enabled: true },
    intervalLike: false,
    minIntervalMs: 86_400_000,
  } as unknown as CompiledSchedule;
}

const notes = (cron: string, timezone: string, from: string, count: number) =>
  buildPreview(schedule(cron, timezone), Date.parse(from), count).slots.map((slot) => `${slot.local}${slot.note ? `  ${slot.note}` : ''}`);

describe('preview DST notes', () => {
  it('labels only the day of the change as a transition day', () => {
    expect(notes('30 0 * * *', 'Europe/Berlin', '2026-03-27T12:00:00Z', 3)).toEqual([
      '2026-03-28 Sat 00:30:00 +01:00',
      '2026-03-29 Sun 00:30:00 +01:00  DST: transition day',
      '2026-03-30 Mon 00:30:00 +02:00',
    ]);
  });

  it('names the skipped time of a gap at midnight, and leaves the days around it alone', () => {
    expect(notes('30 0 * * *', 'Africa/Cairo', '2026-04-22T12:00:00Z', 3)).toEqual([
      '2026-04-23 Thu 00:30:00 +02:00',
      '2026-04-24 Fri 01:30:00 +03:00  DST: shifted from 00:30:00 (skipped hour)',
      '2026-04-25 Sat 00:30:00 +03:00',
    ]);
  });

  it('says a slot shifted over midnight comes from the day before', () => {
    // America/Nuuk skips 23:00–24:00 on the last Saturday of March: the 23:30 slot runs at 00:30.
    expect(notes('30 23 * * *', 'America/Nuuk', '2026-03-27T12:00:00Z', 3)).toEqual([
      '2026-03-27 Fri 23:30:00 -02:00',
      '2026-03-29 Sun 00:30:00 -01:00  DST: shifted from 23:30:00 the day before (skipped hour)',
      '2026-03-29 Sun 23:30:00 -01:00',
    ]);
  });
});

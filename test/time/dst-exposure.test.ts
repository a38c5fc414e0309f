import { describe, expect, it } from 'vitest';
import { parseCron } from '../../src/time/cron-parse.js';
import { createSlotCalendar, type DstPolicy } from '../../src/time/slots.js';
import { findDstExposure } from '../../src/time/dst-exposure.js';
import { describeCron } from '../../src/time/describe.js';

function calendar(cron: string, timezone: string, dst: Partial<DstPolicy> = {}) {
  const parsed = parseCron(cron);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return createSlotCalendar({ cron: parsed.cron, timezone, dst: { gap: 'shift', fold: 'first', ...dst } });
}

const from = Date.parse('2026-01-01T00:00:00Z');

describe('findDstExposure', () => {
  it('reports both New York transitions for a 01:30/02:30 schedule with exact instants', () => {
    const exposure = findDstExposure(calendar('30 1,2 * * *', 'America/New_York', { fold: 'both' }), from);
    expect(exposure).toEqual([
      {
        kind: 'gap',
        transitionAt: '2026-03-08T07:00:00.000Z',
        localDate: '2026-03-08',
        localFrom: '02:00:00',
        localTo: '03:00:00',
        effect: 'shift',
        affectedTimes: 1,
        examples: [{ local: '02:30:00', utc: ['2026-03-08T07:30:00.000Z'] }],
        description: '02:00:00–03:00:00 does not exist on 2026-03-08: 1 slot(s) shift forward by 60 min (dst.gap: shift)',
      },
      {
        kind: 'fold',
        transitionAt: '2026-11-01T06:00:00.000Z',
        localDate: '2026-11-01',
        localFrom: '01:00:00',
        localTo: '02:00:00',
        effect: 'both',
        affectedTimes: 1,
        examples: [{ local: '01:30:00', utc: ['2026-11-01T05:30:00.000Z', '2026-11-01T06:30:00.000Z'] }],
        description: '01:00:00–02:00:00 happens twice on 2026-11-01: 1 slot(s) run twice (dst.fold: both)',
      },
    ]);
  });

  it('is empty for a schedule outside the changed hours and for a zone without DST', () => {
    expect(findDstExposure(calendar('0 12 * * *', 'America/New_York'), from)).toEqual([]);
    expect(findDstExposure(calendar('0 * * * *', 'Asia/Seoul'), from)).toEqual([]);
  });

  it('ignores transitions on days the schedule does not run', () => {
    // 2026-03-08 and 2026-11-01 are Sundays; a weekday 02:30 job is never exposed in 2026.
    expect(findDstExposure(calendar('30 2 * * 1-5', 'America/New_York'), from)).toEqual([]);
  });

  it('describes interval-like exposure as skipped and extra slots', () => {
    const exposure = findDstExposure(calendar('*/15 * * * *', 'Europe/Berlin'), from);
    expect(exposure.map((e) => [e.effect, e.affectedTimes])).toEqual([
      ['interval-gap', 4],
      ['interval-fold', 4],
    ]);
  });
});

describe('describeCron', () => {
  it('names the zone and uses 24-hour time', () => {
    expect(describeCron('30 19 * * *', 'Asia/Seoul')).toBe('At 19:30 (Asia/Seoul)');
    expect(describeCron('*/5 * * * *', 'UTC')).toBe('Every 5 minutes (UTC)');
  });
});

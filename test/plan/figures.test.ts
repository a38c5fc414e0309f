import { describe, expect, it } from 'vitest';
import type { Definition } from '../../src/compile/definition.js';
import { makeDefinition } from '../support/definition.js';
import { computeFigures, computeMinuteLoad, findSharedInstants } from '../../src/plan/figures.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const HOUR = 3_600_000;

function definition(overrides: Partial<Definition> = {}): Definition {
  return makeDefinition({
    name: 'daily-report',
    cron: '30 19 * * *',
    timezone: 'Asia/Seoul',
    job: { type: 'command', command: ['node', 'jobs/daily-report.js'], cwd: '.', env: {} },
    overlap: 'SKIP_NEW',
    gracePeriodMs: 24 * HOUR,
    retry: { maxAttempts: 1, backoff: 'exponential', initialDelayMs: 30_000, maxDelayMs: 600_000 },
    ...overrides,
  });
}

describe('computeFigures', () => {
  it('counts a per-second schedule without enumerating it', () => {
    const figures = computeFigures(definition({ cron: '* * * * * *', timezone: 'UTC' }), NOW);
    expect(figures).toMatchObject({ runsPerDayPeak: 86_400, runsPerDayAverage: 86_400, peakRunsPerMinute: 60, minIntervalMs: 1000 });
    expect(figures.nextSlots).toEqual(['2026-06-01T12:00:01.000Z', '2026-06-01T12:00:02.000Z', '2026-06-01T12:00:03.000Z', '2026-06-01T12:00:04.000Z', '2026-06-01T12:00:05.000Z']);
  });

  it('gives the next slots in UTC and in local time', () => {
    const figures = computeFigures(definition(), NOW);
    expect(figures).toMatchObject({ runsPerDayPeak: 1, runsPerDayAverage: 1, peakRunsPerMinute: 1, minIntervalMs: 86_400_000 });
    expect(figures.nextSlots.slice(0, 2)).toEqual(['2026-06-02T10:30:00.000Z', '2026-06-03T10:30:00.000Z']);
    expect(figures.nextSlotsLocal.slice(0, 2)).toEqual(['2026-06-02 19:30:00 +09:00', '2026-06-03 19:30:00 +09:00']);
  });

  it.each([
    { cron: '0 * * * *', peakRunsPerMinute: 1, minIntervalMs: 3_600_000 },
    { cron: '*/15 * * * * *', peakRunsPerMinute: 4, minIntervalMs: 15_000 },
    { cron: '0,1,2 30 9 * * 1-5', peakRunsPerMinute: 3, minIntervalMs: 1000 },
  ])('$cron: $peakRunsPerMinute runs in its busiest minute', ({ cron, peakRunsPerMinute, minIntervalMs }) => {
    expect(computeFigures(definition({ cron, timezone: 'Europe/Berlin' }), NOW)).toMatchObject({ peakRunsPerMinute, minIntervalMs });
  });
});

describe('computeMinuteLoad', () => {
  it('sums 10,000 schedules and a per-second one per minute', () => {
    const spread = Array.from({ length: 9000 }, (_, i) => definition({ name: `spread-${i}`, cron: `${i % 60} ${Math.floor(i / 60) % 24} * * *`, timezone: 'UTC' }));
    const nine = Array.from({ length: 1000 }, (_, i) => definition({ name: `nine-${i}`, cron: '0 9 * * *', timezone: 'UTC' }));
    const perSecond = definition({ name: 'per-second', cron: '* * * * * *', timezone: 'Europe/Berlin' });
    const disabled = definition({ name: 'paused', cron: '0 9 * * *', timezone: 'UTC', enabled: false });
    // 09:00Z is minute 540: 1,000 "nine" + 6 spread (i ≡ 540 mod 1,440 below 9,000) + 60 per-second.
    expect(computeMinuteLoad([...spread, ...nine, perSecond, disabled], NOW)).toEqual({ peakRunsPerMinute: 1066, peakMinute: '2026-06-02T09:00:00.000Z' });
  });

  it('enumerates minutes of a per-second schedule that does not fire every minute', () => {
    const defs = [definition({ cron: '* 0-29 * * * *', timezone: 'UTC' }), definition({ cron: '*/20 15 * * * *', timezone: 'UTC' })];
    expect(computeMinuteLoad(defs, NOW)).toEqual({ peakRunsPerMinute: 63, peakMinute: '2026-06-01T12:15:00.000Z' });
  });

  it('reports no peak without enabled schedules', () => {
    expect(computeMinuteLoad([definition({ enabled: false })], NOW)).toEqual({ peakRunsPerMinute: 0, peakMinute: null });
  });
});

describe('findSharedInstants', () => {
  const at = (name: string, cron: string, extra: Partial<Definition> = {}) => ({ name, def: definition({ name, cron, timezone: 'UTC', ...extra }) });
  const midnight = Array.from({ length: 11 }, (_, i) => at(`job-${String(i).padStart(2, '0')}`, '0 0 * * *'));
  const others = [at('jittered', '0 0 * * *', { jitterMs: 30_000 }), at('per-two-seconds', '*/2 * * * * *'), at('every-minute', '* * * * *')];

  it('finds seconds shared by at least the threshold, ignoring jitter and high-frequency schedules', () => {
    const shared = findSharedInstants([...midnight, ...others], NOW);
    expect(shared).toEqual([{ instant: '2026-06-02T00:00:00.000Z', names: ['every-minute', ...midnight.map((s) => s.name)] }]);
  });

  it('returns nothing below the threshold', () => {
    expect(findSharedInstants(midnight.slice(0, 5), NOW)).toEqual([]);
    expect(findSharedInstants(midnight.slice(0, 5), NOW, 5)).toHaveLength(1);
  });
});

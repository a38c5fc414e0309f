/** What `cronform dev` prints about the next runs (src/operations/dev-report.ts): pure, fixed instants. */
import { describe, expect, it } from 'vitest';
import { formatWait, renderNextRuns } from '../../src/operations/dev-report.js';
import type { ScheduleStatusEntry, ScheduleStatusReport } from '../../src/operations/runs/schedule-status.js';

const NOW_MS = Date.parse('2026-03-02T10:00:00Z');

function report(entries: Array<Partial<ScheduleStatusEntry> & { name: string }>): ScheduleStatusReport {
  const base = { enabled: true, lastResult: null, nextRunAt: null, successRate: null, finishedRuns: 0, p95StartDelayMs: null, runsToday: 0, activeRuns: 0, paused: null, criticality: 'MEDIUM', overdue: null, cron: '0 * * * *', timezone: 'UTC', description: null, approvalRequired: false };
  return { generatedAt: new Date(NOW_MS).toISOString(), windowDays: 7, utcDay: '2026-03-02', schedules: entries.map((entry) => ({ ...base, ...entry })), runners: [], aliveRunners: 0, staleAfterMs: 90_000, overdueAfterMs: 60_000, health: { healthy: true, problems: [], warnings: [] } };
}

describe('formatWait', () => {
  it.each([
    [-5_000, 'now'],
    [20_000, 'now'],
    [40_000, 'in 1m'],
    [59 * 60_000, 'in 59m'],
    [60 * 60_000, 'in 1h'],
    [125 * 60_000, 'in 2h 5m'],
    [47 * 3_600_000, 'in 47h'],
    [49 * 3_600_000, 'in 2d 1h'],
    [72 * 3_600_000, 'in 3d'],
  ])('%d ms → %s', (waitMs, expected) => {
    expect(formatWait(waitMs)).toBe(expected);
  });
});

describe('renderNextRuns', () => {
  it('lists the soonest first, aligned, and counts the rest', () => {
    const lines = renderNextRuns(
      report([
        { name: 'weekly-report', nextRunAt: '2026-03-09T13:00:00.000Z' },
        { name: 'health', nextRunAt: '2026-03-02T10:05:00.000Z' },
        { name: 'paused-one', nextRunAt: '2026-03-02T10:01:00.000Z', paused: { at: '2026-03-01T00:00:00.000Z', by: null, reason: null, until: null } },
        { name: 'off', enabled: false },
        { name: 'cleanup', nextRunAt: '2026-03-03T02:00:00.000Z' },
      ]),
      NOW_MS,
      2,
    );
    expect(lines).toMatchInlineSnapshot(`
      [
        "next runs:",
        "  health   2026-03-02 10:05Z  in 5m",
        "  cleanup  2026-03-03 02:00Z  in 16h",
        "  … and 1 more (cronform status)",
        "  2 paused or disabled",
      ]
    `);
  });

  it('says when there is nothing', () => {
    expect(renderNextRuns(report([]), NOW_MS)).toEqual(['next runs: none (no schedules)']);
  });
});

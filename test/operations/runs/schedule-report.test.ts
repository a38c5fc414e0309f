/**
 * `cronform report`: the figures of a seeded mix of runs (every final status, a summary row, a
 * backfill and a run outside the window), and the markdown digest with a hostile schedule name.
 */
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/client.js';
import { renderScheduleReportMarkdown, renderScheduleReportText } from '../../../src/operations/runs/render-schedule-report.js';
import { buildScheduleReport, type ScheduleReport } from '../../../src/operations/runs/schedule-report.js';
import { databaseWith, insertRunsAt, NOW_MS, scheduleSource } from './run-fixtures.js';

let database: Database | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

const HOUR = 3_600_000;
const hoursAgo = (hours: number) => new Date(NOW_MS - hours * HOUR).toISOString();

describe('buildScheduleReport', () => {
  it('counts the slots of the window per schedule, with p95 start delay and freshness', async () => {
    database = await databaseWith([scheduleSource('billing', { cron: '0 * * * *', criticality: 'CRITICAL' }), scheduleSource('idle'), scheduleSource('stale')]);
    const [, ok20, ok19, failed18] = await insertRunsAt(database, 'billing', [
      { slot: hoursAgo(30), status: 'SUCCESS' }, // before the window
      { slot: hoursAgo(20), status: 'SUCCESS' },
      { slot: hoursAgo(19), status: 'SUCCESS' },
      { slot: hoursAgo(18), status: 'FAILED' },
      { slot: hoursAgo(17), status: 'SKIPPED', reason: 'OVERLAP' },
      { slot: hoursAgo(16), status: 'MISSED', summarizedSlots: 3 },
      { slot: hoursAgo(15), status: 'CANCELLED' },
      { slot: hoursAgo(10), status: 'FAILED', trigger: 'BACKFILL' }, // a repair: left out
      { slot: hoursAgo(5), status: 'SUCCESS', trigger: 'MANUAL' },
      { slot: hoursAgo(1), status: 'QUEUED' },
    ]);
    // Start delays of the scheduled runs: 1 s, 3 s, 5 s.
    for (const [id, delayMs, slotHours] of [[ok20, 1000, 20], [ok19, 3000, 19], [failed18, 5000, 18]] as const) {
      await database.db.execute(sql`update schedule_runs set started_at = ${new Date(NOW_MS - slotHours * HOUR + delayMs).toISOString()}::timestamptz where id = ${id!}`);
    }
    await insertRunsAt(database, 'stale', [{ slot: hoursAgo(72), status: 'SUCCESS' }]);

    const report = await buildScheduleReport(database, { sinceMs: NOW_MS - 24 * HOUR, nowMs: NOW_MS });
    expect(report.since).toBe(hoursAgo(24));
    expect(report.schedules).toEqual([
      {
        name: 'billing',
        criticality: 'CRITICAL',
        // 20h, 19h, 18h, 17h, 16h (×3), 15h, the manual run at 5h and the queued one at 1h.
        runs: 10,
        succeeded: 3,
        failed: 1,
        skipped: 1,
        missed: 3,
        cancelled: 1,
        unfinished: 1,
        successRate: 0.75,
        // percentile_cont of 1 s, 3 s, 5 s: position 0.95 × 2 = 1.9, so 3000 + 0.9 × 2000.
        p95StartDelayMs: 4800,
        // The manual run's success, finished a minute after its slot.
        lastSuccessAt: new Date(NOW_MS - 5 * HOUR + 60_000).toISOString(),
        freshnessMs: 5 * HOUR - 60_000,
      },
      { name: 'idle', criticality: 'MEDIUM', runs: 0, succeeded: 0, failed: 0, skipped: 0, missed: 0, cancelled: 0, unfinished: 0, successRate: null, p95StartDelayMs: null, lastSuccessAt: null, freshnessMs: null },
      expect.objectContaining({ name: 'stale', runs: 0, successRate: null, freshnessMs: 72 * HOUR - 60_000 }),
    ]);
    expect(report.totals).toEqual({ runs: 10, succeeded: 3, failed: 1, skipped: 1, missed: 3, cancelled: 1, unfinished: 1 });

    expect(renderScheduleReportText(report)).toBe(
      [
        'Schedules from 2026-11-28T12:00:00.000Z to 2026-11-29T12:00:00.000Z.',
        '',
        'SCHEDULE  CRITICALITY  RUNS  OK  FAILED  SKIPPED  MISSED  OTHER  SUCCESS  P95 DELAY  LAST SUCCESS',
        'billing   CRITICAL       10   3       1        1       3      2    75.0%         5s  4h59m ago',
        'idle      MEDIUM          0   0       0        0       0      0        -          -  never',
        'stale     MEDIUM          0   0       0        0       0      0        -          -  2d23h ago',
        '',
        '10 run(s): 3 succeeded, 1 failed, 1 skipped, 3 missed, 1 cancelled, 1 not finished.',
      ].join('\n'),
    );
  });
});

describe('renderScheduleReportMarkdown', () => {
  it('renders a table in which a schedule name cannot break a cell, a row or the page', () => {
    const entry = { criticality: 'HIGH', runs: 2, succeeded: 1, failed: 1, skipped: 0, missed: 0, cancelled: 0, unfinished: 0, successRate: 0.5, p95StartDelayMs: 1200, lastSuccessAt: hoursAgo(2), freshnessMs: 2 * HOUR };
    const report: ScheduleReport = {
      since: hoursAgo(24),
      until: hoursAgo(0),
      schedules: [{ ...entry, name: 'a|b\n# forged <script>x</script> `code` *bold*' }],
      totals: { runs: 2, succeeded: 1, failed: 1, skipped: 0, missed: 0, cancelled: 0, unfinished: 0 },
    };
    expect(renderScheduleReportMarkdown(report)).toBe(
      [
        '### cronform report: 2026-11-28T12:00:00.000Z to 2026-11-29T12:00:00.000Z',
        '',
        '| Schedule | Criticality | Runs | OK | Failed | Skipped | Missed | Other | Success | p95 delay | Last success |',
        '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
        '| **a\\|b\\\\n\\# forged &lt;script&gt;x&lt;/script&gt; \\`code\\` \\*bold\\*** | HIGH | 2 | 1 | 1 | 0 | 0 | 0 | 50.0% | 1s | 2h00m ago |',
        '',
        '2 run(s): 1 succeeded, 1 failed, 0 skipped, 0 missed, 0 cancelled, 0 not finished.',
      ].join('\n'),
    );
  });
});

/**
 * `cronform report [--since 24h]` (SPEC §8): per schedule, what became of the slots of a window
 * (runs, successes, failures, skips, misses), p95 start delay and freshness, the age of the last
 * success of any time. Freshness is computed here from the runs, whatever a schedule declares.
 */
import type { Database } from '../../db/client.js';
import { summarizeScheduleWindow, type ScheduleReportRow } from '../../db/schedule-report-queries.js';

/** The query's counts per schedule (see ScheduleReportRow), with rates and times ready to print. */
export interface ScheduleReportEntry extends Omit<ScheduleReportRow, 'lastSuccessAt'> {
  /** succeeded / (succeeded + failed); null when neither. */
  successRate: number | null;
  lastSuccessAt: string | null;
  /** Age of the last success at `until`; null when the schedule never succeeded. */
  freshnessMs: number | null;
}

/** The counts a report totals over its schedules. */
const COUNTS = ['runs', 'succeeded', 'failed', 'skipped', 'missed', 'cancelled', 'unfinished'] as const;

export interface ScheduleReport {
  since: string;
  until: string;
  schedules: ScheduleReportEntry[];
  totals: Record<(typeof COUNTS)[number], number>;
}

export async function buildScheduleReport(database: Database, options: { sinceMs: number; nowMs: number }): Promise<ScheduleReport> {
  const rows = await summarizeScheduleWindow(database.db, { since: new Date(options.sinceMs), until: new Date(options.nowMs) });
  const schedules = rows.map((row): ScheduleReportEntry => ({
    ...row,
    successRate: row.succeeded + row.failed === 0 ? null : row.succeeded / (row.succeeded + row.failed),
    p95StartDelayMs: row.p95StartDelayMs === null ? null : Math.round(row.p95StartDelayMs),
    lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null,
    freshnessMs: row.lastSuccessAt ? Math.max(0, options.nowMs - row.lastSuccessAt.getTime()) : null,
  }));
  return {
    since: new Date(options.sinceMs).toISOString(),
    until: new Date(options.nowMs).toISOString(),
    schedules,
    totals: Object.fromEntries(COUNTS.map((count) => [count, schedules.reduce((total, entry) => total + entry[count], 0)])) as ScheduleReport['totals'],
  };
}

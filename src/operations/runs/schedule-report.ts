/**
 * `cronform report [--since 24h]` (SPEC §8): per schedule, what became of the slots of a window
 * (runs, successes, failures, skips, misses), p95 start delay and freshness, the age of the last
 * success of any time. Freshness is computed here from the runs, whatever a schedule declares.
 */
import type { Database } from '../../db/client.js';
import { summarizeScheduleWindow } from '../../db/schedule-report-queries.js';

export interface ScheduleReportEntry {
  name: string;
  criticality: string;
  /** Slots of the window (by scheduled_for; backfills left out), summary rows counting for their slots. */
  runs: number;
  succeeded: number;
  failed: number;
  skipped: number;
  missed: number;
  cancelled: number;
  /** Not final yet (queued, running, retrying, waiting for approval). */
  unfinished: number;
  /** succeeded / (succeeded + failed); null when neither. */
  successRate: number | null;
  p95StartDelayMs: number | null;
  lastSuccessAt: string | null;
  /** Age of the last success at `until`; null when the schedule never succeeded. */
  freshnessMs: number | null;
}

export interface ScheduleReport {
  since: string;
  until: string;
  schedules: ScheduleReportEntry[];
  totals: { runs: number; succeeded: number; failed: number; skipped: number; missed: number; cancelled: number; unfinished: number };
}

export async function buildScheduleReport(database: Database, options: { sinceMs: number; nowMs: number }): Promise<ScheduleReport> {
  const rows = await summarizeScheduleWindow(database.db, { since: new Date(options.sinceMs), until: new Date(options.nowMs) });
  const schedules = rows.map((row): ScheduleReportEntry => ({
    name: row.name,
    criticality: row.criticality,
    runs: row.runs,
    succeeded: row.succeeded,
    failed: row.failed,
    skipped: row.skipped,
    missed: row.missed,
    cancelled: row.cancelled,
    unfinished: row.unfinished,
    successRate: row.succeeded + row.failed === 0 ? null : row.succeeded / (row.succeeded + row.failed),
    p95StartDelayMs: row.p95StartDelayMs === null ? null : Math.round(row.p95StartDelayMs),
    lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null,
    freshnessMs: row.lastSuccessAt ? Math.max(0, options.nowMs - row.lastSuccessAt.getTime()) : null,
  }));
  const sum = (pick: (entry: ScheduleReportEntry) => number) => schedules.reduce((total, entry) => total + pick(entry), 0);
  return {
    since: new Date(options.sinceMs).toISOString(),
    until: new Date(options.nowMs).toISOString(),
    schedules,
    totals: {
      runs: sum((s) => s.runs),
      succeeded: sum((s) => s.succeeded),
      failed: sum((s) => s.failed),
      skipped: sum((s) => s.skipped),
      missed: sum((s) => s.missed),
      cancelled: sum((s) => s.cancelled),
      unfinished: sum((s) => s.unfinished),
    },
  };
}

/** The statement behind `cronform report` (SPEC §8): per schedule, what became of the slots of a window. */
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from './client.js';
import { toOptionalDate } from './row-values.js';

export interface ScheduleReportRow {
  name: string;
  criticality: string;
  /** Slots in the window, a summary row counting for the slots it stands for. */
  runs: number;
  succeeded: number;
  failed: number;
  skipped: number;
  missed: number;
  cancelled: number;
  /** Not final yet: PENDING, QUEUED, RUNNING, RETRY_PENDING, MANUAL_REQUIRED. */
  unfinished: number;
  p95StartDelayMs: number | null;
  /** Latest SUCCESS of any time, by slot: when it finished. */
  lastSuccessAt: Date | null;
}

interface ScheduleReportDbRow {
  name: string;
  criticality: string | null;
  runs: number;
  succeeded: number;
  failed: number;
  skipped: number;
  missed: number;
  cancelled: number;
  unfinished: number;
  p95_ms: number | string | null;
  last_success_at: Date | string | null;
}

/**
 * One row per active schedule. A run belongs to the window by its slot (`scheduled_for` in
 * [since, until)), so each figure reads through the (schedule, slot) key; backfills are left out,
 * being repairs of earlier windows. Start delay is started_at − scheduled_for of SCHEDULED runs
 * (first attempts), as percentile_cont, like `status`.
 */
export async function summarizeScheduleWindow(executor: Executor, window: { since: Date; until: Date }): Promise<ScheduleReportRow[]> {
  const since = window.since.toISOString();
  const until = window.until.toISOString();
  const rows = await queryRows<ScheduleReportDbRow>(
    executor,
    sql`select s.name, s.definition->>'criticality' as criticality,
          coalesce(w.runs, 0)::int as runs, coalesce(w.succeeded, 0)::int as succeeded, coalesce(w.failed, 0)::int as failed,
          coalesce(w.skipped, 0)::int as skipped, coalesce(w.missed, 0)::int as missed, coalesce(w.cancelled, 0)::int as cancelled,
          coalesce(w.unfinished, 0)::int as unfinished, w.p95_ms::float8 as p95_ms, last_success.finished_at as last_success_at
        from schedules s
        left join lateral (
          select sum(coalesce(r.summarized_slots, 1)) as runs,
            count(*) filter (where r.status = 'SUCCESS') as succeeded,
            count(*) filter (where r.status = 'FAILED') as failed,
            sum(coalesce(r.summarized_slots, 1)) filter (where r.status = 'SKIPPED') as skipped,
            sum(coalesce(r.summarized_slots, 1)) filter (where r.status = 'MISSED') as missed,
            count(*) filter (where r.status = 'CANCELLED') as cancelled,
            count(*) filter (where r.status in ('PENDING', 'QUEUED', 'RUNNING', 'RETRY_PENDING', 'MANUAL_REQUIRED')) as unfinished,
            percentile_cont(0.95) within group (order by extract(epoch from (r.started_at - r.scheduled_for)) * 1000)
              filter (where r.trigger_type = 'SCHEDULED' and r.started_at is not null) as p95_ms
          from schedule_runs r
          where r.schedule_id = s.id and r.scheduled_for >= ${since}::timestamptz and r.scheduled_for < ${until}::timestamptz
            and r.trigger_type <> 'BACKFILL'
        ) w on true
        left join lateral (
          select r.finished_at from schedule_runs r
          where r.schedule_id = s.id and r.status in ('SUCCESS', 'PARTIAL_SUCCESS') and r.trigger_type <> 'DRY_RUN'
          order by r.scheduled_for desc limit 1
        ) last_success on true
        where s.status = 'ACTIVE'
        order by s.name`,
  );
  return rows.map((r) => ({
    name: r.name,
    criticality: r.criticality ?? 'MEDIUM',
    runs: Number(r.runs),
    succeeded: Number(r.succeeded),
    failed: Number(r.failed),
    skipped: Number(r.skipped),
    missed: Number(r.missed),
    cancelled: Number(r.cancelled),
    unfinished: Number(r.unfinished),
    p95StartDelayMs: r.p95_ms === null ? null : Number(r.p95_ms),
    lastSuccessAt: toOptionalDate(r.last_success_at),
  }));
}

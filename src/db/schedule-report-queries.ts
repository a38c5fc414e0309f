/** The statement behind `cronform report` (SPEC §8): per schedule, what became of the slots of a window. */
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from './client.js';
import { estimateP95FromBuckets, startDelayBucketsSql } from './retention-queries.js';
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
  rolled_runs: number;
  rolled_succeeded: number;
  rolled_failed: number;
  rolled_skipped: number;
  rolled_missed: number;
  rolled_cancelled: number;
  live_buckets: number[] | string | null;
  rolled_buckets: number[] | string | null;
}

/** A start-delay histogram as PostgreSQL sends it (an int[] array, or its text on some paths). */
function toBuckets(value: number[] | string | null): number[] {
  if (value === null) return [];
  if (typeof value === 'string') return value.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);
  return value.map(Number);
}

/**
 * The window's p95 start delay. Exact (percentile_cont of the live runs) while no rolled-up day
 * falls in the window; once retention has rolled some up, the live and rolled-up histograms merged
 * (estimateP95FromBuckets), within one bucket of the exact figure.
 */
function p95Of(row: ScheduleReportDbRow): number | null {
  const rolled = toBuckets(row.rolled_buckets);
  if (rolled.every((count) => count === 0)) return row.p95_ms === null ? null : Number(row.p95_ms);
  const live = toBuckets(row.live_buckets);
  return estimateP95FromBuckets(rolled.map((count, index) => count + (live[index] ?? 0)));
}

/**
 * One row per active schedule. A run belongs to the window by its slot (`scheduled_for` in
 * [since, until)), so each figure reads through the (schedule, slot) key; backfills are left out,
 * being repairs of earlier windows. Start delay is started_at − scheduled_for of SCHEDULED runs
 * (first attempts), as percentile_cont, like `status`. Runs retention deleted are counted from
 * `run_daily_rollups`, whole UTC days whose midnight falls in the window (retention cuts at
 * midnights), so the figures do not move when retention runs.
 */
export async function summarizeScheduleWindow(executor: Executor, window: { since: Date; until: Date }): Promise<ScheduleReportRow[]> {
  const since = window.since.toISOString();
  const until = window.until.toISOString();
  const rows = await queryRows<ScheduleReportDbRow>(
    executor,
    sql`select s.name, s.definition->>'criticality' as criticality,
          coalesce(w.runs, 0)::int as runs, coalesce(w.succeeded, 0)::int as succeeded, coalesce(w.failed, 0)::int as failed,
          coalesce(w.skipped, 0)::int as skipped, coalesce(w.missed, 0)::int as missed, coalesce(w.cancelled, 0)::int as cancelled,
          coalesce(w.unfinished, 0)::int as unfinished, w.p95_ms::float8 as p95_ms,
          greatest(last_success.finished_at, rolled.last_success_at) as last_success_at,
          coalesce(rolled.runs, 0)::int as rolled_runs, coalesce(rolled.succeeded, 0)::int as rolled_succeeded, coalesce(rolled.failed, 0)::int as rolled_failed,
          coalesce(rolled.skipped, 0)::int as rolled_skipped, coalesce(rolled.missed, 0)::int as rolled_missed, coalesce(rolled.cancelled, 0)::int as rolled_cancelled,
          w.live_buckets, rolled_delays.buckets as rolled_buckets
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
              filter (where r.trigger_type = 'SCHEDULED' and r.started_at is not null) as p95_ms,
            ${startDelayBucketsSql('r')} as live_buckets
          from schedule_runs r
          where r.schedule_id = s.id and r.scheduled_for >= ${since}::timestamptz and r.scheduled_for < ${until}::timestamptz
            and r.trigger_type <> 'BACKFILL'
        ) w on true
        left join lateral (
          select r.finished_at from schedule_runs r
          where r.schedule_id = s.id and r.status in ('SUCCESS', 'PARTIAL_SUCCESS') and r.trigger_type <> 'DRY_RUN'
          order by r.scheduled_for desc limit 1
        ) last_success on true
        left join lateral (
          select sum(g.slots) as runs, sum(g.runs) filter (where g.status = 'SUCCESS') as succeeded, sum(g.runs) filter (where g.status = 'FAILED') as failed,
            sum(g.slots) filter (where g.status = 'SKIPPED') as skipped, sum(g.slots) filter (where g.status = 'MISSED') as missed,
            sum(g.runs) filter (where g.status = 'CANCELLED') as cancelled,
            (select max(a.last_success_at) from run_daily_rollups a where a.schedule_id = s.id) as last_success_at
          from run_daily_rollups g
          where g.schedule_id = s.id and (g.day::timestamp at time zone 'UTC') >= ${since}::timestamptz and (g.day::timestamp at time zone 'UTC') < ${until}::timestamptz and g.trigger_type <> 'BACKFILL'
        ) rolled on true
        left join lateral (
          select array_agg(b.total order by b.i) as buckets from (
            select u.i, sum(u.n)::int as total from run_daily_rollups g, unnest(g.start_delay_buckets) with ordinality as u(n, i)
            where g.schedule_id = s.id and (g.day::timestamp at time zone 'UTC') >= ${since}::timestamptz and (g.day::timestamp at time zone 'UTC') < ${until}::timestamptz and g.trigger_type = 'SCHEDULED'
            group by u.i
          ) b
        ) rolled_delays on true
        where s.status = 'ACTIVE'
        order by s.name`,
  );
  return rows.map((r) => ({
    name: r.name,
    criticality: r.criticality ?? 'MEDIUM',
    runs: Number(r.runs) + Number(r.rolled_runs),
    succeeded: Number(r.succeeded) + Number(r.rolled_succeeded),
    failed: Number(r.failed) + Number(r.rolled_failed),
    skipped: Number(r.skipped) + Number(r.rolled_skipped),
    missed: Number(r.missed) + Number(r.rolled_missed),
    cancelled: Number(r.cancelled) + Number(r.rolled_cancelled),
    unfinished: Number(r.unfinished),
    p95StartDelayMs: p95Of(r),
    lastSuccessAt: toOptionalDate(r.last_success_at),
  }));
}

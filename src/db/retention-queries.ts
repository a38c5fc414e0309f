/**
 * Retention (README "Retention"): deleting a schedule's old finished runs in small batches, and
 * counting them into `run_daily_rollups` in the same statement, so a run is either live or counted
 * there, never both, never neither. Off the claim path: each batch is one short statement that
 * skips rows another transaction holds (SKIP LOCKED), bounded by a statement timeout.
 */
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database, type Executor } from './client.js';
import { instantArray, integerArray } from './array-literal.js';
import { DELETED_WITH_RUN, PARTITIONED_RUN_TABLES } from './run-history-tables.js';
import { FINAL_STATUSES } from './run-vocabulary.js';

/**
 * Upper bounds (ms, inclusive) of the start-delay buckets a rollup counts; one more bucket counts
 * what is above the last. Like the metrics histogram: fine near zero, where on-time starts are.
 */
export const START_DELAY_BUCKETS_MS = [5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000, 300_000, 900_000, 3_600_000] as const;

/**
 * The p95 of a start-delay histogram (START_DELAY_BUCKETS_MS), interpolated linearly inside the
 * bucket it falls in, like Prometheus' histogram_quantile; null when it counts nothing. Its error
 * is at most the width of that bucket.
 */
export function estimateP95FromBuckets(buckets: readonly number[]): number | null {
  const total = buckets.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const rank = 0.95 * total;
  let below = 0;
  for (const [index, count] of buckets.entries()) {
    if (count > 0 && below + count >= rank) {
      const lower = index === 0 ? 0 : START_DELAY_BUCKETS_MS[index - 1]!;
      const upper = START_DELAY_BUCKETS_MS[index];
      if (upper === undefined) return lower; // above the last bound: its lower bound, as Prometheus does
      return lower + ((upper - lower) * (rank - below)) / count;
    }
    below += count;
  }
  return START_DELAY_BUCKETS_MS[START_DELAY_BUCKETS_MS.length - 1]!;
}

/** Longest one batch may take before PostgreSQL cancels it (the next tick tries again). */
const BATCH_STATEMENT_TIMEOUT_MS = 5_000;

const words = (list: readonly string[]) => sql.raw(list.map((word) => `'${word}'`).join(', '));

/**
 * An aggregate: one count per START_DELAY_BUCKETS_MS bucket and one above, of the start delays of
 * the SCHEDULED runs that started among the rows (`alias.` columns, or unqualified).
 */
export function startDelayBucketsSql(alias = ''): ReturnType<typeof sql.raw> {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  const delay = `extract(epoch from (${column('started_at')} - ${column('scheduled_for')})) * 1000`;
  const counted = `${column('trigger_type')} = 'SCHEDULED' and ${column('started_at')} is not null`;
  const bounds = [Number.NEGATIVE_INFINITY, ...START_DELAY_BUCKETS_MS, Number.POSITIVE_INFINITY];
  const cells = bounds.slice(1).map((upper, index) => {
    const lower = bounds[index]!;
    const above = Number.isFinite(lower) ? ` and ${delay} > ${lower}` : '';
    const below = Number.isFinite(upper) ? ` and ${delay} <= ${upper}` : '';
    return `(count(*) filter (where ${counted}${above}${below}))::int`;
  });
  return sql.raw(`array[${cells.join(', ')}]`);
}

export interface RetentionSubjectCutoff {
  scheduleId: number;
  /** Runs whose slot is before this, and finished (or created) before it, may go. */
  cutoff: Date;
  /** The schedule's latest this many runs (by slot) are kept whatever their age. */
  keepLast: number;
}

export interface RetentionBatch {
  /** The schedules this batch may delete from, in order: one statement covers many. */
  subjects: RetentionSubjectCutoff[];
  limit: number;
}

/**
 * Deletes up to `limit` runs of the subjects past their cutoff (schedule by schedule, oldest slot
 * first) with the rows of every DELETED_WITH_RUN table, and adds them to their day's rollups;
 * returns how many. Only final runs go (never one still waiting, running, or waiting for a human),
 * and only once both their slot and their end are past the cutoff: a backfill of an old slot is
 * kept for the whole retention after it ran. The cutoff is a UTC midnight (runner/retention.ts),
 * so a rolled-up day is a whole day. One statement for many schedules: a day of a hundred
 * schedules' runs is a few statements, not a hundred.
 */
export async function deleteExpiredRuns(executor: Executor, batch: RetentionBatch): Promise<number> {
  if (batch.subjects.length === 0) return 0;
  const ids = integerArray(batch.subjects.map((s) => s.scheduleId));
  const cutoffs = instantArray(batch.subjects.map((s) => s.cutoff));
  const keeps = integerArray(batch.subjects.map((s) => s.keepLast));
  // A constant bound on the slot: PostgreSQL then plans only the days before the latest cutoff
  // (those retention could not drop whole, the DEFAULT and legacy partitions), not every day.
  const before = new Date(Math.max(...batch.subjects.map((s) => s.cutoff.getTime()))).toISOString();
  // By slot and id: the run tables are partitioned by slot (run-partitions.ts), and a key without
  // it would be looked up in every day.
  const sideTables = DELETED_WITH_RUN.map((table) =>
    sql.raw(PARTITIONED_RUN_TABLES.includes(table as never)
      ? `, "gone_${table}" as (delete from "${table}" where (run_id, scheduled_for) in (select id, scheduled_for from victims))`
      : `, "gone_${table}" as (delete from "${table}" where run_id in (select id from victims))`),
  );
  const [row] = await queryRows<{ deleted: number | string }>(
    executor,
    sql`with subjects as (
          select * from unnest(${ids}::bigint[], ${cutoffs}::timestamptz[], ${keeps}::int[]) with ordinality as u(schedule_id, cutoff, keep_last, n)
        ),
        victims as (
          select v.id, v.scheduled_for from subjects u
          cross join lateral (
            -- The keep_last-th newest slot: runs at or after it are kept (fewer runs than that: all).
            select case when u.keep_last = 0 then 'infinity'::timestamptz
              else coalesce((select k.scheduled_for from schedule_runs k where k.schedule_id = u.schedule_id order by k.scheduled_for desc offset u.keep_last - 1 limit 1), '-infinity'::timestamptz) end as kept_from
          ) kept
          cross join lateral (
            select r.id, r.scheduled_for from schedule_runs r
            where r.schedule_id = u.schedule_id and r.scheduled_for < least(u.cutoff, kept.kept_from) and r.scheduled_for < ${before}::timestamptz
              and r.status in (${words(FINAL_STATUSES)}) and coalesce(r.finished_at, r.created_at) < u.cutoff
            order by r.scheduled_for
            limit ${batch.limit}
            for update of r skip locked
          ) v
          order by u.n
          limit ${batch.limit}
        )${sql.join(sideTables, sql``)},
        gone as (delete from schedule_runs r using victims v where r.id = v.id and r.scheduled_for = v.scheduled_for returning r.*),
        counted as (${rollupUpsertSql(sql`gone`)})
        select count(*) as deleted from gone`,
  );
  return Number(row?.deleted ?? 0);
}

/**
 * Adds the runs `source` yields (a relation of schedule_runs rows) to their day's rollups: the one
 * way runs are counted there, whether retention deletes them by rows or drops their day.
 */
export function rollupUpsertSql(source: SQL): SQL {
  return sql`insert into run_daily_rollups as t (schedule_id, day, trigger_type, status, runs, slots, duration_ms_sum, duration_ms_max, start_delay_buckets, last_success_at)
          select schedule_id, (scheduled_for at time zone 'UTC')::date, trigger_type, status, count(*), sum(coalesce(summarized_slots, 1)),
            coalesce(sum(extract(epoch from (finished_at - started_at)) * 1000) filter (where started_at is not null and finished_at is not null), 0)::bigint,
            (max(extract(epoch from (finished_at - started_at)) * 1000) filter (where started_at is not null and finished_at is not null))::bigint,
            ${startDelayBucketsSql()},
            max(finished_at) filter (where status = 'SUCCESS')
          from ${source} group by 1, 2, 3, 4
          -- In key order: replicas upserting the same days then wait for each other instead of
          -- deadlocking (each would hold a key the other needs next).
          order by 1, 2, 3, 4
          on conflict (schedule_id, day, trigger_type, status) do update set
            runs = t.runs + excluded.runs, slots = t.slots + excluded.slots,
            duration_ms_sum = t.duration_ms_sum + excluded.duration_ms_sum,
            duration_ms_max = greatest(t.duration_ms_max, excluded.duration_ms_max),
            start_delay_buckets = array(select a + b from unnest(t.start_delay_buckets, excluded.start_delay_buckets) as u(a, b)),
            last_success_at = greatest(t.last_success_at, excluded.last_success_at)`;
}

/** One batch in its own short transaction, bounded by BATCH_STATEMENT_TIMEOUT_MS. */
export async function deleteExpiredRunsBatch(database: Database, batch: RetentionBatch): Promise<number> {
  return database.db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local statement_timeout = ${BATCH_STATEMENT_TIMEOUT_MS}`));
    return deleteExpiredRuns(tx, batch);
  });
}

export interface RetentionSubject {
  scheduleId: number;
  /** The schedule's own `spec.retention` from its current definition, if any. */
  retention: { runsMs?: number; keepLast?: number } | undefined;
}

/** Every schedule, archived ones too (their runs age like any other), with its own retention. */
export async function listRetentionSubjects(executor: Executor): Promise<RetentionSubject[]> {
  const rows = await queryRows<{ id: number | string; retention: RetentionSubject['retention'] | string | null }>(executor, sql`select id, definition->'retention' as retention from schedules order by id`);
  return rows.map((r) => ({ scheduleId: Number(r.id), retention: (typeof r.retention === 'string' ? JSON.parse(r.retention) : r.retention) ?? undefined }));
}

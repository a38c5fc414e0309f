/**
 * The outbox of final run statuses written outside a runner (table `run_final_events`, schema.ts).
 * `cronform_runs_total` must count every final status once across replicas, whoever wrote it. A
 * runner counts the ones it writes itself, after its commit (runner/run-observer.ts); `cancel` and
 * `pause` are not runners, so the statement that writes their final status also writes one row
 * here (`countedLater`), and the runners that serve metrics take the rows out with
 * `drainFinalEvents`: delete-returning over rows locked with SKIP LOCKED, so each row reaches
 * exactly one runner's counter and the sum across replicas stays exact.
 */
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from './client.js';
import type { RunStatus, SkipReason, TriggerType } from './run-vocabulary.js';

/**
 * A common table expression (`counted as (insert …)`) that records the rows of the CTE named
 * `source` (columns id, schedule_id, status, status_reason, trigger_type: the runs just given a
 * final status) for counting. Part of the writing statement, so the two commit together.
 */
export function countedLater(source: SQL, recordedAtIso: string): SQL {
  return sql`counted as (
          insert into run_final_events (run_id, schedule_id, status, status_reason, trigger_type, recorded_at)
          select id, schedule_id, status, status_reason, trigger_type, ${recordedAtIso}::timestamptz from ${source}
        )`;
}

export interface FinalEvent {
  runId: number;
  schedule: string;
  status: RunStatus;
  reason: SkipReason | null;
  trigger: TriggerType;
}

/**
 * Takes up to `limit` of the oldest rows out of the outbox and returns them, named by their
 * schedule's current name. Rows another runner is draining at the same time are skipped, not
 * waited for: each row is returned to exactly one caller, once its delete commits.
 */
export async function drainFinalEvents(executor: Executor, limit: number): Promise<FinalEvent[]> {
  const rows = await queryRows<{ run_id: string | number; name: string; status: RunStatus; status_reason: SkipReason | null; trigger_type: TriggerType }>(
    executor,
    sql`with drained as (
          delete from run_final_events where id in (select id from run_final_events order by id limit ${limit} for update skip locked)
          returning run_id, schedule_id, status, status_reason, trigger_type
        )
        select d.run_id, s.name, d.status, d.status_reason, d.trigger_type from drained d join schedules s on s.id = d.schedule_id`,
  );
  return rows.map((r) => ({ runId: Number(r.run_id), schedule: r.name, status: r.status, reason: r.status_reason, trigger: r.trigger_type }));
}

/**
 * Drops rows older than `before`: a fleet in which no runner serves metrics (or none ran for that
 * long) keeps the outbox bounded. Such counts are lost to the counters; the runs stay in the database.
 */
export async function pruneFinalEvents(executor: Executor, before: Date): Promise<number> {
  const [row] = await queryRows<{ n: string | number }>(
    executor,
    sql`with pruned as (delete from run_final_events where recorded_at < ${before.toISOString()}::timestamptz returning 1) select count(*) as n from pruned`,
  );
  return Number(row?.n ?? 0);
}

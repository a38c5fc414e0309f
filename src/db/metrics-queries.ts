/**
 * What the metrics endpoint reads from the database at scrape time. Each statement is bounded by
 * what is live, never by the run history: queue depth counts the unfinished runs of `active_runs`
 * (not the MANUAL_REQUIRED runs it also holds: they wait for a human, not for a runner),
 * runners alive reads the `runners` table, and the last successes look at most the last
 * LAST_SUCCESS_LOOKBACK runs of each schedule through the (schedule_id, scheduled_for) key.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from './client.js';

export async function countActiveRunsByQueue(executor: Executor): Promise<Array<{ queue: string; status: string; count: number }>> {
  const rows = await queryRows<{ queue: string; status: string; n: number | string }>(executor, sql`select queue, status, count(*) as n from active_runs
        where status in ('PENDING', 'QUEUED', 'RUNNING', 'RETRY_PENDING') group by queue, status`);
  return rows.map((r) => ({ queue: r.queue, status: r.status, count: Number(r.n) }));
}

/**
 * Runners that heartbeated within `silenceMs` of `now` and have not stopped since. A heartbeat
 * after a stop mark counts: the reconciler marks a silent runner stopped at its last heartbeat,
 * and one that was only cut off (a paused VM, a partition) heartbeats again without clearing it.
 */
export async function countRunnersAlive(executor: Executor, now: Date, silenceMs: number): Promise<number> {
  const since = new Date(now.getTime() - silenceMs).toISOString();
  const [row] = await queryRows<{ n: number | string }>(
    executor,
    sql`select count(*) as n from runners where heartbeat_at > ${since}::timestamptz and (stopped_at is null or stopped_at < heartbeat_at)`,
  );
  return Number(row?.n ?? 0);
}

/** How many of a schedule's latest runs `findLastSuccesses` looks through. */
export const LAST_SUCCESS_LOOKBACK = 200;

/**
 * The latest SUCCESS among each active schedule's last LAST_SUCCESS_LOOKBACK runs (by slot), by
 * finish time; a schedule without one there is left out. Read once per process (the metrics then
 * follow the successes it writes), not per scrape.
 */
export async function findLastSuccesses(executor: Executor): Promise<Array<{ schedule: string; finishedAt: Date }>> {
  const rows = await queryRows<{ name: string; finished_at: string | Date }>(
    executor,
    sql`select s.name, last.finished_at
        from schedules s
        cross join lateral (
          select recent.finished_at
          from (select r.status, r.trigger_type, r.finished_at from schedule_runs r where r.schedule_id = s.id order by r.scheduled_for desc limit ${LAST_SUCCESS_LOOKBACK}) recent
          where recent.status in ('SUCCESS', 'PARTIAL_SUCCESS') and recent.trigger_type <> 'DRY_RUN' and recent.finished_at is not null
          order by recent.finished_at desc limit 1
        ) last
        where s.status = 'ACTIVE'`,
  );
  return rows.map((r) => ({ schedule: r.name, finishedAt: new Date(r.finished_at) }));
}

/** One round trip: whether the database answers at all. */
export async function pingDatabase(executor: Executor): Promise<void> {
  await queryRows(executor, sql`select 1`);
}

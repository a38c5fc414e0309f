/**
 * The attempt a RUNNING run is making, which has no `run_attempts` row yet (migration 0024). An
 * attempt gets its row once, when it ends: at its outcome (`completeAttempts`), or when something
 * else ends it first: the reconciler (STALLED, or CANCELLED for a run that never started), a
 * cancel or a drain (CANCELLED). A hand-off to a queue writes it RUNNING, for the queue's worker
 * to close. Until then the run row is the attempt's record: its number (`attempts`), its runner
 * (`lease_owner`), its status (`attempt_status`: CLAIMED while it waits in the runner's local
 * queue, RUNNING once its job started) and when it was claimed or started (`attempt_started_at`).
 * Every reader of attempts that may meet a running one reads these beside the table, so `runs
 * show`, the dashboard and the alerts see the attempt as before.
 *
 * What it saves: an insert at the claim and an update at the end became one insert, ~100 bytes
 * of WAL and a statement's work a run (bench/README.md, "Attempts written once").
 */
import { sql, type SQL } from 'drizzle-orm';

/** The columns of `run_attempts` in the order openAttempts gives them, for a `union all` with it. */
export const OPEN_ATTEMPT_COLUMNS = sql`run_id, attempt, scheduled_for, runner_id, status, started_at, finished_at, exit_code, http_status, error, stdout_tail, stderr_tail`;

/**
 * Rows shaped like `run_attempts`, in the order of OPEN_ATTEMPT_COLUMNS, for the RUNNING runs of
 * `schedule_runs r` that match `where` and whose current attempt has no row.
 */
export function openAttempts(where: SQL): SQL {
  return sql`select r.id as run_id, r.attempts as attempt, r.scheduled_for, r.lease_owner as runner_id, r.attempt_status as status,
      r.attempt_started_at as started_at, null::timestamptz as finished_at, null::int as exit_code, null::int as http_status,
      null::text as error, null::text as stdout_tail, null::text as stderr_tail
    from schedule_runs r
    where r.status = 'RUNNING' and r.attempt_status is not null and r.lease_owner is not null and ${where}
      and not exists (select 1 from run_attempts o where o.run_id = r.id and o.attempt = r.attempts and o.scheduled_for = r.scheduled_for)`;
}

/**
 * The row an attempt that ends without one gets (a stall, a cancel, a drain, a hand-off), from the
 * run row as it was before the statement ended the attempt: insert into run_attempts (run_id,
 * attempt, scheduled_for, runner_id, status, started_at, finished_at, error) select … from
 * `ended`, a relation with the columns id, attempts, scheduled_for, lease_owner, attempt_status,
 * attempt_started_at. Only where it has none (a CLAIMED one, or one the hand-off wrote, is
 * updated by the statement itself). `slots`, when the caller knows the runs' days, bounds
 * `o.scheduled_for` so that only those days' partitions are planned (worker-queries.ts, onSlotDays).
 */
export function insertMissingAttempts(ended: SQL, status: SQL, finishedAt: SQL, error: SQL, slots: SQL = sql`true`): SQL {
  return sql`insert into run_attempts (run_id, attempt, scheduled_for, runner_id, status, started_at, finished_at, error)
    select e.id, e.attempts, e.scheduled_for, e.lease_owner, ${status}, e.attempt_started_at, ${finishedAt}, ${error}
    from ${ended} e
    where e.attempt_status is not null and e.lease_owner is not null
      and not exists (select 1 from run_attempts o where o.run_id = e.id and o.attempt = e.attempts and o.scheduled_for = e.scheduled_for and ${slots})`;
}

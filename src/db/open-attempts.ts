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
 * Every attempt as a relation with run_attempts' columns (OPEN_ATTEMPT_COLUMNS): the rows, and the
 * open attempts read from their run rows; of the runs `runIds` (a bigint[] expression) only, when given.
 */
export function everyAttempt(runIds?: SQL): SQL {
  const rows = runIds === undefined ? sql`true` : sql`run_id = any(${runIds})`;
  const runs = runIds === undefined ? sql`true` : sql`r.id = any(${runIds})`;
  return sql`(select ${OPEN_ATTEMPT_COLUMNS} from run_attempts where ${rows} union all ${openAttempts(runs)})`;
}

export interface EndedAttempts {
  status: SQL;
  finishedAt: SQL;
  error: SQL;
  /** Default: the run row's `attempt_started_at` (its claim, or the start mark of a job that waited). */
  startedAt?: SQL;
  /** Bounds a slot column to the runs' days, when the caller knows them (worker-queries.ts, onSlotDays). */
  onDays?: (slotColumn: string) => SQL;
}

/**
 * The rows of the attempts that a statement ends without them having one (a stall, a cancel, a
 * drain, a hand-back, a hand-off): `insert into run_attempts … select …` for the runs in `ended`
 * (a relation with `id` and `scheduled_for`, the runs the statement updated). They are read from
 * `schedule_runs` as the statement found them: every part of a statement sees the rows as they
 * were before it, so the lease owner the statement clears is still the attempt's runner. Only runs
 * that were RUNNING with an open attempt and have no row for it (one a version before migration
 * 0024 wrote is updated by the statement itself).
 */
export function insertEndedAttempts(ended: SQL, attempt: EndedAttempts): SQL {
  const onDays = attempt.onDays ?? (() => sql`true`);
  return sql`insert into run_attempts (run_id, attempt, scheduled_for, runner_id, status, started_at, finished_at, error)
    select r.id, r.attempts, r.scheduled_for, r.lease_owner, ${attempt.status}, ${attempt.startedAt ?? sql`r.attempt_started_at`}, ${attempt.finishedAt}, ${attempt.error}
    from schedule_runs r join ${ended} e on e.id = r.id and e.scheduled_for = r.scheduled_for
    where ${onDays('r.scheduled_for')} and r.status = 'RUNNING' and r.attempt_status is not null and r.lease_owner is not null
      and not exists (select 1 from run_attempts o where o.run_id = r.id and o.attempt = r.attempts and o.scheduled_for = r.scheduled_for and ${onDays('o.scheduled_for')})`;
}

/** Read-only statements behind `runs show` and `logs` (SPEC §8 run details): one run, its attempts, its audit trail. */
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from './client.js';
import { everyAttempt } from './open-attempts.js';
import { toDate, toDateOnly, toOptionalDate } from './row-values.js';

export interface RunDetailRow {
  id: number;
  schedule: string;
  scheduleVersion: number;
  scheduledFor: Date;
  triggerType: string;
  idempotencyKey: string;
  status: string;
  statusReason: string | null;
  priority: number;
  queue: string;
  businessDate: string | null;
  runAfter: Date;
  attempts: number;
  maxAttempts: number;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  summarizedSlots: number | null;
}

export interface AttemptRow {
  runId: number;
  attempt: number;
  runnerId: string;
  status: string;
  startedAt: Date;
  finishedAt: Date | null;
  exitCode: number | null;
  httpStatus: number | null;
  error: string | null;
  stdoutTail: string | null;
  stderrTail: string | null;
}

/** An operation recorded against the run (cancel, retry, approve…). */
export interface RunEventRow {
  at: Date;
  actor: string;
  action: string;
  reason: string | null;
}

type Instant = Date | string;

interface RunDetailDbRow {
  id: string | number;
  schedule: string;
  schedule_version: number;
  scheduled_for: Instant;
  trigger_type: string;
  idempotency_key: string;
  status: string;
  status_reason: string | null;
  priority: number;
  queue: string;
  business_date: string | Date | null;
  run_after: Instant;
  attempts: number;
  max_attempts: number;
  lease_owner: string | null;
  lease_expires_at: Instant | null;
  created_at: Instant;
  started_at: Instant | null;
  finished_at: Instant | null;
  summarized_slots: number | null;
}

export async function findRunDetail(executor: Executor, runId: number): Promise<RunDetailRow | null> {
  const [row] = await queryRows<RunDetailDbRow>(
    executor,
    sql`select r.id, s.name as schedule, r.schedule_version, r.scheduled_for, r.trigger_type, r.idempotency_key, r.status, r.status_reason,
          r.priority, r.queue, r.business_date, r.run_after, r.attempts, r.max_attempts, r.lease_owner, r.lease_expires_at, r.created_at,
          r.started_at, r.finished_at, r.summarized_slots
        from schedule_runs r join schedules s on s.id = r.schedule_id
        where r.id = ${runId}`,
  );
  if (!row) return null;
  return {
    id: Number(row.id),
    schedule: row.schedule,
    scheduleVersion: row.schedule_version,
    scheduledFor: toDate(row.scheduled_for),
    triggerType: row.trigger_type,
    idempotencyKey: row.idempotency_key,
    status: row.status,
    statusReason: row.status_reason,
    priority: row.priority,
    queue: row.queue,
    businessDate: toDateOnly(row.business_date),
    runAfter: toDate(row.run_after),
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    leaseOwner: row.lease_owner,
    leaseExpiresAt: toOptionalDate(row.lease_expires_at),
    createdAt: toDate(row.created_at),
    startedAt: toOptionalDate(row.started_at),
    finishedAt: toOptionalDate(row.finished_at),
    summarizedSlots: row.summarized_slots,
  };
}

interface AttemptDbRow {
  run_id: number | string;
  attempt: number;
  runner_id: string;
  status: string;
  started_at: Instant;
  finished_at: Instant | null;
  exit_code: number | null;
  http_status: number | null;
  error: string | null;
  stdout_tail: string | null;
  stderr_tail: string | null;
}

const toAttemptRow = (row: AttemptDbRow): AttemptRow => ({
  runId: Number(row.run_id),
  attempt: row.attempt,
  runnerId: row.runner_id,
  status: row.status,
  startedAt: toDate(row.started_at),
  finishedAt: toOptionalDate(row.finished_at),
  exitCode: row.exit_code,
  httpStatus: row.http_status,
  error: row.error,
  stdoutTail: row.stdout_tail,
  stderrTail: row.stderr_tail,
});

const ATTEMPT_COLUMNS = sql`run_id, attempt, runner_id, status, started_at, finished_at, exit_code, http_status, error, stdout_tail, stderr_tail`;

/** The run's attempts, first first, a running one included (open-attempts.ts); only `attempt` when given. */
export async function listRunAttempts(executor: Executor, runId: number, attempt?: number): Promise<AttemptRow[]> {
  const rows = await queryRows<AttemptDbRow>(
    executor,
    sql`select ${ATTEMPT_COLUMNS} from ${everyAttempt(sql`array[${runId}]::bigint[]`)} a ${attempt === undefined ? sql`` : sql`where attempt = ${attempt}`}
        order by attempt`,
  );
  return rows.map(toAttemptRow);
}

/** The attempts of these runs, running ones included, by run then attempt number (the dashboard's run history). */
export async function listAttemptsOfRuns(executor: Executor, runIds: readonly number[]): Promise<AttemptRow[]> {
  if (runIds.length === 0) return [];
  const rows = await queryRows<AttemptDbRow>(
    executor,
    sql`select ${ATTEMPT_COLUMNS} from ${everyAttempt(sql`${sql.param([...runIds])}::bigint[]`)} a order by run_id, attempt`,
  );
  return rows.map(toAttemptRow);
}

export async function listRunEvents(executor: Executor, runId: number): Promise<RunEventRow[]> {
  const rows = await queryRows<{ at: Instant; actor: string; action: string; reason: string | null }>(
    executor,
    // Through the schedule's index: audit_log has none on run_id, and every run operation records both.
    sql`select at, actor, action, reason from audit_log
        where schedule_id = (select schedule_id from schedule_runs where id = ${runId}) and run_id = ${runId}
        order by at, id`,
  );
  return rows.map((row) => ({ at: toDate(row.at), actor: row.actor, action: row.action, reason: row.reason }));
}

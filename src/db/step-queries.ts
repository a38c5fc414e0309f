/**
 * Statements of workflow steps (`run_steps`, docs/workflows.md). A runner writes a step only while
 * it holds the run's lease for that attempt (the same guard as the attempt's outcome), so a runner
 * presumed dead can never mark a step of a newer attempt; the operator's `retry --from-step`
 * writes RESET rows for the attempt it queues, under the run's lock.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from './client.js';
import { toOptionalDate, toOptionalNumber } from './row-values.js';
import type { StepStatus } from './run-vocabulary.js';

export interface StepRow {
  runId: number;
  attempt: number;
  stepIndex: number;
  name: string;
  status: StepStatus;
  tries: number;
  startedAt: Date | null;
  finishedAt: Date | null;
  exitCode: number | null;
  httpStatus: number | null;
  error: string | null;
  stdoutTail: string | null;
  stderrTail: string | null;
  result: Record<string, unknown> | null;
}

interface RawStepRow {
  run_id: string | number;
  attempt: number;
  step_index: number;
  name: string;
  status: StepStatus;
  tries: number;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  exit_code: number | string | null;
  http_status: number | string | null;
  error: string | null;
  stdout_tail: string | null;
  stderr_tail: string | null;
  result: Record<string, unknown> | string | null;
}

function toStepRow(row: RawStepRow): StepRow {
  return {
    runId: Number(row.run_id),
    attempt: Number(row.attempt),
    stepIndex: Number(row.step_index),
    name: row.name,
    status: row.status,
    tries: Number(row.tries),
    startedAt: toOptionalDate(row.started_at),
    finishedAt: toOptionalDate(row.finished_at),
    exitCode: toOptionalNumber(row.exit_code),
    httpStatus: toOptionalNumber(row.http_status),
    error: row.error,
    stdoutTail: row.stdout_tail,
    stderrTail: row.stderr_tail,
    result: typeof row.result === 'string' ? (JSON.parse(row.result) as Record<string, unknown>) : row.result,
  };
}

/** Every step row of a run, oldest attempt first, in step order. */
export async function findRunSteps(executor: Executor, runId: number): Promise<StepRow[]> {
  const rows = await queryRows<RawStepRow>(executor, sql`select * from run_steps where run_id = ${runId} order by attempt, step_index`);
  return rows.map(toStepRow);
}

export interface StepStart {
  runId: number;
  attempt: number;
  stepIndex: number;
  name: string;
  tries: number;
  startedAt: Date;
}

const holdsLease = (runnerId: string, runId: number, attempt: number) =>
  sql`exists (select 1 from schedule_runs r where r.id = ${runId} and r.status = 'RUNNING' and r.lease_owner = ${runnerId} and r.attempts = ${attempt})`;

/** Marks a step RUNNING for this attempt; false when the lease is no longer ours (nothing written). */
export async function recordStepStart(executor: Executor, runnerId: string, start: StepStart): Promise<boolean> {
  const rows = await queryRows<{ run_id: unknown }>(
    executor,
    sql`insert into run_steps (run_id, attempt, step_index, name, status, tries, started_at)
        select ${start.runId}, ${start.attempt}, ${start.stepIndex}, ${start.name}, 'RUNNING', ${start.tries}, ${start.startedAt.toISOString()}::timestamptz
        where ${holdsLease(runnerId, start.runId, start.attempt)}
        on conflict (run_id, attempt, step_index) do update
          set name = excluded.name, status = 'RUNNING', tries = excluded.tries, started_at = excluded.started_at, finished_at = null,
              exit_code = null, http_status = null, error = null, stdout_tail = null, stderr_tail = null, result = null
        returning run_id`,
  );
  return rows.length === 1;
}

export interface StepEnd {
  runId: number;
  attempt: number;
  stepIndex: number;
  status: Exclude<StepStatus, 'RUNNING' | 'RESET'>;
  finishedAt: Date;
  exitCode: number | null;
  httpStatus: number | null;
  error: string | null;
  stdoutTail: string | null;
  stderrTail: string | null;
  result: Record<string, unknown> | null;
}

/** Records how a step ended; false when the lease is no longer ours (nothing written). */
export async function recordStepEnd(executor: Executor, runnerId: string, end: StepEnd): Promise<boolean> {
  const rows = await queryRows<{ run_id: unknown }>(
    executor,
    sql`update run_steps set status = ${end.status}, finished_at = ${end.finishedAt.toISOString()}::timestamptz,
          exit_code = ${end.exitCode}, http_status = ${end.httpStatus}, error = ${end.error},
          stdout_tail = ${end.stdoutTail}, stderr_tail = ${end.stderrTail},
          result = ${end.result === null ? null : JSON.stringify(end.result)}::jsonb
        where run_id = ${end.runId} and attempt = ${end.attempt} and step_index = ${end.stepIndex}
          and ${holdsLease(runnerId, end.runId, end.attempt)}
        returning run_id`,
  );
  return rows.length === 1;
}

/** `retry --from-step`: the steps from the chosen one on start over in the attempt about to be queued. */
export async function resetStepsForAttempt(executor: Executor, runId: number, attempt: number, steps: Array<{ index: number; name: string }>): Promise<void> {
  for (const step of steps) {
    await executor.execute(
      sql`insert into run_steps (run_id, attempt, step_index, name, status) values (${runId}, ${attempt}, ${step.index}, ${step.name}, 'RESET')
          on conflict (run_id, attempt, step_index) do update set status = 'RESET'`,
    );
  }
}

/**
 * `retry <runId>`: one more attempt of the same run (SPEC §7): the same row, so the same
 * idempotency key and business date; attempts keep counting and max_attempts is raised to allow
 * exactly one more. It starts now, whatever the schedule's overlap: the operator asked for it.
 */
import type { Database, Executor } from '../../db/client.js';
import { requeueRuns, type RunRecord } from '../../db/run-operations-queries.js';
import { findRunSteps, resetStepsForAttempt } from '../../db/step-queries.js';
import { loadDefinitions } from '../../db/worker-queries.js';
import { planStepResume } from '../../runner/policy/step-resume.js';
import { notifyRunsQueued } from '../../db/scheduler-queries.js';
import { insertAuditRows } from '../../db/schedule-queries.js';
import { assertTransition } from '../../runner/policy/transitions.js';
import type { RunStatus } from '../../db/run-vocabulary.js';
import type { ChangeAuthor } from '../actor.js';
import { describeRun, lockRun, refuseArchived } from './locked-targets.js';
import { operationAuditRow } from './operation-audit.js';
import { RunOperationError } from './run-operation-error.js';

/** PARTIAL_SUCCESS: another attempt re-runs only its failed items (CRONFORM_RETRY_ITEMS_FILE). */
export const RETRYABLE_STATUSES: readonly RunStatus[] = ['FAILED', 'PARTIAL_SUCCESS', 'CANCELLED', 'MISSED', 'SKIPPED'];

export interface RunChangeOptions {
  runId: number;
  nowMs: number;
  author: ChangeAuthor;
}

export interface RetryOptions extends RunChangeOptions {
  /** A workflow's step to run again from (`--from-step`); by default the run resumes at the first step that did not succeed. */
  fromStep?: string | undefined;
}

export interface RetryResult {
  runId: number;
  schedule: string;
  scheduledFor: string;
  previousStatus: RunStatus;
  status: 'QUEUED';
  /** The number the new attempt will have. */
  attempt: number;
  /** A workflow's step the new attempt starts at; null for a single job. */
  fromStep: string | null;
}

export async function retryRun(database: Database, options: RetryOptions): Promise<RetryResult> {
  const now = new Date(options.nowMs);
  return database.db.transaction(async (tx) => {
    const { run, schedule } = await lockRun(tx, options.runId);
    if (!RETRYABLE_STATUSES.includes(run.status)) {
      throw new RunOperationError(`cannot retry ${describeRun(run)}: it is ${run.status}; only ${RETRYABLE_STATUSES.join(', ')} runs can be retried`);
    }
    if (run.summarizedSlots !== null) {
      throw new RunOperationError(`cannot retry run ${run.id}: it stands for ${run.summarizedSlots} missed slots of ${schedule.name}; run them with cronform backfill ${schedule.name} --from … --to …`);
    }
    refuseArchived(schedule, 'retry a run of');
    assertTransition(run.status, 'QUEUED');
    const fromStep = await chooseStartStep(tx, run, schedule.id, options.fromStep);
    const moved = await requeueRuns(tx, [{ id: run.id, expected: run.status, status: 'QUEUED', runAfter: now, maxAttempts: run.attempts + 1, priority: run.priority }]);
    if (moved.length !== 1) throw new Error(`run ${run.id} changed under its lock`);
    await insertAuditRows(tx, [
      operationAuditRow(options.author, now, 'RUN_RETRIED', schedule, {
        runId: run.id,
        before: { status: run.status, attempts: run.attempts, maxAttempts: run.maxAttempts },
        after: { status: 'QUEUED', maxAttempts: run.attempts + 1, ...(fromStep ? { fromStep: fromStep.name, fromStepChosen: options.fromStep !== undefined } : {}) },
      }),
    ]);
    await notifyRunsQueued(tx);
    return { runId: run.id, schedule: schedule.name, scheduledFor: run.scheduledFor.toISOString(), previousStatus: run.status, status: 'QUEUED', attempt: run.attempts + 1, fromStep: fromStep?.name ?? null };
  });
}

/**
 * The step a retried workflow starts at: where it would resume (the first step that did not
 * succeed), or the step the operator named, which must not lie beyond that one: later steps read
 * the results of earlier ones, and a step after one that never succeeded would run without them.
 * Naming a step writes RESET rows for it and the steps after it in the attempt about to run.
 */
async function chooseStartStep(tx: Executor, run: RunRecord, scheduleId: number, requested: string | undefined): Promise<{ index: number; name: string } | null> {
  const definition = (await loadDefinitions(tx, [{ scheduleId, version: run.scheduleVersion }])).get(`${scheduleId}:${run.scheduleVersion}`);
  const job = definition?.job;
  if (!job || job.type !== 'steps') {
    if (requested !== undefined) throw new RunOperationError(`cannot retry run ${run.id} from step ${JSON.stringify(requested)}: its job (version ${run.scheduleVersion}) has no steps`);
    return null;
  }
  const names = job.steps.map((step) => step.name);
  const { startIndex } = planStepResume(names, await findRunSteps(tx, run.id));
  if (requested === undefined && startIndex < names.length) return { index: startIndex, name: names[startIndex]! };
  // Every step had succeeded (the run was cancelled or lost after its last step): run them all again.
  if (requested === undefined) requested = names[0]!;
  const index = names.indexOf(requested);
  if (index === -1) throw new RunOperationError(`run ${run.id} has no step ${JSON.stringify(requested)} (its steps: ${names.join(', ')})`);
  if (index > startIndex) {
    throw new RunOperationError(`cannot retry run ${run.id} from step ${JSON.stringify(requested)}: step ${JSON.stringify(names[startIndex])} before it has not succeeded, and later steps read earlier results; retry from ${JSON.stringify(names[startIndex])} or an earlier step`);
  }
  await resetStepsForAttempt(tx, run.id, run.attempts + 1, names.slice(index).map((name, offset) => ({ index: index + offset, name })));
  return { index, name: requested };
}

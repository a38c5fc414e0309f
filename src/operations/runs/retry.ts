/**
 * `retry <runId>`: one more attempt of the same run (SPEC §7): the same row, so the same
 * idempotency key and business date; attempts keep counting and max_attempts is raised to allow
 * exactly one more. It starts now, whatever the schedule's overlap: the operator asked for it.
 */
import type { Database } from '../../db/client.js';
import { requeueRuns } from '../../db/run-operations-queries.js';
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

export interface RetryResult {
  runId: number;
  schedule: string;
  scheduledFor: string;
  previousStatus: RunStatus;
  status: 'QUEUED';
  /** The number the new attempt will have. */
  attempt: number;
}

export async function retryRun(database: Database, options: RunChangeOptions): Promise<RetryResult> {
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
    const moved = await requeueRuns(tx, [{ id: run.id, expected: run.status, status: 'QUEUED', runAfter: now, maxAttempts: run.attempts + 1, priority: run.priority }]);
    if (moved.length !== 1) throw new Error(`run ${run.id} changed under its lock`);
    await insertAuditRows(tx, [
      operationAuditRow(options.author, now, 'RUN_RETRIED', schedule, { runId: run.id, before: { status: run.status, attempts: run.attempts, maxAttempts: run.maxAttempts }, after: { status: 'QUEUED', maxAttempts: run.attempts + 1 } }),
    ]);
    await notifyRunsQueued(tx);
    return { runId: run.id, schedule: schedule.name, scheduledFor: run.scheduledFor.toISOString(), previousStatus: run.status, status: 'QUEUED', attempt: run.attempts + 1 };
  });
}

/**
 * `cancel <runId>` (SPEC §7). A run that has not started is simply CANCELLED. A RUNNING one is
 * CANCELLED with its lease cleared and its attempt closed: the owning runner's next heartbeat
 * finds it lost the lease and kills the process group, and `cronform_cancel` tells it at once.
 * Its outcome is never written, since completion is guarded by the lease owner. A PENDING run
 * of the schedule then moves up, as when any active run ends.
 */
import type { Database } from '../../db/client.js';
import { markRunCancelled, notifyRunCancelled } from '../../db/run-operations-queries.js';
import { notifyRunsQueued } from '../../db/scheduler-queries.js';
import { insertAuditRows } from '../../db/schedule-queries.js';
import { promotePendingRuns } from '../../db/worker-queries.js';
import { assertTransition } from '../../runner/policy/transitions.js';
import type { RunStatus } from '../../db/run-vocabulary.js';
import { describeRun, lockRun } from './locked-targets.js';
import { operationAuditRow } from './operation-audit.js';
import type { RunChangeOptions } from './retry.js';
import { RunOperationError } from './run-operation-error.js';

export const CANCELLABLE_STATUSES: readonly RunStatus[] = ['PENDING', 'QUEUED', 'RETRY_PENDING', 'MANUAL_REQUIRED', 'RUNNING'];

export interface CancelResult {
  runId: number;
  schedule: string;
  scheduledFor: string;
  previousStatus: RunStatus;
  status: 'CANCELLED';
  /** It was RUNNING: its runner stops the process group. */
  stopped: boolean;
  /** PENDING runs of the schedule promoted because this one no longer holds the slot. */
  promoted: number;
}

export async function cancelRun(database: Database, options: RunChangeOptions): Promise<CancelResult> {
  const now = new Date(options.nowMs);
  return database.db.transaction(async (tx) => {
    const { run, schedule } = await lockRun(tx, options.runId);
    if (!CANCELLABLE_STATUSES.includes(run.status)) throw new RunOperationError(`cannot cancel ${describeRun(run)}: it has already ended`);
    assertTransition(run.status, 'CANCELLED');
    if (!(await markRunCancelled(tx, run.id, run.status, now, `cancelled by ${options.author.actor}`))) throw new Error(`run ${run.id} changed under its lock`);
    const stopped = run.status === 'RUNNING';
    if (stopped) await notifyRunCancelled(tx, run.id);
    const promoted = await promotePendingRuns(tx, [schedule.id]);
    if (promoted > 0) await notifyRunsQueued(tx);
    await insertAuditRows(tx, [
      operationAuditRow(options.author, now, 'RUN_CANCELLED', schedule, { runId: run.id, before: { status: run.status, leaseOwner: run.leaseOwner }, after: { status: 'CANCELLED' } }),
    ]);
    return { runId: run.id, schedule: schedule.name, scheduledFor: run.scheduledFor.toISOString(), previousStatus: run.status, status: 'CANCELLED', stopped, promoted };
  });
}

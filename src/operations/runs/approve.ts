/**
 * `approve <runId>`: a run waiting in MANUAL_REQUIRED may start (SPEC §7). Overlap is applied now,
 * not when the run was created: behind an active run of a non-ALLOW schedule it waits as PENDING
 * and starts when that run ends; otherwise it is QUEUED.
 *
 * A run stopped by `safety.maxAffected` (reason SAFETY_THRESHOLD, SPEC §8a) is approved for the
 * count its job reported, no more: its next attempt gets that count as CRONFORM_SAFETY_MAX_AFFECTED,
 * so a job that now asks to affect even more is stopped again for another look.
 */
import type { Database } from '../../db/client.js';
import { findActiveRuns, markRunApproved } from '../../db/run-operations-queries.js';
import { approveReportedAffected } from '../../db/run-progress-queries.js';
import { notifyRunsQueued } from '../../db/scheduler-queries.js';
import { insertAuditRows } from '../../db/schedule-queries.js';
import { assertTransition } from '../../runner/policy/transitions.js';
import { describeRun, lockRun, refuseArchived } from './locked-targets.js';
import { operationAuditRow } from './operation-audit.js';
import { requeueStatuses } from './requeue-order.js';
import type { RunChangeOptions } from './retry.js';
import { RunOperationError } from './run-operation-error.js';

export interface ApproveResult {
  runId: number;
  schedule: string;
  scheduledFor: string;
  status: 'QUEUED' | 'PENDING';
  /** The active run it waits behind, when PENDING. */
  behindRunId: number | null;
  /** A run stopped by the safety threshold: how many records its next attempt may affect. */
  approvedAffected: number | null;
}

export async function approveRun(database: Database, options: RunChangeOptions): Promise<ApproveResult> {
  const now = new Date(options.nowMs);
  return database.db.transaction(async (tx) => {
    const { run, schedule } = await lockRun(tx, options.runId);
    if (run.status !== 'MANUAL_REQUIRED') throw new RunOperationError(`cannot approve ${describeRun(run)}: only MANUAL_REQUIRED runs wait for approval`);
    refuseArchived(schedule, 'approve a run of');
    const [active] = await findActiveRuns(tx, schedule.id);
    const [status] = requeueStatuses(1, schedule.definition.overlap, active !== undefined) as ['QUEUED' | 'PENDING'];
    assertTransition(run.status, status);
    const approvedAffected = run.statusReason === 'SAFETY_THRESHOLD' ? await approveReportedAffected(tx, run.id) : null;
    if (!(await markRunApproved(tx, run.id, status))) throw new Error(`run ${run.id} changed under its lock`);
    await insertAuditRows(tx, [
      operationAuditRow(options.author, now, 'RUN_APPROVED', schedule, {
        runId: run.id,
        before: { status: run.status, reason: run.statusReason },
        after: { status, ...(approvedAffected === null ? {} : { approvedAffected }) },
      }),
    ]);
    if (status === 'QUEUED') await notifyRunsQueued(tx);
    return { runId: run.id, schedule: schedule.name, scheduledFor: run.scheduledFor.toISOString(), status, behindRunId: status === 'PENDING' ? active!.id : null, approvedAffected };
  });
}

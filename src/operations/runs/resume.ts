/**
 * `resume <name> [--missed skip|last|all]` (SPEC §7): ends the pause and decides what happens to
 * the runs the pause skipped (SKIPPED/PAUSED since the pause began, whether skipped at pause time
 * or recorded so by the scheduler during it):
 * - skip (default): they stay SKIPPED;
 * - last: the one with the latest slot runs again;
 * - all: every one runs again, oldest slot first.
 * Re-queued runs obey the schedule's overlap (see requeue-order): with ALLOW all are QUEUED,
 * otherwise one runs at a time and the rest wait as PENDING.
 */
import type { Database } from '../../db/client.js';
import { clearSchedulePause, findActiveRuns, lockRunsSkippedByPause, requeueRuns } from '../../db/run-operations-queries.js';
import { notifyRunsQueued } from '../../db/scheduler-queries.js';
import { insertAuditRows } from '../../db/schedule-queries.js';
import { assertTransition } from '../../runner/policy/transitions.js';
import type { ChangeAuthor } from '../actor.js';
import { lockNamedSchedule } from './locked-targets.js';
import { operationAuditRow } from './operation-audit.js';
import { requeueStatuses } from './requeue-order.js';
import { RunOperationError } from './run-operation-error.js';

export type MissedMode = 'skip' | 'last' | 'all';

export interface ResumeOptions {
  name: string;
  missed: MissedMode;
  nowMs: number;
  author: ChangeAuthor;
}

export interface ResumeResult {
  schedule: string;
  pausedSince: string;
  missed: MissedMode;
  /** Runs put back in line, oldest slot first. */
  requeued: Array<{ runId: number; scheduledFor: string; status: 'QUEUED' | 'PENDING' }>;
  /** Runs of the pause that stay SKIPPED/PAUSED. */
  leftSkipped: number;
}

export async function resumeSchedule(database: Database, options: ResumeOptions): Promise<ResumeResult> {
  const now = new Date(options.nowMs);
  return database.db.transaction(async (tx) => {
    const schedule = await lockNamedSchedule(tx, options.name);
    if (!schedule.pausedAt) throw new RunOperationError(`${schedule.name} is not paused`);
    const pausedAt = schedule.pausedAt;
    const skipped = await lockRunsSkippedByPause(tx, schedule.id, pausedAt);
    const chosen = options.missed === 'all' ? skipped : options.missed === 'last' ? skipped.slice(-1) : [];
    const active = await findActiveRuns(tx, schedule.id);
    const statuses = requeueStatuses(chosen.length, schedule.definition.overlap, active.length > 0);
    for (const status of new Set(statuses)) assertTransition('SKIPPED', status);
    const moved = await requeueRuns(
      tx,
      chosen.map((run, position) => ({
        id: run.id,
        expected: run.status,
        status: statuses[position]!,
        runAfter: now,
        // A run skipped while waiting for a retry keeps its remaining attempts, and has at least one.
        maxAttempts: Math.max(run.maxAttempts, run.attempts + 1),
        priority: run.priority,
      })),
    );
    if (moved.length !== chosen.length) throw new Error(`runs of ${schedule.name} changed under their lock`);
    if (!(await clearSchedulePause(tx, schedule.id, now))) throw new Error(`schedule ${schedule.name} changed under its lock`);
    const requeued = chosen.map((run, position) => ({ runId: run.id, scheduledFor: run.scheduledFor.toISOString(), status: statuses[position]! }));
    await insertAuditRows(tx, [
      operationAuditRow(options.author, now, 'SCHEDULE_RESUMED', schedule, {
        before: { paused: { at: pausedAt.toISOString(), by: schedule.pausedBy, reason: schedule.pausedReason, until: schedule.pausedUntil?.toISOString() ?? null } },
        after: { paused: null, missed: options.missed, requeuedRunIds: requeued.map((r) => r.runId) },
      }),
    ]);
    if (statuses.includes('QUEUED')) await notifyRunsQueued(tx);
    return { schedule: schedule.name, pausedSince: pausedAt.toISOString(), missed: options.missed, requeued, leftSkipped: skipped.length - chosen.length };
  });
}

/**
 * `pause <name> --reason [--until]`: the emergency kill switch (SPEC §7). One transaction: the
 * schedule is marked paused (the scheduler then records its slots SKIPPED/PAUSED until resumed
 * or until `until`, when the reconciler ends the pause), and its runs that have not started yet
 * (PENDING, QUEUED, RETRY_PENDING, any trigger) become SKIPPED/PAUSED so that nothing new starts.
 * A RUNNING attempt is left to finish: stopping it is `cancel`. `plan` reports the pause as drift.
 */
import type { Database } from '../../db/client.js';
import { setSchedulePause, skipUnstartedRuns } from '../../db/run-operations-queries.js';
import { insertAuditRows } from '../../db/schedule-queries.js';
import { assertTransition } from '../../runner/policy/transitions.js';
import type { RunStatus } from '../../db/run-vocabulary.js';
import type { ChangeAuthor } from '../actor.js';
import { lockNamedSchedule, refuseArchived } from './locked-targets.js';
import { operationAuditRow } from './operation-audit.js';
import { RunOperationError } from './run-operation-error.js';

const UNSTARTED: readonly RunStatus[] = ['PENDING', 'QUEUED', 'RETRY_PENDING'];

export interface PauseOptions {
  name: string;
  reason: string;
  /** The pause ends by itself at this instant; null: until resumed. */
  untilMs: number | null;
  nowMs: number;
  author: ChangeAuthor;
}

export interface PauseResult {
  schedule: string;
  pausedAt: string;
  pausedBy: string;
  reason: string;
  until: string | null;
  /** Runs that had not started and are now SKIPPED/PAUSED (resume --missed can put them back). */
  skippedRunIds: number[];
}

export async function pauseSchedule(database: Database, options: PauseOptions): Promise<PauseResult> {
  const reason = options.reason.trim();
  if (reason === '') throw new RunOperationError('--reason is required: say why the schedule is paused (it is shown in status and in the audit log)');
  if (options.untilMs !== null && options.untilMs <= options.nowMs) throw new RunOperationError(`--until ${new Date(options.untilMs).toISOString()} is not in the future`);
  const now = new Date(options.nowMs);
  const until = options.untilMs === null ? null : new Date(options.untilMs);
  return database.db.transaction(async (tx) => {
    const schedule = await lockNamedSchedule(tx, options.name);
    refuseArchived(schedule, 'pause');
    if (schedule.pausedAt) {
      throw new RunOperationError(
        `${schedule.name} is already paused since ${schedule.pausedAt.toISOString()} by ${schedule.pausedBy ?? 'unknown'}${schedule.pausedReason ? ` (${schedule.pausedReason})` : ''}${schedule.pausedUntil ? ` until ${schedule.pausedUntil.toISOString()}` : ''}; resume it first to change the pause`,
      );
    }
    for (const status of UNSTARTED) assertTransition(status, 'SKIPPED');
    if (!(await setSchedulePause(tx, schedule.id, { at: now, by: options.author.actor, reason, until }))) throw new Error(`schedule ${schedule.name} changed under its lock`);
    const skipped = await skipUnstartedRuns(tx, schedule.id, now);
    await insertAuditRows(tx, [
      operationAuditRow(options.author, now, 'SCHEDULE_PAUSED', schedule, {
        before: { paused: null },
        after: { paused: { at: now.toISOString(), by: options.author.actor, reason, until: until?.toISOString() ?? null }, skippedRunIds: skipped.map((s) => s.id) },
        reason,
      }),
    ]);
    return { schedule: schedule.name, pausedAt: now.toISOString(), pausedBy: options.author.actor, reason, until: until?.toISOString() ?? null, skippedRunIds: skipped.map((s) => s.id) };
  });
}

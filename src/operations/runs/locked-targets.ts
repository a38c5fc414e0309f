/**
 * The rows an operation changes, locked for its transaction, with the refusals every operation
 * shares: an unknown name or id, and an archived schedule (disabled, history only).
 */
import type { Executor } from '../../db/client.js';
import { lockRunWithSchedule, lockScheduleByName, type RunRecord, type ScheduleRecord } from '../../db/run-operations-queries.js';
import { RunOperationError } from './run-operation-error.js';

export async function lockNamedSchedule(tx: Executor, name: string): Promise<ScheduleRecord> {
  const schedule = await lockScheduleByName(tx, name);
  if (!schedule) throw new RunOperationError(`no schedule named ${JSON.stringify(name)}`);
  return schedule;
}

export async function lockRun(tx: Executor, runId: number): Promise<{ run: RunRecord; schedule: ScheduleRecord }> {
  const found = await lockRunWithSchedule(tx, runId);
  if (!found) throw new RunOperationError(`no run with id ${runId} (see cronform runs)`);
  return found;
}

/** `verb` completes "cannot … an archived schedule", e.g. "trigger", "retry a run of". */
export function refuseArchived(schedule: ScheduleRecord, verb: string): void {
  if (schedule.status === 'ARCHIVED') {
    throw new RunOperationError(`cannot ${verb} ${schedule.name}: the schedule is archived (its manifest was removed); restore it by adding the manifest back and applying`);
  }
}

export function describeRun(run: RunRecord): string {
  return `run ${run.id} (${run.triggerType} ${run.scheduledFor.toISOString()}, ${run.status}${run.statusReason ? `/${run.statusReason}` : ''})`;
}

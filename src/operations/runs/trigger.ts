/**
 * `trigger`: a MANUAL run of a schedule for "now" (SPEC §7). One transaction: lock the schedule
 * (two triggers of one schedule are serialized), check for an active run, insert, audit, NOTIFY.
 * The unique (schedule, scheduled_for, trigger) key makes a second trigger in the same second a
 * refusal rather than a duplicate.
 */
import type { Database } from '../../db/client.js';
import { findActiveRuns, findRunByIdempotencyKey } from '../../db/run-operations-queries.js';
import { insertRuns, notifyRunsQueued } from '../../db/scheduler-queries.js';
import { insertAuditRows } from '../../db/schedule-queries.js';
import { businessDateFor } from '../../runner/policy/business-date.js';
import { idempotencyKeyFor, PRIORITY_RANK } from '../../runner/run-types.js';
import type { ChangeAuthor } from '../actor.js';
import { describeRun, lockNamedSchedule, refuseArchived } from './locked-targets.js';
import { operationAuditRow } from './operation-audit.js';
import { RunOperationError } from './run-operation-error.js';

export interface TriggerOptions {
  name: string;
  /** Create the run even when the schedule already has an active one. */
  forceNew: boolean;
  /**
   * A DRY_RUN run (SPEC §8a): its job gets CRONFORM_DRY_RUN=1, must change nothing and reports what
   * it would (`cronform progress --would-affect N`). It skips `approval: required` (there is nothing
   * to approve: it acts on nothing), and `safety.maxAffected` never stops it.
   */
  dryRun?: boolean;
  nowMs: number;
  author: ChangeAuthor;
}

export interface TriggerResult {
  runId: number;
  schedule: string;
  scheduledFor: string;
  idempotencyKey: string;
  businessDate: string;
  /** MANUAL_REQUIRED when the schedule has `approval: required`: it waits for `approve`. */
  status: 'QUEUED' | 'MANUAL_REQUIRED';
  dryRun: boolean;
  /** The schedule is paused: the manual run still runs (it was asked for explicitly). */
  paused: boolean;
}

export async function triggerRun(database: Database, options: TriggerOptions): Promise<TriggerResult> {
  // Slots are whole seconds: a manual run's key and slot read like the scheduler's.
  const slotMs = Math.floor(options.nowMs / 1000) * 1000;
  const now = new Date(options.nowMs);
  return database.db.transaction(async (tx) => {
    const schedule = await lockNamedSchedule(tx, options.name);
    refuseArchived(schedule, 'trigger');
    if (!options.forceNew) {
      const [active] = await findActiveRuns(tx, schedule.id);
      if (active) {
        throw new RunOperationError(
          `${schedule.name} already has an active run: ${describeRun(active)}. Wait for it, cancel it (cronform cancel ${active.id}), or pass --force-new to run another one alongside`,
        );
      }
    }
    const { definition } = schedule;
    const dryRun = options.dryRun === true;
    const triggerType = dryRun ? 'DRY_RUN' : 'MANUAL';
    const idempotencyKey = idempotencyKeyFor(schedule.name, slotMs, triggerType);
    const businessDate = businessDateFor(slotMs, definition.timezone, definition.businessDate.offsetDays);
    const status = definition.approval === 'required' && !dryRun ? 'MANUAL_REQUIRED' : 'QUEUED';
    const [inserted] = await insertRuns(
      tx,
      [
        {
          scheduleId: schedule.id,
          scheduleVersion: schedule.version,
          scheduledFor: new Date(slotMs),
          triggerType,
          idempotencyKey,
          status,
          statusReason: null,
          priority: PRIORITY_RANK[definition.priority],
          queue: definition.queue,
          businessDate,
          runAfter: now,
          maxAttempts: definition.retry.maxAttempts,
          summarizedSlots: null,
          finishedAt: null,
        },
      ],
      now,
    );
    if (!inserted) {
      const existing = await findRunByIdempotencyKey(tx, idempotencyKey);
      throw new RunOperationError(`${schedule.name} already has a manual run for ${new Date(slotMs).toISOString()}${existing ? ` (run ${existing.id})` : ''}; try again in a second`);
    }
    await insertAuditRows(tx, [
      operationAuditRow(options.author, now, 'RUN_TRIGGERED', schedule, {
        runId: inserted.id,
        after: { status, scheduledFor: new Date(slotMs).toISOString(), idempotencyKey, forceNew: options.forceNew, ...(dryRun ? { dryRun } : {}) },
      }),
    ]);
    if (status === 'QUEUED') await notifyRunsQueued(tx);
    return { runId: inserted.id, schedule: schedule.name, scheduledFor: new Date(slotMs).toISOString(), idempotencyKey, businessDate, status, dryRun, paused: schedule.pausedAt !== null };
  });
}

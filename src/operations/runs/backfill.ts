/**
 * `backfill`: BACKFILL runs for the slots of a schedule in [from, to) (SPEC §7 operations), from the
 * same time engine as the scheduler, so DST and day rules give exactly the slots it would have
 * made. One transaction, under the schedule's row lock; `dryRun` decides the same and writes nothing.
 *
 * Priority and default concurrency come from the stored Policy (`backfill: { priority, concurrency }`).
 * Concurrency N is honoured with the runner's PENDING mechanism: in slot order, the first N runs
 * the backfill makes runnable are QUEUED and the rest PENDING; the runner promotes a schedule's
 * oldest PENDING run whenever the schedule has no active run. So at most N of this backfill's
 * runs are in flight at once (the first wave), then they follow one at a time, oldest first.
 * A re-queued run whose status has no PENDING edge in the transition table (FAILED, CANCELLED,
 * SUCCESS today) is QUEUED even past N.
 */
import { DEFAULT_POLICY, type Priority } from '../../compile/definition.js';
import type { Database } from '../../db/client.js';
import { lockSlotRuns, requeueRuns, type RunRequeue } from '../../db/run-operations-queries.js';
import { insertRuns, notifyRunsQueued, type NewRun } from '../../db/scheduler-queries.js';
import { insertAuditRows } from '../../db/schedule-queries.js';
import { readStoredPolicy } from '../../db/settings-queries.js';
import { calendarForDefinition } from '../../time/timing-cache.js';
import { businessDateFor } from '../../runner/policy/business-date.js';
import { assertTransition, canTransition } from '../../runner/policy/transitions.js';
import { idempotencyKeyFor, PRIORITY_RANK } from '../../runner/run-types.js';
import type { RunStatus } from '../../db/run-vocabulary.js';
import { slotsBetween } from '../../time/slots.js';
import type { ChangeAuthor } from '../actor.js';
import { planBackfillSlots, type Reprocess, type SlotAction } from './backfill-plan.js';
import { lockNamedSchedule, refuseArchived } from './locked-targets.js';
import { operationAuditRow } from './operation-audit.js';
import { RunOperationError } from './run-operation-error.js';

/** One backfill writes at most this many slots: a typo in --from must not create a million runs. */
export const MAX_BACKFILL_SLOTS = 10_000;
const WRITE_CHUNK = 500;

export interface BackfillOptions {
  name: string;
  fromMs: number;
  toMs: number;
  reprocess: Reprocess;
  dryRun: boolean;
  /** Runs of this backfill in flight at once; default: the Policy's backfill concurrency. */
  concurrency?: number | undefined;
  nowMs: number;
  author: ChangeAuthor;
  /** Called after each written chunk (for a progress bar). */
  onProgress?: (done: number, total: number) => void;
}

export interface BackfillEntry {
  scheduledFor: string;
  businessDate: string;
  action: 'create' | 'requeue';
  status: 'QUEUED' | 'PENDING' | 'MANUAL_REQUIRED';
  /** The existing run put back in line; null for a new run. */
  runId: number | null;
  previousStatus: RunStatus | null;
}

export interface BackfillResult {
  schedule: string;
  from: string;
  to: string;
  reprocess: Reprocess;
  dryRun: boolean;
  slotsInRange: number;
  concurrency: number;
  priority: Priority;
  created: number;
  requeued: number;
  entries: BackfillEntry[];
}

function checkRange(options: BackfillOptions): void {
  const { fromMs, toMs, nowMs } = options;
  if (fromMs >= toMs) throw new RunOperationError(`--from must be before --to (got ${new Date(fromMs).toISOString()} … ${new Date(toMs).toISOString()})`);
  if (toMs > nowMs) {
    throw new RunOperationError(`--to ${new Date(toMs).toISOString()} is in the future: backfill covers past slots only (later ones are the scheduler's); use --to ${new Date(nowMs).toISOString()} or earlier`);
  }
  if (options.concurrency !== undefined && (!Number.isInteger(options.concurrency) || options.concurrency < 1)) {
    throw new RunOperationError(`--concurrency must be a whole number of at least 1 (got ${options.concurrency})`);
  }
}

function toEntries(actions: SlotAction[], timezone: string, offsetDays: number, approval: boolean, concurrency: number): BackfillEntry[] {
  let runnable = 0;
  return actions.map((action) => {
    const businessDate = businessDateFor(action.slotMs, timezone, offsetDays);
    const scheduledFor = new Date(action.slotMs).toISOString();
    const withinLimit = runnable < concurrency;
    if (action.action === 'create') {
      if (approval) return { scheduledFor, businessDate, action: 'create', status: 'MANUAL_REQUIRED', runId: null, previousStatus: null };
      runnable += 1;
      return { scheduledFor, businessDate, action: 'create', status: withinLimit ? 'QUEUED' : 'PENDING', runId: null, previousStatus: null };
    }
    runnable += 1;
    const from = action.run.status;
    const status = withinLimit || !canTransition(from, 'PENDING') ? 'QUEUED' : 'PENDING';
    assertTransition(from, status);
    return { scheduledFor, businessDate, action: 'requeue', status, runId: action.run.id, previousStatus: from };
  });
}

export async function backfillRuns(database: Database, options: BackfillOptions): Promise<BackfillResult> {
  checkRange(options);
  const now = new Date(options.nowMs);
  const from = new Date(options.fromMs);
  const to = new Date(options.toMs);
  return database.db.transaction(async (tx) => {
    const schedule = await lockNamedSchedule(tx, options.name);
    refuseArchived(schedule, 'backfill');
    const { definition } = schedule;
    const slotsMs = slotsBetween(calendarForDefinition(definition), options.fromMs, options.toMs, MAX_BACKFILL_SLOTS + 1);
    if (slotsMs.length > MAX_BACKFILL_SLOTS) {
      throw new RunOperationError(
        `${schedule.name} has more than ${MAX_BACKFILL_SLOTS} slots in [${from.toISOString()}, ${to.toISOString()}); backfill at most ${MAX_BACKFILL_SLOTS} at a time, e.g. --to ${new Date(slotsMs[MAX_BACKFILL_SLOTS]!).toISOString()}`,
      );
    }
    const policy = (await readStoredPolicy(tx))?.policy ?? DEFAULT_POLICY;
    const priority = policy.backfill.priority;
    const concurrency = options.concurrency ?? policy.backfill.concurrency;
    const existing = await lockSlotRuns(tx, schedule.id, from, to);
    const actions = planBackfillSlots(
      slotsMs,
      existing.map((run) => ({ id: run.id, scheduledForMs: run.scheduledFor.getTime(), triggerType: run.triggerType, status: run.status })),
      options.reprocess,
    );
    const entries = toEntries(actions, definition.timezone, definition.businessDate.offsetDays, definition.approval === 'required', concurrency);
    const result: BackfillResult = {
      schedule: schedule.name,
      from: from.toISOString(),
      to: to.toISOString(),
      reprocess: options.reprocess,
      dryRun: options.dryRun,
      slotsInRange: slotsMs.length,
      concurrency,
      priority,
      created: entries.filter((e) => e.action === 'create').length,
      requeued: entries.filter((e) => e.action === 'requeue').length,
      entries,
    };
    if (options.dryRun || entries.length === 0) return result;

    const byId = new Map(existing.map((run) => [run.id, run]));
    for (let start = 0; start < entries.length; start += WRITE_CHUNK) {
      const chunk = entries.slice(start, start + WRITE_CHUNK);
      const creates: NewRun[] = chunk
        .filter((e) => e.action === 'create')
        .map((e) => ({
          scheduleId: schedule.id,
          scheduleVersion: schedule.version,
          scheduledFor: new Date(e.scheduledFor),
          triggerType: 'BACKFILL',
          idempotencyKey: idempotencyKeyFor(schedule.name, Date.parse(e.scheduledFor), 'BACKFILL'),
          status: e.status,
          statusReason: null,
          priority: PRIORITY_RANK[priority],
          queue: definition.queue,
          businessDate: e.businessDate,
          runAfter: now,
          maxAttempts: definition.retry.maxAttempts,
          summarizedSlots: null,
          finishedAt: null,
        }));
      const requeues: RunRequeue[] = chunk
        .filter((e) => e.action === 'requeue')
        .map((e) => {
          const run = byId.get(e.runId!)!;
          // A new series of attempts: the schedule's retry budget again, on top of those used.
          return { id: run.id, expected: run.status, status: e.status as 'QUEUED' | 'PENDING', runAfter: now, maxAttempts: run.attempts + definition.retry.maxAttempts, priority: PRIORITY_RANK[priority] };
        });
      const inserted = await insertRuns(tx, creates, now);
      const moved = await requeueRuns(tx, requeues);
      // Both sets are covered by the schedule and slot-run locks held since they were read.
      if (inserted.length !== creates.length || moved.length !== requeues.length) throw new Error(`backfill of ${schedule.name}: runs changed under the lock`);
      options.onProgress?.(Math.min(start + WRITE_CHUNK, entries.length), entries.length);
    }
    await insertAuditRows(tx, [
      operationAuditRow(options.author, now, 'BACKFILL_CREATED', schedule, {
        after: { from: result.from, to: result.to, reprocess: result.reprocess, concurrency, priority, created: result.created, requeued: result.requeued },
      }),
    ]);
    if (entries.some((e) => e.status === 'QUEUED')) await notifyRunsQueued(tx);
    return result;
  });
}

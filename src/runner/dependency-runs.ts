/**
 * `spec.after` (docs/workflows.md, Dependencies): each upstream SUCCESS creates exactly one
 * DEPENDENCY run of every active dependent, in the transaction that writes the SUCCESS. Only the
 * runner holding the upstream's lease can write that SUCCESS (completeAttempts is guarded by it), so
 * one transaction in the whole fleet creates the downstream runs, and the unique
 * (schedule, scheduled_for, trigger_type) key stands behind it: the downstream run takes the
 * upstream's slot and business date, so a second SUCCESS of the same upstream run (backfill
 * --reprocess all) or a replayed batch inserts nothing. No polling, no outbox table to drain.
 */
import type { Definition } from '../compile/definition.js';
import type { Executor } from '../db/client.js';
import { findDependentsOfRuns, recordUpstreamRuns, type DependentOfRun } from '../db/dependency-queries.js';
import { findSchedulesWithActiveRuns, insertRuns, type NewRun } from '../db/scheduler-queries.js';
import { applyOverlap } from './policy/overlap.js';
import { idempotencyKeyFor, PRIORITY_RANK, type PlannedSlot } from './run-types.js';

/**
 * The downstream run of one dependent, decided like a slot on time: paused → SKIPPED/PAUSED (the
 * kill switch holds dependents too); approval → MANUAL_REQUIRED; then the dependent's overlap
 * policy against its active runs. It starts now (no jitter: the upstream's slot had its own).
 */
export function planDependencyRun(dependent: DependentOfRun, nowMs: number, hasActiveRun: boolean): NewRun {
  const { definition } = dependent;
  const paused = dependent.pausedAt !== null && (dependent.pausedUntil === null || dependent.pausedUntil.getTime() > nowMs);
  const decided: PlannedSlot = paused
    ? { scheduledForMs: dependent.upstreamScheduledFor.getTime(), status: 'SKIPPED', reason: 'PAUSED', runAfterMs: nowMs, businessDate: '', summarizedSlots: null }
    : { scheduledForMs: dependent.upstreamScheduledFor.getTime(), status: definition.approval === 'required' ? 'MANUAL_REQUIRED' : 'QUEUED', reason: null, runAfterMs: nowMs, businessDate: '', summarizedSlots: null };
  const [slot] = applyOverlap([decided], definition.overlap, hasActiveRun) as [PlannedSlot];
  const final = slot.status === 'SKIPPED';
  return {
    scheduleId: dependent.scheduleId,
    scheduleVersion: dependent.scheduleVersion,
    scheduledFor: dependent.upstreamScheduledFor,
    triggerType: 'DEPENDENCY',
    idempotencyKey: idempotencyKeyFor(dependent.scheduleName, dependent.upstreamScheduledFor.getTime(), 'DEPENDENCY'),
    status: slot.status,
    statusReason: slot.reason,
    priority: PRIORITY_RANK[definition.priority],
    queue: definition.queue,
    // The upstream's business date, not one computed from this schedule's offset: the downstream
    // processes what the upstream just produced.
    businessDate: dependent.upstreamBusinessDate,
    runAfter: new Date(nowMs),
    maxAttempts: definition.retry.maxAttempts,
    summarizedSlots: null,
    finishedAt: final ? new Date(nowMs) : null,
  };
}

/** A disabled dependent runs after nothing, like a disabled schedule has no slots. */
const runsAfterUpstream = (definition: Definition): boolean => definition.enabled;

/**
 * Creates the DEPENDENCY runs for upstream runs that have just become SUCCESS, in the caller's
 * transaction; returns how many became QUEUED (the caller notifies the workers).
 */
export async function createDependencyRuns(tx: Executor, succeededRunIds: number[], now: Date): Promise<{ created: number; queued: number }> {
  if (succeededRunIds.length === 0) return { created: 0, queued: 0 };
  const dependents = (await findDependentsOfRuns(tx, succeededRunIds)).filter((d) => runsAfterUpstream(d.definition));
  if (dependents.length === 0) return { created: 0, queued: 0 };
  const active = await findSchedulesWithActiveRuns(tx, [...new Set(dependents.filter((d) => d.definition.overlap !== 'ALLOW').map((d) => d.scheduleId))]);
  const runs: NewRun[] = [];
  for (const dependent of dependents) {
    const run = planDependencyRun(dependent, now.getTime(), active.has(dependent.scheduleId));
    runs.push(run);
    // Two upstream successes in one batch for one dependent: the second waits or skips behind the first.
    if (run.status === 'QUEUED') active.add(dependent.scheduleId);
  }
  const inserted = await insertRuns(tx, runs, now);
  const upstreamByKey = new Map(runs.map((run, index) => [run.idempotencyKey, dependents[index]!.upstreamRunId]));
  await recordUpstreamRuns(tx, inserted.map((row) => ({ runId: row.id, upstreamRunId: upstreamByKey.get(row.idempotencyKey)! })));
  return { created: inserted.length, queued: inserted.filter((row) => row.status === 'QUEUED').length };
}

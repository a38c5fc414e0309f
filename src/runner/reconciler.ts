/**
 * The reconciler repairs state (SPEC §7): expired leases are resolved per `onStall`, PENDING
 * runs are promoted when nothing of their schedule is active, silent runners are marked stopped,
 * and pauses past their `until` end. Missed slots need nothing special here: a schedule whose
 * next_run_at lies in the past is simply due, and the scheduler applies its misfire policy.
 */
import { preferIndexScans, type Database } from '../db/client.js';
import { loadStallPolicies, markSilentRunnersStopped, requeueUnstartedRuns, resolveStalledRuns, takeExpiredLeases, type StallResolution } from '../db/reconcile-queries.js';
import { notifyRunsQueued } from '../db/scheduler-queries.js';
import { endExpiredPauses } from '../db/pause-queries.js';
import { drainFinalEvents, pruneFinalEvents } from '../db/final-event-queries.js';
import { promotePendingRuns } from '../db/worker-queries.js';
import type { RetryDefinition, OnStall } from '../compile/definition.js';
import { DEFAULT_KILL_GRACE_MS, STOP_MARGIN_MS, stallDecision } from './policy/lease.js';
import type { ExpiredAttempt, RunObserver } from './run-observer.js';

export interface ReconcileResult {
  stalled: number;
  /** Runs claimed ahead by a runner that died before starting them, handed back. */
  requeued: number;
  promoted: number;
  silentRunners: number;
  pausesEnded: number;
  /** Outbox rows of final statuses written outside the runners: counted here, or pruned when too old. */
  finalEventsDrained: number;
  finalEventsPruned: number;
}

/** Outbox rows taken per statement, and statements per reconcile at most (a pause may skip thousands). */
export const FINAL_EVENTS_BATCH = 1_000;
const FINAL_EVENTS_BATCHES = 10;
/** Outbox rows older than this are dropped uncounted: no runner serving metrics took them in time. */
export const FINAL_EVENTS_RETENTION_MS = 7 * 24 * 3_600_000;

export interface ReconcileOptions {
  nowMs: number;
  runnerSilenceMs: number;
  batchSize?: number;
  /**
   * The kill grace assumed for a lease owner that recorded none (runners.kill_grace_ms is null:
   * an older version). An expired lease is resolved only once its owner's kill grace and
   * STOP_MARGIN_MS have passed too (policy/lease.ts, stallResolvableAtMs). Default 5 s, the
   * runner's default.
   */
  defaultKillGraceMs?: number;
  /** false: leave expired leases alone this time (the runner was itself cut off; see Runner.tick). */
  resolveStalls?: boolean;
  /** Told of the expired leases resolved, once the transaction has committed. */
  observer?: Pick<RunObserver, 'leasesExpired' | 'finalEventsDrained'>;
  /** Take the outbox of final statuses into `observer.finalEventsDrained` (a runner serving metrics). */
  drainFinalEvents?: boolean;
}

export async function runReconcileTick(database: Database, options: ReconcileOptions): Promise<ReconcileResult> {
  const now = new Date(options.nowMs);
  const { stalled, promoted, requeued, expiredAttempts } = await database.db.transaction(async (tx) => {
    // Its statements reach runs through active_runs and primary keys; stale statistics must not
    // turn one into a scan of the whole run history on every reconcile.
    await preferIndexScans(tx);
    const grace = { defaultKillGraceMs: options.defaultKillGraceMs ?? DEFAULT_KILL_GRACE_MS, stopMarginMs: STOP_MARGIN_MS };
    const leases = options.resolveStalls === false ? [] : await takeExpiredLeases(tx, now, options.batchSize ?? 500, grace);
    // A run that never left its dead runner's local queue did not stall: it goes back in line.
    const requeued = await requeueUnstartedRuns(tx, leases.filter((l) => !l.started).map((l) => ({ runId: l.runId, attempt: l.attempt })), now);
    const expired = leases.filter((l) => l.started);
    const policies = await loadStallPolicies(tx, expired.map((e) => e.runId));
    const resolutions: StallResolution[] = expired.map((lease) => {
      const policy = policies.get(lease.runId);
      const decision = stallDecision({ attempts: lease.attempt, maxAttempts: lease.maxAttempts }, (policy?.onStall ?? 'retry') as OnStall, (policy?.retry ?? { maxAttempts: 1, backoff: 'fixed', initialDelayMs: 0, maxDelayMs: 0 }) as RetryDefinition, options.nowMs);
      return { runId: lease.runId, attempt: lease.attempt, runStatus: decision.status, runAfter: 'runAfterMs' in decision ? new Date(decision.runAfterMs) : null };
    });
    const stalledCount = await resolveStalledRuns(tx, resolutions, now);
    const promotedCount = await promotePendingRuns(tx, 'all');
    if (requeued > 0 || promotedCount > 0 || resolutions.some((r) => r.runStatus === 'RETRY_PENDING')) await notifyRunsQueued(tx);
    // Every lease taken is locked by this transaction, so each resolution and requeue applied.
    const statusOf = new Map(resolutions.map((r) => [r.runId, r.runStatus]));
    const expiredAttempts: ExpiredAttempt[] = leases.map((l) => ({
      runId: l.runId,
      schedule: l.scheduleName,
      scheduledFor: l.scheduledFor.toISOString(),
      attempt: l.attempt,
      started: l.started,
      runStatus: statusOf.get(l.runId) ?? 'QUEUED',
      leaseOwner: l.leaseOwner,
    }));
    return { stalled: stalledCount, promoted: promotedCount, requeued, expiredAttempts };
  });
  if (expiredAttempts.length > 0) options.observer?.leasesExpired?.(expiredAttempts);
  const silentRunners = await markSilentRunnersStopped(database.db, now, options.runnerSilenceMs);
  const pausesEnded = await endExpiredPauses(database.db, now);
  let finalEventsDrained = 0;
  for (let batch = 0; options.drainFinalEvents && batch < FINAL_EVENTS_BATCHES; batch += 1) {
    // Each delete commits on its own before its rows are counted: a crash in between loses them
    // from the counters (as it loses the rest of this process's counts), never counts them twice.
    const events = await drainFinalEvents(database.db, FINAL_EVENTS_BATCH);
    if (events.length > 0) options.observer?.finalEventsDrained?.(events);
    finalEventsDrained += events.length;
    if (events.length < FINAL_EVENTS_BATCH) break;
  }
  const finalEventsPruned = await pruneFinalEvents(database.db, new Date(options.nowMs - FINAL_EVENTS_RETENTION_MS));
  return { stalled, promoted, requeued, silentRunners, pausesEnded, finalEventsDrained, finalEventsPruned };
}

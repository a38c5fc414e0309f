/**
 * What a runner tells the outside about the runs whose state it changes: the run log lines
 * (run-log.ts) and the metrics (src/http/metrics) are two observers of the same events. Each
 * event is reported by the process that wrote the change, once, after its transaction committed;
 * that is what lets metrics count a final status once across replicas (sum them).
 */
import type { QueueJobDefinition } from '../compile/definition.js';
import type { FinalEvent } from '../db/final-event-queries.js';
import type { ClaimedRun } from '../db/worker-queries.js';
import type { RunStatus, SkipReason, TriggerType } from '../db/run-vocabulary.js';
import type { ExecutionOutcome } from './run-types.js';

/** The fields that name a run on every line and in every event about it. */
export interface RunIdentity {
  runId: number;
  schedule: string;
  /** The slot, UTC ISO. */
  scheduledFor: string;
  /** Attempts made so far (0 before the first one starts). */
  attempt: number;
}

/** A run the scheduler inserted (a slot turned into a run, perhaps already final: SKIPPED, MISSED). */
export interface CreatedRun extends RunIdentity {
  status: RunStatus;
  reason: SkipReason | null;
  trigger: TriggerType;
  /** How many slots it stands for (a summary row of a long outage stands for many). */
  slots: number;
}

/** A running attempt the reconciler found with its lease expired. */
export interface ExpiredAttempt extends RunIdentity {
  /** Whether its job had started (STALLED, per onStall) or it waited in its dead runner's local queue (handed back). */
  started: boolean;
  /** The run's status after it: QUEUED for one that never started, else per onStall. */
  runStatus: RunStatus;
  leaseOwner: string | null;
}

export interface RunObserver {
  runsCreated?(runs: readonly CreatedRun[]): void;
  /** Runs this runner claimed (RUNNING with its lease), started now or later from its local queue. */
  runsClaimed?(runs: readonly ClaimedRun[]): void;
  attemptStarted?(run: ClaimedRun, startedMs: number): void;
  /**
   * An attempt's outcome, after the write. `runStatus` is the run's status written with it, or null
   * when the write was refused (the lease had moved on: cancelled or taken over meanwhile).
   */
  attemptFinished?(run: ClaimedRun, outcome: ExecutionOutcome, runStatus: RunStatus | null, durationMs: number): void;
  /**
   * A queue job handed to its queue (docs/queue-handoff.md): the run stays RUNNING under the
   * queue's lease until the worker reports (cronform.run_finished) or the reconciler finds it stalled.
   */
  runHandedOff?(run: ClaimedRun, job: QueueJobDefinition, externalJobId: string | null): void;
  /**
   * A run this runner held was cancelled by `cronform cancel`; its job is being stopped. The
   * CANCELLED status is counted through the outbox (`finalEventsDrained`), not here: the holder
   * may be dead or miss the NOTIFY.
   */
  runCancelled?(run: ClaimedRun): void;
  /** A job stopped because its lease could not be renewed in time (its outcome is left to the reconciler). */
  leaseExpiring?(run: ClaimedRun): void;
  /** Runs handed back to the queue (RUNNING → QUEUED) at shutdown. */
  runsReleased?(runs: readonly ClaimedRun[], reason: 'unstarted' | 'drain timeout'): void;
  leasesExpired?(attempts: readonly ExpiredAttempt[]): void;
  schedulerTicked?(durationMs: number): void;
  /**
   * Final statuses written outside the runners (cancel, pause), taken out of the outbox by this
   * runner (db/final-event-queries.ts): each reaches one runner only. A runner drains the outbox
   * only when its observer has this method (it serves metrics), so no count is taken and dropped.
   */
  finalEventsDrained?(events: readonly FinalEvent[]): void;
}

export function identityOf(run: ClaimedRun): RunIdentity {
  return { runId: run.id, schedule: run.scheduleName, scheduledFor: run.scheduledFor.toISOString(), attempt: run.attempt };
}

/** One observer that calls each of `observers`; an observer that throws does not stop the others or the runner. */
export function combineObservers(observers: readonly RunObserver[], onError: (error: unknown) => void): RunObserver {
  const each =
    <K extends keyof RunObserver>(key: K) =>
    (...args: Parameters<NonNullable<RunObserver[K]>>): void => {
      for (const observer of observers) {
        const method = observer[key] as ((...a: typeof args) => void) | undefined;
        if (!method) continue;
        try {
          method.apply(observer, args);
        } catch (error) {
          onError(error);
        }
      }
    };
  return {
    runsCreated: each('runsCreated'),
    runsClaimed: each('runsClaimed'),
    attemptStarted: each('attemptStarted'),
    attemptFinished: each('attemptFinished'),
    runHandedOff: each('runHandedOff'),
    runCancelled: each('runCancelled'),
    leaseExpiring: each('leaseExpiring'),
    runsReleased: each('runsReleased'),
    leasesExpired: each('leasesExpired'),
    schedulerTicked: each('schedulerTicked'),
    finalEventsDrained: each('finalEventsDrained'),
  };
}

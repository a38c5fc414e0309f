/**
 * The one table of run status transitions (SPEC §7). Every database update of a run's status is
 * guarded by the expected current status and asserted here first; an edge that is missing is a bug
 * in the caller, never a user error, so `assertTransition` throws.
 *
 * Rows are created (not transitioned) in one of INITIAL_STATUSES: the scheduler, `trigger` and
 * `backfill` insert QUEUED, PENDING, MANUAL_REQUIRED, SKIPPED or MISSED (summary rows) directly.
 */
import type { RunStatus } from '../../db/run-vocabulary.js';

export interface TransitionEdge {
  from: RunStatus;
  to: RunStatus;
  /** The operation or event that takes this edge. */
  by: string;
}

export const INITIAL_STATUSES: readonly RunStatus[] = ['PENDING', 'QUEUED', 'MANUAL_REQUIRED', 'SKIPPED', 'MISSED'];

export const TRANSITIONS: readonly TransitionEdge[] = [
  { from: 'PENDING', to: 'QUEUED', by: 'promotion (reconciler/worker): the active run of a QUEUE_NEW schedule ended; oldest PENDING first' },
  { from: 'PENDING', to: 'SKIPPED', by: 'pause: not-yet-started runs are skipped with reason PAUSED' },
  { from: 'PENDING', to: 'CANCELLED', by: 'cancel' },

  { from: 'QUEUED', to: 'RUNNING', by: 'worker claim (lease set, attempt created)' },
  { from: 'QUEUED', to: 'SKIPPED', by: 'pause: not-yet-started runs are skipped with reason PAUSED' },
  { from: 'QUEUED', to: 'CANCELLED', by: 'cancel' },

  { from: 'RUNNING', to: 'SUCCESS', by: 'attempt succeeded (written only by the lease owner)' },
  { from: 'RUNNING', to: 'PARTIAL_SUCCESS', by: 'attempt succeeded with failed items within allowedFailures (SPEC §8a)' },
  { from: 'RUNNING', to: 'FAILED', by: 'attempt failed or timed out with no attempt left; stall with onStall fail or no attempt left' },
  { from: 'RUNNING', to: 'RETRY_PENDING', by: 'attempt failed, timed out or stalled (onStall retry) with attempts left' },
  { from: 'RUNNING', to: 'CANCELLED', by: 'cancel (the process group is killed)' },
  { from: 'RUNNING', to: 'SKIPPED', by: 'cronform dev only: the job needs a fromEnv variable that is not set (reason MISSING_SECRET; a real runner fails it)' },
  { from: 'RUNNING', to: 'MANUAL_REQUIRED', by: 'reconcile: lease expired with onStall manual; the job asked to affect more than safety.maxAffected (reason SAFETY_THRESHOLD)' },
  {
    from: 'RUNNING',
    to: 'QUEUED',
    by: 'graceful shutdown: drain timeout reached, lease released for another runner; or claimed ahead and never started: handed back at shutdown, or by reconcile once its runner is gone',
  },

  { from: 'RETRY_PENDING', to: 'RUNNING', by: 'worker claim of a due retry' },
  { from: 'RETRY_PENDING', to: 'SKIPPED', by: 'pause: not-yet-started runs are skipped with reason PAUSED' },
  { from: 'RETRY_PENDING', to: 'CANCELLED', by: 'cancel' },

  { from: 'MANUAL_REQUIRED', to: 'QUEUED', by: 'approve' },
  { from: 'MANUAL_REQUIRED', to: 'PENDING', by: 'approve while another run of a QUEUE_NEW schedule is active' },
  { from: 'MANUAL_REQUIRED', to: 'CANCELLED', by: 'cancel (reject)' },

  { from: 'FAILED', to: 'QUEUED', by: 'retry <runId> (new attempt, same run); backfill --reprocess failed|all' },
  { from: 'FAILED', to: 'RETRY_PENDING', by: 'retry <runId> with the backoff delay' },
  { from: 'SKIPPED', to: 'QUEUED', by: 'resume --missed last|all; backfill --reprocess all' },
  { from: 'SKIPPED', to: 'PENDING', by: 'resume --missed all on a QUEUE_NEW schedule with an active run' },
  { from: 'MISSED', to: 'QUEUED', by: 'resume --missed last|all; backfill --reprocess all' },
  { from: 'MISSED', to: 'PENDING', by: 'resume --missed all on a QUEUE_NEW schedule with an active run' },
  { from: 'CANCELLED', to: 'QUEUED', by: 'retry <runId>; backfill --reprocess all' },
  { from: 'PARTIAL_SUCCESS', to: 'QUEUED', by: 'retry <runId> (re-runs only its failed items); backfill --reprocess all' },
  { from: 'PARTIAL_SUCCESS', to: 'PENDING', by: 'backfill --reprocess all beyond its --concurrency' },
  { from: 'SUCCESS', to: 'QUEUED', by: 'backfill --reprocess all' },
  { from: 'FAILED', to: 'PENDING', by: 'backfill --reprocess beyond its --concurrency (waits its turn)' },
  { from: 'CANCELLED', to: 'PENDING', by: 'backfill --reprocess all beyond its --concurrency' },
  { from: 'SUCCESS', to: 'PENDING', by: 'backfill --reprocess all beyond its --concurrency' },
];

const ALLOWED = new Set(TRANSITIONS.map((edge) => `${edge.from}>${edge.to}`));

export function canTransition(from: RunStatus, to: RunStatus): boolean {
  return ALLOWED.has(`${from}>${to}`);
}

export function allowedTransitionsFrom(from: RunStatus): RunStatus[] {
  return TRANSITIONS.filter((edge) => edge.from === from).map((edge) => edge.to);
}

export class IllegalTransitionError extends Error {
  constructor(
    readonly from: RunStatus,
    readonly to: RunStatus,
  ) {
    super(`illegal run status transition ${from} → ${to} (allowed from ${from}: ${allowedTransitionsFrom(from).join(', ') || 'none'})`);
    this.name = 'IllegalTransitionError';
  }
}

/** Throws: a caller asking for an edge that is not in the table is a programming error. */
export function assertTransition(from: RunStatus, to: RunStatus): void {
  if (!canTransition(from, to)) throw new IllegalTransitionError(from, to);
}

/**
 * The vocabulary of runs (SPEC §1, §7): statuses, triggers and reasons, stored as text. Its home is
 * `db`, the lowest layer that both need it: the tables' check constraints (`schema.ts`) are derived
 * from these arrays, so the database accepts exactly these words, and the runner (which sits on db)
 * and the operations read them from here. Plain constants and types, no I/O, so the pure run policy
 * may import it. Transitions are checked in one place (`runner/policy/transitions.ts`).
 */
export const RUN_STATUSES = ['PENDING', 'QUEUED', 'RUNNING', 'RETRY_PENDING', 'SUCCESS', 'PARTIAL_SUCCESS', 'FAILED', 'SKIPPED', 'MISSED', 'MANUAL_REQUIRED', 'CANCELLED'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** A run is active while it holds (or is about to hold) the schedule's execution slot. */
export const ACTIVE_STATUSES: readonly RunStatus[] = ['QUEUED', 'RUNNING', 'RETRY_PENDING'];
/**
 * PARTIAL_SUCCESS (SPEC §8a): the job ended well but some of the items it reported failed, within
 * the schedule's `allowedFailures`. It is final, like SUCCESS; `retry` re-runs only its failed items.
 */
export const FINAL_STATUSES: readonly RunStatus[] = ['SUCCESS', 'PARTIAL_SUCCESS', 'FAILED', 'SKIPPED', 'MISSED', 'CANCELLED'];
/** Not finished and not waiting for a human: the runs the runner still has to move on its own. */
export const UNFINISHED_STATUSES: readonly RunStatus[] = ['PENDING', 'QUEUED', 'RUNNING', 'RETRY_PENDING'];
/**
 * The runs `active_runs` holds (its triggers, migrations 0006 and 0009): the unfinished ones and
 * those waiting for a human. A MANUAL_REQUIRED run is neither active nor unfinished work, so a
 * statement reading that table names the statuses it means.
 */
export const ACTIVE_RUNS_TABLE_STATUSES: readonly RunStatus[] = [...UNFINISHED_STATUSES, 'MANUAL_REQUIRED'];

/**
 * DRY_RUN: `trigger --dry-run`, a manual run whose job gets CRONFORM_DRY_RUN=1 (SPEC §8a); a trigger
 * type of its own so that its idempotency key never collides with a real manual run of the same
 * second, and so that its success is never taken for the schedule's last success.
 * DEPENDENCY: created by an upstream's SUCCESS (`spec.after`), never by a slot of its own.
 */
export const TRIGGER_TYPES = ['SCHEDULED', 'MANUAL', 'BACKFILL', 'DRY_RUN', 'DEPENDENCY'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

/**
 * Why a run was SKIPPED. All but one are the scheduler's, decided before a run exists; MISSING_SECRET
 * is the worker's under `cronform dev` only: the job references a `fromEnv` variable that is not set
 * (a real runner fails such a run instead, see RunnerOptions.missingSecrets).
 */
/**
 * Why a run waits in MANUAL_REQUIRED when it did not start there: SAFETY_THRESHOLD is the worker's,
 * the job reported (`cronform guard --affects N`) more than the schedule's `safety.maxAffected`.
 */
export type ManualReason = 'SAFETY_THRESHOLD';

export type SkipReason = 'OVERLAP' | 'MISFIRE' | 'GRACE_EXCEEDED' | 'PAUSED' | 'CATCH_UP_CAP' | 'MISSING_SECRET' | DeadlineReason;

/**
 * A deadline slot of a dependent with a cron (`spec.after` + `cron`, docs/workflows.md): MISSED with
 * UPSTREAM_NOT_READY when no upstream SUCCESS has created its run for the slot's business date yet
 * (what the alert rules see), SKIPPED with UPSTREAM_SUCCEEDED when one has (the work is done).
 */
export type DeadlineReason = 'UPSTREAM_NOT_READY' | 'UPSTREAM_SUCCEEDED';

/** CLAIMED: the run is held by a runner (its lease set) but its job has not started yet. */
export const ATTEMPT_STATUSES = ['CLAIMED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'STALLED', 'CANCELLED'] as const;
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];

/** An item a job reported (`cronform progress --item KEY --done|--failed`), stored in `run_items`. */
export const ITEM_STATUSES = ['DONE', 'FAILED'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];
/**
 * A workflow step's state in one attempt (`run_steps`, docs/workflows.md). RUNNING while it runs
 * (left so by a runner that died in it); RESET marks the steps `retry --from-step` runs again.
 * A retried run resumes at the first step whose latest row is not SUCCEEDED.
 */
export const STEP_STATUSES = ['RUNNING', 'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'CANCELLED', 'RESET'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/**
 * The vocabulary of runs (SPEC §1, §7): statuses, triggers and reasons, stored as text. Its home is
 * `db`, the lowest layer that both need it: the tables' check constraints (`schema.ts`) are derived
 * from these arrays, so the database accepts exactly these words, and the runner (which sits on db)
 * and the operations read them from here. Plain constants and types, no I/O, so the pure run policy
 * may import it. Transitions are checked in one place (`runner/policy/transitions.ts`).
 */
export const RUN_STATUSES = ['PENDING', 'QUEUED', 'RUNNING', 'RETRY_PENDING', 'SUCCESS', 'FAILED', 'SKIPPED', 'MISSED', 'MANUAL_REQUIRED', 'CANCELLED'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** A run is active while it holds (or is about to hold) the schedule's execution slot. */
export const ACTIVE_STATUSES: readonly RunStatus[] = ['QUEUED', 'RUNNING', 'RETRY_PENDING'];
export const FINAL_STATUSES: readonly RunStatus[] = ['SUCCESS', 'FAILED', 'SKIPPED', 'MISSED', 'CANCELLED'];
/** Not finished and not waiting for a human: the runs the runner still has to move on its own. */
export const UNFINISHED_STATUSES: readonly RunStatus[] = ['PENDING', 'QUEUED', 'RUNNING', 'RETRY_PENDING'];
/**
 * The runs `active_runs` holds (its triggers, migrations 0006 and 0009): the unfinished ones and
 * those waiting for a human. A MANUAL_REQUIRED run is neither active nor unfinished work, so a
 * statement reading that table names the statuses it means.
 */
export const ACTIVE_RUNS_TABLE_STATUSES: readonly RunStatus[] = [...UNFINISHED_STATUSES, 'MANUAL_REQUIRED'];

/** DEPENDENCY: created by an upstream's SUCCESS (`spec.after`), never by a slot of its own. */
export const TRIGGER_TYPES = ['SCHEDULED', 'MANUAL', 'BACKFILL', 'DEPENDENCY'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

/**
 * Why a run was SKIPPED. All but one are the scheduler's, decided before a run exists; MISSING_SECRET
 * is the worker's under `cronform dev` only: the job references a `fromEnv` variable that is not set
 * (a real runner fails such a run instead, see RunnerOptions.missingSecrets).
 */
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

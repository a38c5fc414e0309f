/**
 * The vocabulary of runs (SPEC §1, §7). Statuses, triggers and reasons are stored as text and
 * checked by database constraints; transitions are checked in one place (`policy/transitions.ts`).
 */
export const RUN_STATUSES = ['PENDING', 'QUEUED', 'RUNNING', 'RETRY_PENDING', 'SUCCESS', 'FAILED', 'SKIPPED', 'MISSED', 'MANUAL_REQUIRED', 'CANCELLED'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** A run is active while it holds (or is about to hold) the schedule's execution slot. */
export const ACTIVE_STATUSES: readonly RunStatus[] = ['QUEUED', 'RUNNING', 'RETRY_PENDING'];
export const FINAL_STATUSES: readonly RunStatus[] = ['SUCCESS', 'FAILED', 'SKIPPED', 'MISSED', 'CANCELLED'];

export type TriggerType = 'SCHEDULED' | 'MANUAL' | 'BACKFILL';

export type SkipReason = 'OVERLAP' | 'MISFIRE' | 'GRACE_EXCEEDED' | 'PAUSED' | 'CATCH_UP_CAP';

/** CLAIMED: the run is held by a runner (its lease set) but its job has not started yet. */
export type AttemptStatus = 'CLAIMED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'STALLED' | 'CANCELLED';

/** Claim order: lower first. */
export const PRIORITY_RANK = { CRITICAL: 0, HIGH: 1, NORMAL: 2, LOW: 3 } as const;

/** What the scheduler decided for one slot, before it is written. */
export interface PlannedSlot {
  scheduledForMs: number;
  status: Extract<RunStatus, 'QUEUED' | 'PENDING' | 'SKIPPED' | 'MISSED' | 'MANUAL_REQUIRED'>;
  reason: SkipReason | null;
  /** Earliest start: slot + deterministic jitter. */
  runAfterMs: number;
  /** YYYY-MM-DD in the schedule's zone, offset by businessDate.offsetDays; fixed at creation. */
  businessDate: string;
  /** For a summary row standing for many slots of a very long outage. */
  summarizedSlots: number | null;
}

/** What a job receives (SPEC §7 run context). */
export interface RunContext {
  runId: number;
  schedule: string;
  scheduledFor: string;
  businessDate: string | null;
  idempotencyKey: string;
  attempt: number;
  trigger: TriggerType;
  payload: Record<string, unknown>;
}

export interface ExecutionOutcome {
  status: Extract<AttemptStatus, 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'CANCELLED'>;
  exitCode: number | null;
  httpStatus: number | null;
  error: string | null;
  stdoutTail: string | null;
  stderrTail: string | null;
  durationMs: number;
}

export function idempotencyKeyFor(schedule: string, scheduledForMs: number, trigger: TriggerType): string {
  return `${schedule}:${new Date(scheduledForMs).toISOString()}:${trigger}`;
}

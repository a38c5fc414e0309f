/**
 * What the runner passes between its stages: planned slots, the run context a job receives and
 * an execution's outcome. The run vocabulary itself (statuses, triggers, reasons) is
 * `db/run-vocabulary.ts`, shared with the statements that store it.
 */
import type { AttemptStatus, RunStatus, SkipReason, TriggerType } from '../db/run-vocabulary.js';

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
  /** The most the job may affect (`safety.maxAffected`, or what `approve` allowed); absent without a limit. */
  maxAffected?: number | null;
  /** `spec.inputs` as frozen for this run (run_contexts); absent when the definition has none. */
  inputs?: Record<string, string>;
  /** The upstream run whose SUCCESS created this DEPENDENCY run (for a join: the last one). */
  upstreamRunId?: number;
  /** Every upstream run of this DEPENDENCY run, schedule name → run id. */
  upstreamRunIds?: Record<string, number>;
  /** Set while a workflow's step runs (docs/workflows.md): its name, files and the earlier results. */
  step?: StepContext;
}

export interface StepContext {
  name: string;
  /** CRONFORM_STEP_OUTPUT: where the step may write its JSON result (absent until it does). */
  outputFile: string;
  /** CRONFORM_STEPS_DIR: `<name>.json` of every earlier step that wrote a result. */
  stepsDir: string;
  /** The earlier steps' results by step name, for `{{steps.NAME.output.KEY}}`. */
  results: Readonly<Record<string, Record<string, unknown>>>;
}

export interface ExecutionOutcome {
  status: Extract<AttemptStatus, 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'CANCELLED'>;
  exitCode: number | null;
  httpStatus: number | null;
  error: string | null;
  stdoutTail: string | null;
  stderrTail: string | null;
  durationMs: number;
  /**
   * Set when the job was not run on purpose and the run ends SKIPPED with this reason instead of
   * per the attempt's status (`cronform dev` and a missing `fromEnv` variable); `error` says why.
   */
  skipReason?: Extract<SkipReason, 'MISSING_SECRET'>;
}

export function idempotencyKeyFor(schedule: string, scheduledForMs: number, trigger: TriggerType): string {
  return `${schedule}:${new Date(scheduledForMs).toISOString()}:${trigger}`;
}

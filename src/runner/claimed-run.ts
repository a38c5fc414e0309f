/**
 * One claimed run, from the worker's side: what its job receives (the run context, SPEC §7), how
 * it is executed, and the outcome record written for its attempt. The worker (worker.ts) holds
 * the runs and their leases; this module only turns a run and its definition into those values.
 */
import type { Definition, JobDefinition } from '../compile/definition.js';
import { executeSteps, type ExecuteOne, type StepStore } from './steps/execute-steps.js';
import type { AttemptCompletion, ClaimedRun } from '../db/worker-queries.js';
import { executeJob, type ExecuteOptions } from './executors/execute-job.js';
import type { ProcessGroupRegistry } from './executors/execute-options.js';
import { failedOutcome } from './executors/job-outcome.js';
import { describeMissingSecrets, listMissingSecrets } from './executors/missing-secrets.js';
import { createJobRedactor } from './executors/secret-redaction.js';
import { runStatusAfterAttempt } from './policy/backoff.js';
import { AttemptProgress } from './policy/attempt-progress.js';
import { effectiveMaxAffected, judgeProgress, summarizeRunProgress, type PriorProgress } from './policy/run-progress.js';
import type { Clock } from '../shared/clock.js';
import type { ExecutionOutcome, RunContext } from './run-types.js';

/** What executing a job needs beyond the run itself (the worker's options extend it). */
export interface ExecutionSettings {
  clock: Clock;
  killGraceMs: number;
  baseDir: string;
  env: NodeJS.ProcessEnv;
  processGroups?: ProcessGroupRegistry;
  /**
   * How a job is performed; the real executors by default. Embedding cronform as a library (and
   * the engine benchmark, which measures claim/complete overhead with no-op jobs) may pass another.
   */
  execute?: typeof executeJob;
  /**
   * A run whose job needs a `{ fromEnv }` variable that is not set: 'fail' (the default, every real
   * runner) lets the executor fail the attempt, retries and all, because on a runner a missing
   * secret is a misconfiguration that must alert; 'skip' (`cronform dev`, where a fresh clone has
   * no secrets) does not start the job and ends the run SKIPPED, reason MISSING_SECRET, with the
   * attempt's error naming the variables to set.
   */
  missingSecrets?: 'fail' | 'skip';
  /** Where a workflow's steps are recorded (the worker's, on its database and lease); needed by `spec.job.steps`. */
  steps?: StepStore;
}

/**
 * What an attempt's job reports (SPEC §8a) and what earlier attempts of its run left: the failed
 * items a retry re-runs, and the `maxAffected` an operator approved.
 */
export interface RunProgressState {
  report: AttemptProgress;
  prior: PriorProgress | null;
  /** The limit the job is given (CRONFORM_SAFETY_MAX_AFFECTED); null without `safety`. */
  maxAffected: number | null;
}

export function progressStateOf(definition: Definition | undefined, prior: PriorProgress | null): RunProgressState {
  return { report: new AttemptProgress(), prior, maxAffected: effectiveMaxAffected(definition?.safety?.maxAffected, prior) };
}

/**
 * What a run was given beyond its row (run-context-freezer.ts): its frozen inputs and upstream
 * run, or why its inputs could not be evaluated (the attempt then fails without running).
 */
export interface FrozenContext {
  inputs?: Record<string, string>;
  upstreamRunId?: number;
  upstreamRunIds?: Record<string, number>;
  error?: string;
}

export function runContextOf(run: ClaimedRun, definition: Definition, maxAffected: number | null = null, frozen?: FrozenContext): RunContext {
  // Built field by field rather than by spreading a conditional object per optional field: it is
  // built for every run, and each spread allocated a throwaway object (a busy runner's garbage).
  const context: Partial<RunContext> = {};
  if (maxAffected !== null) context.maxAffected = maxAffected;
  if (frozen?.inputs) context.inputs = frozen.inputs;
  if (frozen?.upstreamRunId !== undefined) context.upstreamRunId = frozen.upstreamRunId;
  if (frozen?.upstreamRunIds !== undefined) context.upstreamRunIds = frozen.upstreamRunIds;
  context.runId = run.id;
  context.schedule = run.scheduleName;
  context.scheduledFor = run.scheduledFor.toISOString();
  context.businessDate = run.businessDate;
  context.idempotencyKey = run.idempotencyKey;
  context.attempt = run.attempt;
  context.trigger = run.triggerType;
  context.payload = definition.payload;
  return context as RunContext;
}

/**
 * Executes the run's job; a run whose definition version is missing fails without running anything.
 * The abort signal is handed over on first read: Node builds an AbortSignal (an EventTarget) only
 * then, at ~7 µs each, and an in-process `execute` of an embedding application may never read it.
 */
export async function executeClaimedRun(
  run: ClaimedRun,
  definition: Definition | undefined,
  controller: AbortController,
  settings: ExecutionSettings,
  progress?: RunProgressState,
  frozen?: FrozenContext,
): Promise<ExecutionOutcome> {
  if (!definition) {
    return { status: 'FAILED', exitCode: null, httpStatus: null, error: `definition v${run.scheduleVersion} of ${run.scheduleName} not found`, stdoutTail: null, stderrTail: null, durationMs: 0 };
  }
  if (frozen?.error !== undefined) return failedOutcome(frozen.error, 0);
  if (settings.missingSecrets === 'skip') {
    const missing = listMissingSecrets(definition.job, settings.env);
    if (missing.length > 0) return { ...failedOutcome(describeMissingSecrets(missing), 0), skipReason: 'MISSING_SECRET' };
  }
  const options: ExecuteOptions = {
    timeoutMs: definition.timeoutMs,
    killGraceMs: settings.killGraceMs,
    get signal() {
      return controller.signal;
    },
    env: settings.env,
    baseDir: settings.baseDir,
    clock: settings.clock,
  };
  // Assigned, not spread in, as in runContextOf: each spread allocated a throwaway object.
  if (settings.processGroups) options.processGroups = settings.processGroups;
  if (progress) options.progress = { report: progress.report, retryItems: retryItemsOf(progress.prior) };
  const context = runContextOf(run, definition, progress?.maxAffected ?? null, frozen);
  const { execute } = settings;
  const executeOne: ExecuteOne = execute ? (job, stepContext, stepOptions) => executeRedacted(execute, job, stepContext, stepOptions) : executeJob;
  if (definition.job.type === 'steps') {
    if (!settings.steps) throw new Error('a workflow needs the ExecutionSettings.steps store to record its steps');
    return executeSteps(definition.job, context, options, { store: settings.steps, executeOne, redactor: createJobRedactor(definition.job, settings.env) });
  }
  return executeOne(definition.job, context, options);
}

/**
 * Another `execute` gets the same promise as the real executors: the values of the job's
 * `fromEnv` references never reach the stored tails or error, even in a message it throws.
 */
async function executeRedacted(execute: typeof executeJob, job: JobDefinition, context: RunContext, options: ExecuteOptions): Promise<ExecutionOutcome> {
  const redactor = createJobRedactor(job, options.env);
  if (redactor.isEmpty) return execute(job, context, options);
  const redact = (text: string | null): string | null => (text === null ? null : redactor.redactText(text));
  let outcome: ExecutionOutcome;
  try {
    outcome = await execute(job, context, options);
  } catch (error) {
    throw new Error(redactor.redactText(error instanceof Error ? error.message : String(error)));
  }
  return { ...outcome, error: redact(outcome.error), stdoutTail: redact(outcome.stdoutTail), stderrTail: redact(outcome.stderrTail) };
}

/** The failed item keys of earlier attempts: the retry re-runs only these (null: no items were reported). */
function retryItemsOf(prior: PriorProgress | null): string[] | null {
  if (prior === null || prior.items.size === 0 || !prior.completeReport) return null;
  return [...prior.items].filter(([, status]) => status === 'FAILED').map(([key]) => key);
}

/**
 * The outcome record of an attempt whose job reported progress (SPEC §8a): the reported items and
 * counts judge it (PARTIAL_SUCCESS, FAILED beyond allowedFailures, MANUAL_REQUIRED beyond
 * maxAffected; run-progress.ts), and the counts and items go with the outcome.
 */
export function attemptCompletionWithProgress(
  run: ClaimedRun,
  outcome: ExecutionOutcome,
  definition: Definition | undefined,
  times: { startedMs: number | undefined; finishedMs: number },
  progress: RunProgressState,
): AttemptCompletion {
  if (progress.report.version === 0 && progress.prior === null) return attemptCompletionOf(run, outcome, definition?.retry, times);
  const summary = summarizeRunProgress(progress.report, progress.prior);
  const verdict = judgeProgress(outcome, summary, { allowedFailures: definition?.allowedFailures, maxAffected: progress.maxAffected, dryRun: run.triggerType === 'DRY_RUN' });
  const write = {
    runId: run.id,
    attempt: run.attempt,
    total: summary.total,
    done: summary.done,
    failed: summary.failed,
    wouldAffect: summary.wouldAffect,
    itemsTruncated: summary.itemsTruncated,
    completeReport: outcome.status === 'SUCCEEDED',
    items: [...summary.items].map(([key, item]) => ({ key, status: item.status, error: item.error })),
  };
  const joined = (error: string): string => (outcome.error === null ? error : `${error}; ${outcome.error}`);
  switch (verdict.kind) {
    case 'as-attempt':
      return { ...attemptCompletionOf(run, outcome, definition?.retry, times), progress: write };
    case 'partial-success':
      return { ...attemptCompletionOf(run, outcome, definition?.retry, times), runStatus: 'PARTIAL_SUCCESS', progress: write };
    case 'items-failed':
      return { ...attemptCompletionOf(run, { ...outcome, status: 'FAILED', error: joined(verdict.error) }, definition?.retry, times), progress: write };
    case 'safety-threshold':
      // Not retried: another attempt would ask the same; a human approves (or cancels) it.
      return {
        ...attemptCompletionOf(run, { ...outcome, error: joined(`${verdict.error}; approve to let it proceed: cronform approve ${run.id}`) }, definition?.retry, times),
        runStatus: 'MANUAL_REQUIRED',
        statusReason: 'SAFETY_THRESHOLD',
        runAfter: null,
        progress: write,
      };
  }
}

/** The outcome record of an attempt: its result, and the run's next status per its retry policy (or SKIPPED, when the job was skipped). */
export function attemptCompletionOf(
  run: ClaimedRun,
  outcome: ExecutionOutcome,
  retry: Definition['retry'] | undefined,
  times: { startedMs: number | undefined; finishedMs: number },
): AttemptCompletion {
  // A skipped job is not retried: nothing was tried, and what it lacks stays missing until someone sets it.
  const { runStatus, runAfterMs } = outcome.skipReason
    ? { runStatus: 'SKIPPED' as const, runAfterMs: null }
    : runStatusAfterAttempt(outcome.status, { attempts: run.attempt, maxAttempts: run.maxAttempts }, retry, times.finishedMs);
  return {
    runId: run.id,
    slot: run.slot,
    attempt: run.attempt,
    attemptStatus: outcome.status,
    runStatus,
    ...(outcome.skipReason ? { statusReason: outcome.skipReason } : {}),
    runAfter: runAfterMs === null ? null : new Date(runAfterMs),
    exitCode: outcome.exitCode,
    httpStatus: outcome.httpStatus,
    error: outcome.error,
    stdoutTail: outcome.stdoutTail,
    stderrTail: outcome.stderrTail,
    finishedAt: new Date(times.finishedMs),
    startedAt: times.startedMs === undefined ? null : new Date(times.startedMs),
    claimedAt: run.claimedAt,
  };
}

/**
 * Executes one attempt of a workflow (`spec.job.steps`, docs/workflows.md): the steps in order,
 * from the first one that has not succeeded in an earlier attempt (policy/step-resume.ts). Each
 * step is an ordinary job run by the ordinary executors, with the run's context plus its own
 * (CRONFORM_STEP, CRONFORM_STEP_OUTPUT, CRONFORM_STEPS_DIR, `{{steps.NAME.output.KEY}}`).
 *
 * Ordering: a step's end (and its result) is written before the next step starts, so a runner
 * killed between two steps leaves every finished step recorded and the next attempt resumes at
 * the right one; a runner killed inside a step leaves it RUNNING, which is not a success, so the
 * step runs again. Every write is guarded by the run's lease: a runner that lost it stops at once.
 *
 * Time: the schedule's `timeout` stays the budget of the whole attempt; a step runs for at most
 * its own `timeout` and the time left of that budget, and only its own process group is killed
 * when it runs out. Budgets and backoff waits are real time, like the executors' own timers.
 */
import type { JobDefinition, StepDefinition, StepsJobDefinition } from '../../compile/definition.js';
import { formatDurationMs } from '../../compile/duration.js';
import type { StepEnd, StepRow, StepStart } from '../../db/step-queries.js';
import { systemClock } from '../../shared/clock.js';
import type { ExecuteOptions } from '../executors/execute-options.js';
import { failedOutcome } from '../executors/job-outcome.js';
import { startTimer } from '../executors/long-timer.js';
import type { SecretRedactor } from '../executors/secret-redaction.js';
import { createStepFiles, type StepFiles } from '../executors/step-files.js';
import { retryDelayMs } from '../policy/backoff.js';
import { planStepResume } from '../policy/step-resume.js';
import type { ExecutionOutcome, RunContext } from '../run-types.js';

/** Where steps are recorded: `run_steps` through the runner's lease (db/step-queries.ts). */
export interface StepStore {
  load(runId: number): Promise<StepRow[]>;
  /** false: the lease is no longer ours. */
  start(start: StepStart): Promise<boolean>;
  /** false: the lease is no longer ours. */
  end(end: StepEnd): Promise<boolean>;
}

export type ExecuteOne = (job: JobDefinition, context: RunContext, options: ExecuteOptions) => Promise<ExecutionOutcome>;

const LEASE_LOST = 'stopped: the run is no longer held by this runner (lease lost, cancelled or taken over)';

export async function executeSteps(
  workflow: StepsJobDefinition,
  context: RunContext,
  options: ExecuteOptions,
  io: { store: StepStore; executeOne: ExecuteOne; redactor: SecretRedactor },
): Promise<ExecutionOutcome> {
  const clock = options.clock ?? systemClock;
  const budgetStartedMs = systemClock.nowMs();
  const resume = planStepResume(
    workflow.steps.map((step) => step.name),
    await io.store.load(context.runId),
  );
  if (resume.startIndex === workflow.steps.length) {
    // Every step succeeded before (the runner died after the last one, before the attempt's outcome was written).
    return { status: 'SUCCEEDED', exitCode: null, httpStatus: null, error: null, stdoutTail: 'every step had already succeeded', stderrTail: null, durationMs: 0 };
  }
  const results = { ...resume.results };
  const files = await createStepFiles(context.runId, context.attempt);
  let last: ExecutionOutcome | undefined;
  try {
    for (let index = resume.startIndex; index < workflow.steps.length; index++) {
      const step = workflow.steps[index]!;
      const outcome = await runStep(step, index, { context, options, io, files, results, budgetStartedMs, clock });
      last = outcome;
      if (outcome.status !== 'SUCCEEDED') return { ...outcome, error: `step ${step.name}: ${outcome.error ?? outcome.status}`, durationMs: systemClock.nowMs() - budgetStartedMs };
    }
  } finally {
    await files.remove();
  }
  return { ...last!, durationMs: systemClock.nowMs() - budgetStartedMs };
}

interface StepRun {
  context: RunContext;
  options: ExecuteOptions;
  io: { store: StepStore; executeOne: ExecuteOne; redactor: SecretRedactor };
  files: StepFiles;
  results: Record<string, Record<string, unknown>>;
  budgetStartedMs: number;
  clock: NonNullable<ExecuteOptions['clock']>;
}

/** One step, with its own retries inside the attempt; its result joins `results` when it succeeds. */
async function runStep(step: StepDefinition, index: number, run: StepRun): Promise<ExecutionOutcome> {
  const { context, options, io, files, results } = run;
  const maxTries = step.retry?.maxAttempts ?? 1;
  for (let tries = 1; ; tries++) {
    const remainingMs = options.timeoutMs - (systemClock.nowMs() - run.budgetStartedMs);
    if (remainingMs <= 0) return { ...failedOutcome(`the attempt's timeout of ${formatDurationMs(options.timeoutMs)} ran out before this step started`, 0), status: 'TIMED_OUT' };
    const stepTimeoutMs = Math.min(step.timeoutMs ?? Number.POSITIVE_INFINITY, remainingMs);
    const startedAt = new Date(run.clock.nowMs());
    if (!(await io.store.start({ runId: context.runId, attempt: context.attempt, stepIndex: index, name: step.name, tries, startedAt }))) {
      return { ...failedOutcome(LEASE_LOST, 0), status: 'CANCELLED' };
    }
    await files.prepare(step.name, results);
    const stepContext: RunContext = { ...context, step: { name: step.name, outputFile: files.outputFileOf(step.name), stepsDir: files.stepsDir, results: { ...results } } };
    let outcome = await io.executeOne(step, stepContext, { ...options, timeoutMs: stepTimeoutMs });
    if (outcome.status === 'TIMED_OUT' && stepTimeoutMs < (step.timeoutMs ?? Number.POSITIVE_INFINITY)) {
      outcome = { ...outcome, error: `${outcome.error ?? 'timed out'} (what was left of the attempt's timeout of ${formatDurationMs(options.timeoutMs)})` };
    }
    let result: Record<string, unknown> | null = null;
    if (outcome.status === 'SUCCEEDED') {
      const read = await files.readOutput(step.name);
      if (read.ok) result = read.value === null ? null : redactResult(read.value, io.redactor);
      else outcome = { ...outcome, status: 'FAILED', error: read.error };
    }
    const ended = await io.store.end({
      runId: context.runId,
      attempt: context.attempt,
      stepIndex: index,
      status: outcome.status,
      finishedAt: new Date(run.clock.nowMs()),
      exitCode: outcome.exitCode,
      httpStatus: outcome.httpStatus,
      error: outcome.error,
      stdoutTail: outcome.stdoutTail,
      stderrTail: outcome.stderrTail,
      result,
    });
    if (!ended) return { ...failedOutcome(LEASE_LOST, outcome.durationMs), status: 'CANCELLED' };
    if (outcome.status === 'SUCCEEDED') {
      if (result !== null) results[step.name] = result;
      return outcome;
    }
    if (outcome.status === 'CANCELLED' || options.signal?.aborted || tries >= maxTries) return outcome;
    const delayMs = retryDelayMs(step.retry!, tries);
    if (systemClock.nowMs() + delayMs - run.budgetStartedMs >= options.timeoutMs) return outcome;
    if (!(await wait(delayMs, options.signal))) return { ...outcome, status: 'CANCELLED', error: `cancelled while waiting to retry the step` };
  }
}

/** Resolves true after `delayMs` of real time, false as soon as `signal` aborts. */
function wait(delayMs: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      cancel();
      resolve(false);
    };
    const cancel = startTimer(delayMs, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A result is stored and shown: the workflow's `fromEnv` values never are, like its output tails. */
function redactResult(result: Record<string, unknown>, redactor: SecretRedactor): Record<string, unknown> {
  if (redactor.isEmpty) return result;
  const redact = (value: unknown): unknown => {
    if (typeof value === 'string') return redactor.redactText(value);
    if (Array.isArray(value)) return value.map(redact);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [redactor.redactText(key), redact(item)]));
    return value;
  };
  return redact(result) as Record<string, unknown>;
}

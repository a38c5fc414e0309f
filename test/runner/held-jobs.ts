/**
 * An in-process executor for runner tests (the runner's and worker's `execute` option): jobs
 * start no process and end when the test says, so every step is observed between two
 * statements, under a manual clock. Like the real executors, a job ends CANCELLED when its abort
 * signal fires (cancel, lost lease, shutdown), and the test can await that.
 */
import type { WorkerOptions } from '../../src/runner/worker.js';
import type { ExecutionOutcome } from '../../src/runner/run-types.js';

type Execute = NonNullable<WorkerOptions['execute']>;

export const SUCCEEDED: ExecutionOutcome = { status: 'SUCCEEDED', exitCode: 0, httpStatus: null, error: null, stdoutTail: null, stderrTail: null, durationMs: 0 };
const CANCELLED: ExecutionOutcome = { status: 'CANCELLED', exitCode: null, httpStatus: null, error: 'cancelled', stdoutTail: null, stderrTail: null, durationMs: 0 };

export function heldJobs() {
  /** Run ids in the order their jobs started. */
  const started: number[] = [];
  /** Jobs still executing, by run id: what ends each. */
  const running = new Map<number, (outcome: ExecutionOutcome) => void>();
  /** When (by the runner's clock) each stopped job's abort signal fired. */
  const abortedAtMs = new Map<number, number>();
  const onChange = new Set<() => void>();

  /** Resolves once `holds()` is true, checked now and after every start, end and abort. */
  const until = (holds: () => boolean): Promise<void> =>
    new Promise((resolve) => {
      const check = () => {
        if (!holds()) return;
        onChange.delete(check);
        resolve();
      };
      onChange.add(check);
      check();
    });
  const changed = () => [...onChange].forEach((check) => check());

  const execute: Execute = (_job, context, options) =>
    new Promise((resolve) => {
      const { signal } = options;
      if (signal?.aborted) return resolve(CANCELLED);
      started.push(context.runId);
      const end = (outcome: ExecutionOutcome) => {
        if (!running.delete(context.runId)) return;
        signal?.removeEventListener('abort', onAbort);
        resolve(outcome);
        changed();
      };
      const onAbort = () => {
        abortedAtMs.set(context.runId, options.clock?.nowMs() ?? Number.NaN);
        end(CANCELLED);
      };
      running.set(context.runId, end);
      signal?.addEventListener('abort', onAbort, { once: true });
      changed();
    });

  const finish = (runId: number, outcome: ExecutionOutcome = SUCCEEDED) => running.get(runId)?.(outcome);
  return {
    execute,
    started,
    running,
    abortedAtMs,
    finish,
    finishAll: (outcome?: ExecutionOutcome) => [...running.keys()].forEach((runId) => finish(runId, outcome)),
    /** Resolves once `count` jobs have started (in all). */
    whenStarted: (count: number) => until(() => started.length >= count),
    /** Resolves once the job of `runId` has been stopped by its abort signal. */
    whenAborted: (runId: number) => until(() => abortedAtMs.has(runId)),
  };
}

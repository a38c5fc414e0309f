/**
 * Retry backoff (SPEC §3.1 `retry`). `attempts` counts every attempt made so far, the failed one
 * included; a run's `maxAttempts` is fixed when the run is created, so editing the definition does
 * not change the retries of runs already in flight.
 */
import type { RetryDefinition } from '../../compile/definition.js';
import type { ExecutionOutcome } from '../run-types.js';
import type { RunStatus } from '../../db/run-vocabulary.js';

export type AttemptDecision = { status: 'RETRY_PENDING'; runAfterMs: number } | { status: 'FAILED' };

/** Delay before the attempt after `attemptThatFailed` (1-based): fixed, or doubling up to maxDelay. */
export function retryDelayMs(retry: RetryDefinition, attemptThatFailed: number): number {
  if (retry.backoff === 'fixed') return retry.initialDelayMs;
  const doublings = Math.max(0, Math.floor(attemptThatFailed) - 1);
  // 2 ** 1100 is Infinity, which the cap turns back into maxDelay: no overflow for any attempt number.
  return Math.min(retry.initialDelayMs * 2 ** doublings, retry.maxDelayMs);
}

/** After a failed (or timed-out) attempt: another attempt if any is left, else the run has failed. */
export function nextAttemptDecision(run: { attempts: number; maxAttempts: number }, retry: RetryDefinition, nowMs: number): AttemptDecision {
  if (run.attempts >= run.maxAttempts) return { status: 'FAILED' };
  return { status: 'RETRY_PENDING', runAfterMs: nowMs + retryDelayMs(retry, run.attempts) };
}

/**
 * The run's next status once an attempt has ended: SUCCESS or CANCELLED as the attempt says; after
 * a failure or a timeout another attempt (RETRY_PENDING at `runAfterMs`) while any is left, else
 * FAILED. Without a definition (its version is missing) there is nothing to retry with: FAILED.
 */
export function runStatusAfterAttempt(
  attemptStatus: ExecutionOutcome['status'],
  run: { attempts: number; maxAttempts: number },
  retry: RetryDefinition | undefined,
  finishedMs: number,
): { runStatus: Extract<RunStatus, 'SUCCESS' | 'FAILED' | 'RETRY_PENDING' | 'CANCELLED'>; runAfterMs: number | null } {
  if (attemptStatus === 'SUCCEEDED') return { runStatus: 'SUCCESS', runAfterMs: null };
  if (attemptStatus === 'CANCELLED') return { runStatus: 'CANCELLED', runAfterMs: null };
  const decision = retry ? nextAttemptDecision(run, retry, finishedMs) : ({ status: 'FAILED' } as const);
  return decision.status === 'RETRY_PENDING' ? { runStatus: 'RETRY_PENDING', runAfterMs: decision.runAfterMs } : { runStatus: 'FAILED', runAfterMs: null };
}

import { formatDurationMs } from '../../compile/duration.js';
import type { ExecutionOutcome } from '../run-types.js';

/** Why the executor stopped a job before it finished on its own. */
export type StopReason = 'timeout' | 'abort';

export function failedOutcome(error: string, durationMs: number): ExecutionOutcome {
  return { status: 'FAILED', exitCode: null, httpStatus: null, error, stdoutTail: null, stderrTail: null, durationMs };
}

export function stoppedStatus(reason: StopReason): 'TIMED_OUT' | 'CANCELLED' {
  return reason === 'timeout' ? 'TIMED_OUT' : 'CANCELLED';
}

export function stoppedError(reason: StopReason, timeoutMs: number, signal: AbortSignal | undefined): string {
  if (reason === 'timeout') return `timed out after ${formatDurationMs(timeoutMs)}`;
  // Only a string reason is shown: it is the caller's own words ("runner shutting down").
  return typeof signal?.reason === 'string' ? `cancelled: ${signal.reason}` : 'cancelled';
}

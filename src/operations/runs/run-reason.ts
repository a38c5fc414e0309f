/**
 * Why a run ended where it did, in one line for `runs` and `runs show`. A skipped or missed run
 * carries its reason (OVERLAP, MISFIRE…) in `status_reason`; a failed one carries none there: the
 * cause is its last attempt's, so it is read from the attempt (the error the executor wrote, which
 * already says "exited with code 2", "timed out after 5m" or "HTTP 503 (expected 200-299)").
 */
import type { AttemptOutcomeRow } from '../../db/run-report-queries.js';

/** Attempt statuses that say nothing went wrong (yet). */
const UNFAILED_ATTEMPTS = new Set(['SUCCEEDED', 'RUNNING', 'CLAIMED']);

/** The cause of an attempt that did not succeed; null for one that did or still runs. */
export function describeAttemptFailure(attempt: Omit<AttemptOutcomeRow, 'attempt'>): string | null {
  if (UNFAILED_ATTEMPTS.has(attempt.status)) return null;
  if (attempt.error) return attempt.error;
  if (attempt.exitCode !== null && attempt.exitCode !== 0) return `exited with code ${attempt.exitCode}`;
  if (attempt.httpStatus !== null) return `HTTP ${attempt.httpStatus}`;
  return attempt.status.toLowerCase().replace('_', ' ');
}

/**
 * Statuses a failed attempt explains. Not QUEUED or RUNNING: after `cronform retry` the run is
 * back in line, and the last attempt's error would read as the cause of a run that has none yet.
 */
const EXPLAINED_BY_LAST_ATTEMPT = new Set(['FAILED', 'RETRY_PENDING', 'CANCELLED', 'MANUAL_REQUIRED']);

/** The stored reason, else, for a run that stopped on a failed attempt, that attempt's failure. */
export function describeRunReason(status: string, statusReason: string | null, lastAttempt: Omit<AttemptOutcomeRow, 'attempt'> | null): string | null {
  // A run `cronform dev` skipped for a missing secret: the code alone does not say which variable to set; its attempt's error does.
  if (statusReason === 'MISSING_SECRET' && status === 'SKIPPED' && lastAttempt?.error) return `${statusReason}: ${lastAttempt.error}`;
  // Likewise a run the safety threshold stopped: the attempt's error says how many, and how to approve.
  if (statusReason === 'SAFETY_THRESHOLD' && status === 'MANUAL_REQUIRED' && lastAttempt?.error) return `${statusReason}: ${lastAttempt.error}`;
  if (statusReason !== null) return statusReason;
  return lastAttempt && EXPLAINED_BY_LAST_ATTEMPT.has(status) ? describeAttemptFailure(lastAttempt) : null;
}

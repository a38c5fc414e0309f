/**
 * A run's progress across its attempts, and what it means for the run's status (SPEC §8a):
 * - items a job reported by key are the run's: a retry re-runs only the failed ones (their keys
 *   in CRONFORM_RETRY_ITEMS_FILE) and what it reports replaces their earlier status;
 * - a job that exited 0 with failed items ends PARTIAL_SUCCESS while they stay within
 *   `allowedFailures` (a count, or a percent of the total), FAILED above it (then retried per
 *   `retry`, like any failed attempt); with no `allowedFailures` no failed item is allowed;
 * - a real run whose job asked to affect more than `safety.maxAffected` (or reported more in
 *   `wouldAffect`) goes to MANUAL_REQUIRED, reason SAFETY_THRESHOLD, whatever its exit code,
 *   unless it was cancelled. A dry run never stops on the threshold: it changes nothing.
 * An exit code other than 0 always wins over the items: the job said it failed.
 */
import type { AllowedFailures } from '../../compile/definition.js';
import type { ItemStatus, RunStatus } from '../../db/run-vocabulary.js';
import { exceedsMaxAffected } from '../../shared/progress-line.js';
import type { ExecutionOutcome } from '../run-types.js';
import type { AttemptProgress, ReportedItem } from './attempt-progress.js';

/** What earlier attempts of the run left in `run_progress`/`run_items` (null on a first attempt or without reports). */
export interface PriorProgress {
  total: number | null;
  items: Map<string, ItemStatus>;
  approvedAffected: number | null;
  /** The attempt that last wrote the items ran to its end: its failed items are all that is left. */
  completeReport: boolean;
}

export interface RunProgressSummary {
  total: number | null;
  done: number;
  failed: number;
  wouldAffect: number | null;
  /** The items this attempt reported: written over the run's earlier ones. */
  items: Map<string, ReportedItem>;
  itemsTruncated: boolean;
}

/** The run's counts after this attempt (so far, while it runs). */
export function summarizeRunProgress(attempt: AttemptProgress, prior: PriorProgress | null): RunProgressSummary {
  const itemized = attempt.items.size > 0 || (prior !== null && prior.items.size > 0) || attempt.overflow.DONE + attempt.overflow.FAILED > 0;
  let done: number;
  let failed: number;
  if (itemized) {
    const merged = new Map(prior?.items ?? []);
    for (const [key, item] of attempt.items) merged.set(key, item.status);
    done = attempt.overflow.DONE;
    failed = attempt.overflow.FAILED;
    for (const status of merged.values()) {
      if (status === 'DONE') done += 1;
      else failed += 1;
    }
  } else {
    done = attempt.done ?? 0;
    failed = attempt.failed ?? 0;
  }
  const reportedTotal = Math.max(attempt.total ?? 0, prior?.total ?? 0);
  const total = attempt.total === null && prior?.total == null && !itemized ? null : Math.max(reportedTotal, done + failed);
  const wouldAffect = attempt.guardAffects === null && attempt.wouldAffect === null ? null : Math.max(attempt.guardAffects ?? 0, attempt.wouldAffect ?? 0);
  return { total, done, failed, wouldAffect, items: attempt.items, itemsTruncated: attempt.overflow.DONE + attempt.overflow.FAILED > 0 };
}

/** The limit the job is given: `safety.maxAffected`, raised to what an operator approved for this run. */
export function effectiveMaxAffected(maxAffected: number | undefined, prior: Pick<PriorProgress, 'approvedAffected'> | null): number | null {
  if (maxAffected === undefined) return null;
  return Math.max(maxAffected, prior?.approvedAffected ?? 0);
}

export function withinAllowedFailures(summary: Pick<RunProgressSummary, 'failed' | 'total' | 'done'>, allowed: AllowedFailures | undefined): boolean {
  if (summary.failed === 0) return true;
  if (allowed === undefined) return false;
  if (allowed.count !== undefined) return summary.failed <= allowed.count;
  const total = Math.max(summary.total ?? 0, summary.done + summary.failed);
  return summary.failed * 100 <= (allowed.percent ?? 0) * total;
}

export function describeAllowedFailures(allowed: AllowedFailures | undefined): string {
  if (allowed === undefined) return 'no allowedFailures';
  return allowed.count !== undefined ? `allowedFailures ${allowed.count}` : `allowedFailures ${allowed.percent}%`;
}

export type ProgressVerdict =
  | { kind: 'as-attempt' }
  | { kind: 'partial-success' }
  | { kind: 'items-failed'; error: string }
  | { kind: 'safety-threshold'; error: string };

/** What the reported progress does to an ended attempt (before the retry policy). */
export function judgeProgress(
  outcome: Pick<ExecutionOutcome, 'status'>,
  summary: RunProgressSummary,
  rules: { allowedFailures: AllowedFailures | undefined; maxAffected: number | null; dryRun: boolean },
): ProgressVerdict {
  if (outcome.status === 'CANCELLED') return { kind: 'as-attempt' };
  if (!rules.dryRun && summary.wouldAffect !== null && exceedsMaxAffected(summary.wouldAffect, rules.maxAffected)) {
    return { kind: 'safety-threshold', error: `would affect ${formatCount(summary.wouldAffect)} > maxAffected ${formatCount(rules.maxAffected ?? 0)}` };
  }
  if (outcome.status !== 'SUCCEEDED' || summary.failed === 0) return { kind: 'as-attempt' };
  if (withinAllowedFailures(summary, rules.allowedFailures)) return { kind: 'partial-success' };
  const total = summary.total === null ? '' : ` of ${formatCount(summary.total)}`;
  return { kind: 'items-failed', error: `${formatCount(summary.failed)}${total} items failed, more than ${describeAllowedFailures(rules.allowedFailures)}` };
}

export type ProgressRunStatus = Extract<RunStatus, 'PARTIAL_SUCCESS' | 'MANUAL_REQUIRED'>;

function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

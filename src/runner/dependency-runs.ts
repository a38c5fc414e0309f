/**
 * `spec.after` (docs/workflows.md, Dependencies): the DEPENDENCY runs of upstreams that just
 * succeeded, created in the transaction that writes the SUCCESS, so they commit with it or not at
 * all. One upstream: one run per upstream SUCCESS. Several (a join): one run per business date,
 * when the last upstream succeeds for it. The rule itself lives in one SQL function,
 * `cronform.create_dependency_runs` (migration dependency-runs-sql), because a queue worker's
 * report (`cronform.run_finished`) writes a SUCCESS inside the worker's own statement and must
 * create the same runs: one implementation for both paths, so they cannot drift.
 *
 * Only the runner holding the upstream's lease can write that SUCCESS (completeAttempts is guarded
 * by it), and the unique keys stand behind it: (schedule, scheduled_for, trigger_type) for one
 * upstream, dependency_joins (dependent, business date) for a join, whose check is serialized per
 * dependent so that two upstreams succeeding at once create one run, never zero.
 */
import type { Executor } from '../db/client.js';
import { insertDependencyRuns } from '../db/dependency-queries.js';

/**
 * Creates the DEPENDENCY runs for upstream runs that have just become SUCCESS, in the caller's
 * transaction; returns how many became QUEUED (the function has notified the workers already).
 */
export async function createDependencyRuns(tx: Executor, succeededRunIds: number[], now: Date): Promise<{ created: number; queued: number }> {
  if (succeededRunIds.length === 0) return { created: 0, queued: 0 };
  const created = await insertDependencyRuns(tx, succeededRunIds, now);
  return { created: created.length, queued: created.filter((run) => run.status === 'QUEUED').length };
}

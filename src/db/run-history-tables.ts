/**
 * Every table whose rows belong to one run (a `run_id` column), and what retention does with them
 * when it deletes the run (README "Retention"). A new table keyed by run id joins this list: the
 * test test/db/run-history-tables.test.ts fails while a table with a `run_id` column is missing.
 *
 * The rule for such tables: no foreign key to `schedule_runs` is needed for retention, and none may
 * cascade: retention deletes the rows of every DELETED_WITH_RUN table in the same statement as the
 * runs (db/retention-queries.ts), so nothing is left pointing at a run that is gone. (If the run
 * tables are ever partitioned by time, a foreign key to them must carry the partition key; keeping
 * the side tables' deletion explicit here keeps that change open.)
 */

/**
 * Partitioned by the run's slot, one partition per UTC day (migration 0023, db/run-partitions.ts):
 * the run table first, then its attempts, which carry their run's slot and so share its day.
 * Statements that find rows of these by run id also name the slot, or they look in every day.
 */
export const PARTITIONED_RUN_TABLES = ['schedule_runs', 'run_attempts'] as const;

/** Deleted together with their run, by run_id. */
export const DELETED_WITH_RUN = ['run_attempts', 'run_steps', 'run_progress', 'run_items', 'run_contexts', 'queue_handoffs', 'queue_handoff_deliveries'] as const;

/**
 * Kept when their run is deleted, with why: `audit_log` is the record of who did what (trigger,
 * cancel, approve…) and outlives the runs it names; `active_runs` only ever holds unfinished runs,
 * which retention never deletes (its triggers drop a run's row when the run is deleted anyway).
 */
export const KEPT_AFTER_RUN: Readonly<Record<string, string>> = {
  audit_log: 'the audit trail outlives the runs it names',
  active_runs: 'holds unfinished runs only, which retention never deletes',
  dependency_joins: 'one row per dependent and business date whose join completed: kept so that a date is never joined twice, even after its run is deleted',
  run_final_events: 'an outbox of final statuses for the metrics, drained within a reconcile and pruned after 7 days; a row is counted even when its run is gone',
};

/**
 * Tables (SPEC §7). Migrations in `migrations/` are generated from this file by drizzle-kit
 * (`npm run db:generate`), edited by hand only to append what drizzle-kit cannot express (0004, 0006);
 * a test fails when they drift apart.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { Definition } from '../compile/definition.js';
import { ATTEMPT_STATUSES, ITEM_STATUSES, RUN_STATUSES, STEP_STATUSES, TRIGGER_TYPES } from './run-vocabulary.js';

const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
const instant = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * `'A', 'B'`: the words of a check constraint, from the vocabulary the code uses, so a status
 * added there reaches the database (through a generated migration) instead of failing at insert.
 * The text must stay exactly what drizzle-kit generated before: a different spelling is a new
 * migration (test/db/migrations-drift.test.ts).
 */
const sqlWords = (words: readonly string[]) => sql.raw(words.map((word) => `'${word}'`).join(', '));

/** Current state of each schedule. The full history lives in `schedule_versions`. */
export const schedules = pgTable(
  'schedules',
  {
    id: id(),
    name: text('name').notNull(),
    /** Latest applied version; bumped only by apply (and by operations that change the definition). */
    version: integer('version').notNull(),
    definition: jsonb('definition').$type<Definition>().notNull(),
    digest: text('digest').notNull(),
    /** ACTIVE or ARCHIVED: archived schedules are disabled, never deleted (history is kept). */
    status: text('status').notNull().default('ACTIVE'),
    /** Created by cronform apply. Only managed schedules are ever archived by a plan. */
    managed: boolean('managed').notNull().default(true),
    /** Emergency kill switch from `cronform pause`; `plan` reports it as drift. */
    pausedAt: instant('paused_at'),
    pausedBy: text('paused_by'),
    pausedReason: text('paused_reason'),
    pausedUntil: instant('paused_until'),
    nextRunAt: instant('next_run_at'),
    /** The slot up to which the scheduler has created runs (exclusive of later slots). */
    lastScheduledFor: instant('last_scheduled_for'),
    createdAt: instant('created_at').notNull().defaultNow(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('schedules_name_key').on(t.name),
    index('schedules_due_idx').on(t.nextRunAt).where(sql`${t.status} = 'ACTIVE'`),
    // The paused ones only: each claim looks them up to hold back their scheduled runs, and
    // without it that lookup read every schedule.
    index('schedules_paused_idx').on(t.id).where(sql`${t.pausedAt} is not null`),
    // The dependents of an upstream that just succeeded (createDependencyRuns), looked up in the
    // outcome's transaction: without it every batch of outcomes with a SUCCESS read every schedule.
    index('schedules_after_idx').using('gin', sql`(${t.definition} -> 'after') jsonb_path_ops`),
    check('schedules_status_check', sql`${t.status} in ('ACTIVE', 'ARCHIVED')`),
  ],
);

/** One row per applied version, never updated in place. */
export const scheduleVersions = pgTable(
  'schedule_versions',
  {
    id: id(),
    scheduleId: bigint('schedule_id', { mode: 'number' }).notNull().references(() => schedules.id),
    version: integer('version').notNull(),
    name: text('name').notNull(),
    definition: jsonb('definition').$type<Definition>().notNull(),
    digest: text('digest').notNull(),
    status: text('status').notNull(),
    actor: text('actor').notNull(),
    reason: text('reason'),
    gitSha: text('git_sha'),
    planId: text('plan_id'),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('schedule_versions_schedule_version_key').on(t.scheduleId, t.version)],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    at: instant('at').notNull().defaultNow(),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    scheduleId: bigint('schedule_id', { mode: 'number' }).references(() => schedules.id),
    scheduleName: text('schedule_name'),
    version: integer('version'),
    runId: bigint('run_id', { mode: 'number' }),
    before: jsonb('before'),
    after: jsonb('after'),
    reason: text('reason'),
    gitSha: text('git_sha'),
    planId: text('plan_id'),
  },
  (t) => [index('audit_log_schedule_idx').on(t.scheduleId, t.at), index('audit_log_plan_idx').on(t.planId)],
);

/**
 * Partitioned by day of `scheduled_for` (UTC), like `run_attempts` (migration 0023, drizzle-kit
 * cannot express it; db/run-partitions.ts creates the days ahead and retention drops them whole,
 * docs/retention.md). So every unique key holds the slot: the primary key is `(id, scheduled_for)`
 * (ids come from one sequence, so `id` alone is unique too) and statements on the hot path name
 * the slot with the id, so that PostgreSQL reads one day's partition instead of every day's.
 */
export const scheduleRuns = pgTable(
  'schedule_runs',
  {
    id: bigint('id', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    scheduleId: bigint('schedule_id', { mode: 'number' }).notNull().references(() => schedules.id),
    /** The definition version the run was created with; later applies do not change it. */
    scheduleVersion: integer('schedule_version').notNull(),
    scheduledFor: instant('scheduled_for').notNull(),
    triggerType: text('trigger_type').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    status: text('status').notNull(),
    statusReason: text('status_reason'),
    priority: integer('priority').notNull(),
    queue: text('queue').notNull(),
    businessDate: date('business_date', { mode: 'string' }),
    /** Earliest start: slot + jitter, or the retry time. */
    runAfter: instant('run_after').notNull(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: instant('lease_expires_at'),
    createdAt: instant('created_at').notNull().defaultNow(),
    startedAt: instant('started_at'),
    finishedAt: instant('finished_at'),
    /** Very long outages: one row can stand for many missed slots (SPEC §7). */
    summarizedSlots: integer('summarized_slots'),
    /**
     * While the run is RUNNING, its current attempt, which has no `run_attempts` row until it ends
     * (one insert instead of an insert at the claim and an update at the end, migration 0024): its
     * status, CLAIMED (waiting in its runner's local queue) or RUNNING (its job started), and when
     * it was claimed or its job started. With `attempts` and `lease_owner` they are the attempt's
     * record until then (open-attempts.ts). Not indexed, so the writes stay HOT.
     */
    attemptStatus: text('attempt_status'),
    attemptStartedAt: instant('attempt_started_at'),
  },
  (t) => [
    primaryKey({ name: 'schedule_runs_pkey', columns: [t.id, t.scheduledFor] }),
    uniqueIndex('schedule_runs_slot_key').on(t.scheduleId, t.scheduledFor, t.triggerType),
    // The key names the slot (`<schedule>:<slot>:<trigger>`), so with the slot it is as unique as alone.
    uniqueIndex('schedule_runs_idempotency_key').on(t.idempotencyKey, t.scheduledFor),
    // No index on a column a run's progress changes (status, lease, attempts, start, end): its
    // updates then stay HOT (no index entry written, ~8× cheaper) in the room fillfactor 50 leaves
    // (migration 0006). Lookups by status go through `active_runs`.
    check('schedule_runs_trigger_check', sql`${t.triggerType} in (${sqlWords(TRIGGER_TYPES)})`),
    check('schedule_runs_status_check', sql`${t.status} in (${sqlWords(RUN_STATUSES)})`),
  ],
);

/**
 * The runs not finished yet (PENDING, QUEUED, RUNNING, RETRY_PENDING) and those waiting for a human
 * (MANUAL_REQUIRED): the indexed, narrow copy of their state that claims, overlap checks, QUEUE_NEW
 * promotion, pause, the lease scan and the dashboard's waiting runs read, so that `schedule_runs`
 * itself needs no index on status. Written only by the statement triggers of migrations 0006 and
 * 0009 on `schedule_runs` (drizzle-kit cannot express them), so every status change, by any
 * statement, keeps it exact; never write it directly. A finished run leaves it.
 *
 * MANUAL_REQUIRED rows hold no execution slot (SPEC §7): every reader that means "active",
 * "queued", "claimable" or "unfinished" names the statuses it wants (ACTIVE_RUNS_TABLE_STATUSES in
 * run-vocabulary.ts lists what the table holds), never reads the table whole.
 */
export const activeRuns = pgTable(
  'active_runs',
  {
    runId: bigint('run_id', { mode: 'number' }).primaryKey(),
    scheduleId: bigint('schedule_id', { mode: 'number' }).notNull(),
    status: text('status').notNull(),
    triggerType: text('trigger_type').notNull(),
    priority: integer('priority').notNull(),
    queue: text('queue').notNull(),
    scheduledFor: instant('scheduled_for').notNull(),
    runAfter: instant('run_after').notNull(),
  },
  (t) => [
    // The claim's two sources. Queued runs are due at once (but for jitter or a release), so the
    // claim reads them in its own order. Retries wait out a backoff, and after an outage or a
    // failing dependency thousands may wait at once ahead of the due runs: the claim reads only
    // the due ones, by run_after (test/db/claim-scan.test.ts).
    index('active_runs_claim_idx').on(t.priority, t.scheduledFor, t.runId).where(sql`${t.status} = 'QUEUED'`),
    index('active_runs_retry_idx').on(t.runAfter).where(sql`${t.status} = 'RETRY_PENDING'`),
    // When the next waiting run falls due (findEarliestRunAfter), without reading every queued run.
    // The claim must never use it: with statistics gathered before a mass queueing it would take the
    // due runs from it and sort them all instead of reading the claim order
    // (test/db/claim-scan.test.ts). The `> '-infinity'` term is what keeps it away: a partial index
    // serves only queries whose conditions imply its predicate, and the claim's `run_after <= now`
    // does not imply it; findEarliestRunAfter states it.
    index('active_runs_run_after_idx').on(t.runAfter).where(sql`${t.status} in ('QUEUED', 'RETRY_PENDING') and ${t.runAfter} > '-infinity'`),
    index('active_runs_schedule_idx').on(t.scheduleId, t.status),
    index('active_runs_running_idx').on(t.queue).where(sql`${t.status} = 'RUNNING'`),
    // The dashboard's waiting runs in their order (listRunsAwaitingAction): a page of them, however
    // many wait, without reading the unfinished runs.
    index('active_runs_manual_idx').on(t.scheduledFor, t.runId).where(sql`${t.status} = 'MANUAL_REQUIRED'`),
  ],
);

/**
 * What a run was given beyond its row, fixed once and never updated (docs/workflows.md): the
 * upstream run a DEPENDENCY run follows (written with the run) and the run's `spec.inputs`
 * (written by its first claim, `freezeRunContexts`). A table of its own rather than columns on
 * `schedule_runs`: most runs have neither, and the run table's rows stay narrow and HOT-updated.
 * No foreign key: `schedule_runs` may be partitioned, and its id alone is then not a unique key.
 */
export const runContexts = pgTable(
  'run_contexts',
  {
    runId: bigint('run_id', { mode: 'number' }).primaryKey(),
    upstreamRunId: bigint('upstream_run_id', { mode: 'number' }),
    /** Every upstream of a DEPENDENCY run, schedule name → run id (a join has several). */
    upstreamRunIds: jsonb('upstream_run_ids').$type<Record<string, number>>(),
    inputs: jsonb('inputs').$type<Record<string, string>>(),
  },
  // Which runs an upstream run created (`runs show` of the upstream).
  (t) => [index('run_contexts_upstream_idx').on(t.upstreamRunId).where(sql`${t.upstreamRunId} is not null`)],
);

/**
 * Joins completed (docs/workflows.md, Dependencies): a dependent of several upstreams runs once per
 * business date, when the last of them succeeds for that date. The primary key is what makes a
 * second run for one date impossible, whichever transactions race; the row outlives its run
 * (retention keeps it) so that an old date is never joined again. Written only by the SQL function
 * create_dependency_runs (migration dependency-runs-sql).
 */
export const dependencyJoins = pgTable(
  'dependency_joins',
  {
    scheduleId: bigint('schedule_id', { mode: 'number' }).notNull(),
    businessDate: date('business_date', { mode: 'string' }).notNull(),
    runId: bigint('run_id', { mode: 'number' }).notNull(),
    createdAt: instant('created_at').notNull(),
  },
  // By date: the joins an upstream run took part in (`runs show` of the upstream).
  (t) => [primaryKey({ columns: [t.scheduleId, t.businessDate] }), index('dependency_joins_date_idx').on(t.businessDate)],
);

/** Stored with fillfactor 50 (migration 0004; drizzle-kit cannot express it) so its updates are HOT. */
export const runAttempts = pgTable(
  'run_attempts',
  {
    // Keyed by (run, attempt), the key every statement uses: a surrogate id was a second unique
    // index written on every claim (~70 bytes of WAL per run) and read by nothing. No foreign key
    // to schedule_runs, like run_progress: retention deletes attempts with their runs
    // (run-history-tables.ts), and a key on schedule_runs(id) alone stands in the way of
    // partitioning that table by time (docs/retention.md).
    runId: bigint('run_id', { mode: 'number' }).notNull(),
    attempt: integer('attempt').notNull(),
    /** The run's slot: attempts are partitioned by it like their runs, and go with them. */
    scheduledFor: instant('scheduled_for').notNull(),
    runnerId: text('runner_id').notNull(),
    status: text('status').notNull(),
    startedAt: instant('started_at').notNull(),
    finishedAt: instant('finished_at'),
    exitCode: integer('exit_code'),
    httpStatus: integer('http_status'),
    error: text('error'),
    stdoutTail: text('stdout_tail'),
    stderrTail: text('stderr_tail'),
  },
  (t) => [
    primaryKey({ name: 'run_attempts_pkey', columns: [t.runId, t.attempt, t.scheduledFor] }),
    check('run_attempts_status_check', sql`${t.status} in (${sqlWords(ATTEMPT_STATUSES)})`),
  ],
);

/**
 * What a run's job reported about its own work (SPEC §8a, `cronform progress`/`cronform guard`):
 * one row per run, written by the runner that holds the lease (at heartbeats while the job runs,
 * and with the attempt's outcome), never by the job, which has no database credentials. Counts
 * are the run's, across its attempts. No foreign key to `schedule_runs`: that table is being
 * partitioned by time, where a key on `id` alone cannot be referenced; whatever deletes runs
 * (retention) deletes these rows too.
 */
export const runProgress = pgTable('run_progress', {
  runId: bigint('run_id', { mode: 'number' }).primaryKey(),
  /** The attempt that last wrote this row. */
  attempt: integer('attempt').notNull(),
  /** Items the job said it has in all (`--total`); null when it never said. */
  total: bigint('total', { mode: 'number' }),
  done: bigint('done', { mode: 'number' }).notNull().default(0),
  failed: bigint('failed', { mode: 'number' }).notNull().default(0),
  /** What the job said it would change (`--would-affect`, `guard --affects`); the latest value. */
  wouldAffect: bigint('would_affect', { mode: 'number' }),
  /**
   * Set by `approve` of a run stopped by `safety.maxAffected`: the count that was shown and
   * approved. Its next attempt may affect up to this many (not more: a job that now reports more
   * is stopped again).
   */
  approvedAffected: bigint('approved_affected', { mode: 'number' }),
  /**
   * The attempt that last wrote the items ran to its end (exit 0), so its failed items are all
   * that is left to do: only then does a retry get CRONFORM_RETRY_ITEMS_FILE. After a crash,
   * items it never reported are unknown, and the retry runs the whole batch.
   */
  completeReport: boolean('complete_report').notNull().default(false),
  /** Items beyond the per-run cap were counted but not stored one by one. */
  itemsTruncated: boolean('items_truncated').notNull().default(false),
  updatedAt: instant('updated_at').notNull(),
});

/** The items a job reported by key, with the attempt that last reported each (for `retry`: only the failed ones run again). */
export const runItems = pgTable(
  'run_items',
  {
    runId: bigint('run_id', { mode: 'number' }).notNull(),
    itemKey: text('item_key').notNull(),
    status: text('status').notNull(),
    attempt: integer('attempt').notNull(),
    error: text('error'),
  },
  (t) => [
    uniqueIndex('run_items_run_item_key').on(t.runId, t.itemKey),
    check('run_items_status_check', sql`${t.status} in (${sqlWords(ITEM_STATUSES)})`),
  ],
);

/**
 * One row per workflow step and attempt (docs/workflows.md): written when the step starts and
 * again when it ends, before the next step starts, so a runner killed between two steps leaves
 * exactly the finished steps SUCCEEDED and the next attempt resumes after them. `result` is the
 * step's JSON output (at most 64 KiB), read by later steps. No foreign key to `schedule_runs`:
 * that table is to be partitioned by time, and a key referencing it would need its partition key;
 * the run id is the link, as in `audit_log`.
 */
export const runSteps = pgTable(
  'run_steps',
  {
    runId: bigint('run_id', { mode: 'number' }).notNull(),
    attempt: integer('attempt').notNull(),
    stepIndex: integer('step_index').notNull(),
    name: text('name').notNull(),
    status: text('status').notNull(),
    /** Tries of the step inside this attempt (its own `retry`). */
    tries: integer('tries').notNull().default(1),
    startedAt: instant('started_at'),
    finishedAt: instant('finished_at'),
    exitCode: integer('exit_code'),
    httpStatus: integer('http_status'),
    error: text('error'),
    stdoutTail: text('stdout_tail'),
    stderrTail: text('stderr_tail'),
    result: jsonb('result').$type<Record<string, unknown>>(),
  },
  (t) => [
    uniqueIndex('run_steps_run_attempt_step_key').on(t.runId, t.attempt, t.stepIndex),
    check('run_steps_status_check', sql`${t.status} in (${sqlWords(STEP_STATUSES)})`),
  ],
);

export const runners = pgTable('runners', {
  id: text('id').primaryKey(),
  hostname: text('hostname').notNull(),
  pid: integer('pid').notNull(),
  version: text('version').notNull(),
  startedAt: instant('started_at').notNull(),
  heartbeatAt: instant('heartbeat_at').notNull(),
  stoppedAt: instant('stopped_at'),
  /**
   * The runner's SIGTERM → SIGKILL grace: how long after its lease expires a job it was stopping
   * may still be alive, so the reconciler waits that long (plus a margin) before a retry.
   * Null for runners of versions that did not record it: the reconciler assumes its own.
   */
  killGraceMs: integer('kill_grace_ms'),
});

/** Repository-wide settings written by apply; today only the compiled Policy (key `policy`). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  digest: text('digest').notNull(),
  updatedAt: instant('updated_at').notNull().defaultNow(),
});

/** Alert states: OPEN while its condition holds, RESOLVED once it cleared (runner/alerts/rules.ts). */
export const ALERT_STATES = ['OPEN', 'RESOLVED'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

/**
 * One row per alert: one occurrence of a rule's condition (README, Alerts). `condition_key` names
 * the occurrence (the first failed run of a streak, the first missed slot, the last success…), so
 * replicas that see the same condition insert one row between them (`on conflict do nothing`), and
 * a condition that cleared and comes back is a new key, a new row. Only the replica whose insert
 * (or resolve) wrote the row sends its message, so each event is delivered once.
 */
export const alerts = pgTable(
  'alerts',
  {
    id: id(),
    rule: text('rule').notNull(),
    conditionKey: text('condition_key').notNull(),
    /** Null for repository-wide alerts (no runner alive). */
    scheduleId: bigint('schedule_id', { mode: 'number' }).references(() => schedules.id),
    scheduleName: text('schedule_name'),
    criticality: text('criticality'),
    state: text('state').notNull(),
    summary: text('summary').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull(),
    openedAt: instant('opened_at').notNull(),
    openedBy: text('opened_by').notNull(),
    resolvedAt: instant('resolved_at'),
    /** Messages (firing and resolved) accepted by a target, and requests made for them. */
    deliveries: integer('deliveries').notNull().default(0),
    deliveryAttempts: integer('delivery_attempts').notNull().default(0),
    /** Messages not sent because a rate limit held them back. */
    suppressed: integer('suppressed').notNull().default(0),
    lastDeliveryAt: instant('last_delivery_at'),
    lastError: text('last_error'),
  },
  (t) => [
    uniqueIndex('alerts_condition_key').on(t.rule, t.conditionKey),
    index('alerts_open_idx').on(t.openedAt).where(sql`${t.state} = 'OPEN'`),
    index('alerts_opened_at_idx').on(t.openedAt),
    check('alerts_state_check', sql`${t.state} in (${sqlWords(ALERT_STATES)})`),
  ],
);

/**
 * Final run statuses written outside a runner (`cancel`, `pause`), one row per run, in the same
 * statement as the status: runners serving metrics drain it (db/final-event-queries.ts) into
 * `cronform_runs_total`, each row into exactly one runner's counter. A runner counts the final
 * statuses it writes itself without a row here: the hot path pays nothing for it.
 */
export const runFinalEvents = pgTable(
  'run_final_events',
  {
    id: id(),
    runId: bigint('run_id', { mode: 'number' }).notNull(),
    scheduleId: bigint('schedule_id', { mode: 'number' }).notNull(),
    status: text('status').notNull(),
    statusReason: text('status_reason'),
    triggerType: text('trigger_type').notNull(),
    recordedAt: instant('recorded_at').notNull(),
  },
  (t) => [index('run_final_events_recorded_at_idx').on(t.recordedAt)],
);

/** A message's state at one target: PENDING until DELIVERED, FAILED (given up) or SKIPPED (never to be sent). */
export const ALERT_DELIVERY_STATES = ['PENDING', 'DELIVERED', 'FAILED', 'SKIPPED'] as const;
export type AlertDeliveryState = (typeof ALERT_DELIVERY_STATES)[number];

/**
 * The messages owed for each alert (firing, resolved) per Policy target, written in the same
 * statement that records or resolves the alert, so an alert recorded by a runner that dies before
 * sending it is still owed: another runner claims it once its claim is older than the delivery
 * lease (runner/alerts/evaluator.ts). At-least-once: the payload carries a stable dedup key.
 */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    alertId: bigint('alert_id', { mode: 'number' })
      .notNull()
      .references(() => alerts.id),
    event: text('event').notNull(),
    target: text('target').notNull(),
    state: text('state').notNull(),
    claimedBy: text('claimed_by'),
    claimedAt: instant('claimed_at').notNull(),
    /** Times a runner took the message on (the recorder's own try is the first). */
    rounds: integer('rounds').notNull().default(1),
    lastError: text('last_error'),
  },
  (t) => [
    uniqueIndex('alert_deliveries_key').on(t.alertId, t.event, t.target),
    index('alert_deliveries_pending_idx').on(t.claimedAt).where(sql`${t.state} = 'PENDING'`),
    check('alert_deliveries_event_check', sql`${t.event} in ('firing', 'resolved')`),
    check('alert_deliveries_state_check', sql`${t.state} in (${sqlWords(ALERT_DELIVERY_STATES)})`),
  ],
);

/**
 * Runs handed to a queue a team already has (docs/queue-handoff.md): one row per handed-off
 * attempt, written in the hand-off's transaction. While the run is RUNNING its lease belongs to
 * the queue (`lease_owner` = `queue:<system>`), and the worker's reports (the `cronform.run_*`
 * SQL functions of the next migration) extend it up to `deadline_at` (hand-off + the schedule's
 * timeout), so the reconciler's lease rules and `onStall` apply as for a local attempt. A new table
 * rather than columns on the run tables, which are partitioned by time.
 */
export const queueHandoffs = pgTable(
  'queue_handoffs',
  {
    runId: bigint('run_id', { mode: 'number' }).notNull(),
    attempt: integer('attempt').notNull(),
    system: text('system').notNull(),
    /** The task, queue name or function the job went to, as the plan names it. */
    target: text('target').notNull(),
    /** The key the queue deduplicates by: the run's idempotency key (with `#<attempt>` from the second attempt on). */
    jobKey: text('job_key').notNull(),
    /** The queue's id of the job (graphile-worker's bigint, pg-boss's uuid, a sql function's result). */
    externalJobId: text('external_job_id'),
    handedOffAt: instant('handed_off_at').notNull(),
    /** The attempt's timeout: the lease never reaches past it, whatever the heartbeats. */
    deadlineAt: instant('deadline_at').notNull(),
    /** How far a report moves the lease (the runner's lease length at hand-off). */
    heartbeatLeaseMs: integer('heartbeat_lease_ms').notNull(),
    startedAt: instant('started_at'),
    lastHeartbeatAt: instant('last_heartbeat_at'),
    finishedAt: instant('finished_at'),
  },
  (t) => [primaryKey({ columns: [t.runId, t.attempt] })],
);

/**
 * Hand-offs to a queue in another database (docs/queue-handoff.md, "A queue in another database"):
 * no transaction spans both databases, so the hand-off is an outbox. This row is written with the
 * queue_handoffs row, under the run's lease and before the queue is touched, and holds everything
 * needed to insert the job again (the job, without any secret: the database is named by the
 * variable that holds its URL, and the queue payload); `delivered_at` is set once the queue's job
 * id is recorded. A row left undelivered (a crash or an error between the insert and the record)
 * is delivered again with the same job key, which the queue deduplicates: never a second job.
 */
export const queueHandoffDeliveries = pgTable(
  'queue_handoff_deliveries',
  {
    runId: bigint('run_id', { mode: 'number' }).notNull(),
    attempt: integer('attempt').notNull(),
    /** The runner's environment variable holding the queue database's URL (never the URL). */
    urlFromEnv: text('url_from_env').notNull(),
    /** `{ job, payload }`: the queue job definition and the document it carries. */
    request: jsonb('request').notNull(),
    tries: integer('tries').notNull().default(0),
    lastError: text('last_error'),
    lastTryAt: instant('last_try_at'),
    deliveredAt: instant('delivered_at'),
  },
  (t) => [primaryKey({ columns: [t.runId, t.attempt] }), index('queue_handoff_deliveries_pending_idx').on(t.runId).where(sql`${t.deliveredAt} is null`)],
);

/**
 * What retention deleted, counted per schedule, UTC day of the slot, trigger and final status
 * (README "Retention"). Written in the statement that deletes the runs (db/retention-queries.ts),
 * so a run is counted here exactly when it is gone from `schedule_runs`: readers add these rows to
 * the live ones and their figures do not move when retention runs. Holds deleted runs only: the
 * live runs of a day are never counted twice.
 */
export const runDailyRollups = pgTable(
  'run_daily_rollups',
  {
    scheduleId: bigint('schedule_id', { mode: 'number' }).notNull().references(() => schedules.id),
    day: date('day', { mode: 'string' }).notNull(),
    triggerType: text('trigger_type').notNull(),
    status: text('status').notNull(),
    /** Run rows deleted. */
    runs: integer('runs').notNull(),
    /** Slots they stood for (a summary row of a long outage stands for many). */
    slots: integer('slots').notNull(),
    /** finished_at − started_at of the runs that started and finished. */
    durationMsSum: bigint('duration_ms_sum', { mode: 'number' }).notNull(),
    durationMsMax: bigint('duration_ms_max', { mode: 'number' }),
    /** started_at − scheduled_for of SCHEDULED runs that started, counted per bucket of START_DELAY_BUCKETS_MS (last: above all). */
    startDelayBuckets: integer('start_delay_buckets').array().notNull(),
    /** Latest finished_at of a SUCCESS among them. */
    lastSuccessAt: instant('last_success_at'),
  },
  (t) => [uniqueIndex('run_daily_rollups_key').on(t.scheduleId, t.day, t.triggerType, t.status)],
);

/**
 * Statements of a queue hand-off (docs/queue-handoff.md): the run is locked under this runner's
 * lease, the queue job inserted, and the lease given to the queue, all in one transaction on
 * cronform's own connection, so a hand-off either happened whole (one queue job, the run
 * recorded as handed off) or not at all (no job, the run still this runner's to fail and retry).
 *
 * Nothing the manifest says is spliced into SQL text as text: values are bound parameters, and the
 * only names that reach the statement (a `sql` job's function and its argument names, already
 * restricted to lower-case identifiers by the schema) are quoted with pg's escapeIdentifier.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { QueueArgumentSource, QueueSystem } from '../compile/definition.js';
import { queryRows, type Executor } from './client.js';
import { insertEndedAttempts } from './open-attempts.js';

/** The lease owner of a handed-off run: the queue, not a runner (runner heartbeats never renew it). */
export function handOffLeaseOwner(system: QueueSystem): string {
  return `queue:${system}`;
}

/** True when this runner still holds the lease of this very attempt; the run row stays locked until commit. */
export async function lockRunForHandOff(tx: Executor, runnerId: string, run: { runId: number; attempt: number }): Promise<boolean> {
  const rows = await queryRows<{ id: string | number }>(
    tx,
    sql`select id from schedule_runs where id = ${run.runId} and status = 'RUNNING' and lease_owner = ${runnerId} and attempts = ${run.attempt} for update`,
  );
  return rows.length === 1;
}

export interface GraphileWorkerJobRequest {
  task: string;
  payload: unknown;
  queueName: string | null;
  priority: number | null;
  maxAttempts: number;
  jobKey: string;
}

/**
 * graphile-worker's public SQL API, `graphile_worker.add_job`, in named notation. `unsafe_dedupe`:
 * a job with this key that already exists (queued, running or failed) is returned as it is, never
 * replaced; `replace` would add a second job while the first one runs. Returns the job's id.
 */
export async function addGraphileWorkerJob(tx: Executor, job: GraphileWorkerJobRequest): Promise<string> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`select (graphile_worker.add_job(
          identifier => ${job.task}::text, payload => ${JSON.stringify(job.payload)}::json, queue_name => ${job.queueName}::text,
          max_attempts => ${job.maxAttempts}::int, job_key => ${job.jobKey}::text, priority => ${job.priority}::int,
          job_key_mode => 'unsafe_dedupe')).id::text as id`,
  );
  return rows[0]!.id;
}

/** Whether a pg-boss job with this id exists (a hand-off already made, deduplicated by its id). */
export async function findPgBossJob(tx: Executor, schema: string, name: string, id: string): Promise<boolean> {
  const { escapeIdentifier } = (await import('pg')).default;
  const rows = await queryRows<{ id: string }>(tx, sql`select id::text as id from ${sql.raw(escapeIdentifier(schema))}.job where name = ${name} and id = ${id}::uuid`);
  return rows.length === 1;
}

/**
 * A `{ executeSql }` database for pg-boss's `send(…, { db })` that runs its statement in this
 * transaction. pg-boss numbers its parameters `$1…$n`; each becomes a bound parameter here.
 */
export function pgBossDatabaseOn(tx: Executor): { executeSql(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }> } {
  return {
    async executeSql(text, values = []) {
      const chunks: SQL[] = [];
      let last = 0;
      for (const match of text.matchAll(/\$(\d+)/g)) {
        chunks.push(sql.raw(text.slice(last, match.index)), sql`${values[Number(match[1]) - 1] ?? null}`);
        last = (match.index ?? 0) + match[0].length;
      }
      chunks.push(sql.raw(text.slice(last)));
      return { rows: await queryRows<Record<string, unknown>>(tx, sql.join(chunks)) };
    },
  };
}

/** How each run value is typed when bound, so that PostgreSQL resolves the function by its signature. */
const ARGUMENT_TYPES: Record<QueueArgumentSource, string> = {
  document: 'jsonb',
  payload: 'jsonb',
  scheduleRunId: 'bigint',
  attempt: 'integer',
  idempotencyKey: 'text',
  schedule: 'text',
  businessDate: 'date',
  scheduledFor: 'timestamptz',
  trigger: 'text',
};

/**
 * `select "app"."enqueue_report"("report_date" => $1::date, …)::text`: a `sql` job's function
 * called with bound values only. Without named arguments it receives the whole queue payload as
 * one jsonb value. Returns its result as text (recorded as the queue's job id), or null.
 */
export async function callEnqueueFunction(tx: Executor, qualifiedName: string, args: Array<{ name: string; source: QueueArgumentSource; value: unknown }>, document: unknown): Promise<string | null> {
  const { escapeIdentifier } = (await import('pg')).default;
  const [schema, name] = qualifiedName.split('.');
  if (!schema || !name || qualifiedName.split('.').length !== 2) throw new Error(`function must be schema-qualified (got ${JSON.stringify(qualifiedName)})`);
  const bind = (value: unknown, type: string): SQL => sql`${type === 'jsonb' ? JSON.stringify(value) : value}::${sql.raw(type)}`;
  const argumentList =
    args.length === 0
      ? bind(document, 'jsonb')
      : sql.join(
          args.map((arg) => sql`${sql.raw(escapeIdentifier(arg.name))} => ${bind(arg.value, ARGUMENT_TYPES[arg.source])}`),
          sql`, `,
        );
  const rows = await queryRows<{ job_id: string | null }>(tx, sql`select (${sql.raw(`${escapeIdentifier(schema)}.${escapeIdentifier(name)}`)}(${argumentList}))::text as job_id`);
  return rows[0]?.job_id ?? null;
}

export interface HandOffRecord {
  runId: number;
  attempt: number;
  system: QueueSystem;
  target: string;
  jobKey: string;
  externalJobId: string | null;
  handedOffAt: Date;
  deadlineAt: Date;
  heartbeatLeaseMs: number;
}

/**
 * The run's lease passes from this runner to the queue, lasting until the attempt's deadline
 * until the worker reports (cronform.run_started extends it from then on by heartbeatLeaseMs);
 * the attempt is RUNNING from the hand-off. Guarded by lease owner and attempt like every write.
 */
export async function recordHandOff(tx: Executor, runnerId: string, record: HandOffRecord): Promise<boolean> {
  const handedOffAt = record.handedOffAt.toISOString();
  const rows = await queryRows<{ run_id: string | number }>(
    tx,
    sql`with moved as (
          update schedule_runs set lease_owner = ${handOffLeaseOwner(record.system)}, lease_expires_at = ${record.deadlineAt.toISOString()}::timestamptz,
            attempt_status = 'RUNNING', attempt_started_at = ${handedOffAt}::timestamptz
          where id = ${record.runId} and status = 'RUNNING' and lease_owner = ${runnerId} and attempts = ${record.attempt}
          returning id, scheduled_for
        ),
        -- The attempt has no row yet (open-attempts.ts), and the queue's worker ends it
        -- (cronform.run_finished updates its row): it gets its row now, RUNNING from the hand-off.
        opened as (${insertEndedAttempts(sql`moved`, { status: sql`'RUNNING'`, startedAt: sql`${handedOffAt}::timestamptz`, finishedAt: sql`null`, error: sql`null` })})
        insert into queue_handoffs (run_id, attempt, system, target, job_key, external_job_id, handed_off_at, deadline_at, heartbeat_lease_ms)
        select m.id, ${record.attempt}, ${record.system}, ${record.target}, ${record.jobKey}, ${record.externalJobId}, ${handedOffAt}::timestamptz,
          ${record.deadlineAt.toISOString()}::timestamptz, ${record.heartbeatLeaseMs}
        from moved m
        returning run_id`,
  );
  return rows.length === 1;
}

export interface HandOffDetail {
  attempt: number;
  system: string;
  target: string;
  jobKey: string;
  externalJobId: string | null;
  handedOffAt: Date;
  deadlineAt: Date;
  startedAt: Date | null;
  lastHeartbeatAt: Date | null;
  finishedAt: Date | null;
  /** A hand-off to a queue in another database: its outbox delivery. */
  delivery: { urlFromEnv: string; delivered: boolean; tries: number; lastError: string | null } | null;
}

/** A run's hand-offs, one per handed-off attempt, oldest first (`runs show`). */
export async function listHandOffs(executor: Executor, runId: number): Promise<HandOffDetail[]> {
  const rows = await queryRows<Record<string, string | number | null>>(
    executor,
    sql`select h.attempt, h.system, h.target, h.job_key, h.external_job_id, h.handed_off_at, h.deadline_at, h.started_at, h.last_heartbeat_at, h.finished_at,
          d.url_from_env, d.delivered_at, d.tries, d.last_error
        from queue_handoffs h left join queue_handoff_deliveries d on d.run_id = h.run_id and d.attempt = h.attempt
        where h.run_id = ${runId} order by h.attempt`,
  );
  const instant = (value: string | number | null | undefined): Date | null => (value === null || value === undefined ? null : new Date(value));
  return rows.map((r) => ({
    attempt: Number(r.attempt),
    system: String(r.system),
    target: String(r.target),
    jobKey: String(r.job_key),
    externalJobId: r.external_job_id === null ? null : String(r.external_job_id),
    handedOffAt: instant(r.handed_off_at)!,
    deadlineAt: instant(r.deadline_at)!,
    startedAt: instant(r.started_at),
    lastHeartbeatAt: instant(r.last_heartbeat_at),
    finishedAt: instant(r.finished_at),
    delivery: r.url_from_env === null || r.url_from_env === undefined ? null : { urlFromEnv: String(r.url_from_env), delivered: r.delivered_at !== null, tries: Number(r.tries), lastError: r.last_error === null ? null : String(r.last_error) },
  }));
}

export interface DeliveryRequest {
  runId: number;
  attempt: number;
  urlFromEnv: string;
  /** The queue job definition and the document it carries: everything needed to insert it again. */
  request: { job: unknown; payload: unknown };
}

/**
 * (a) of a hand-off to a queue in another database: the intent, written in the transaction that
 * gives the run's lease to the queue, before the queue is touched.
 */
export async function recordDeliveryIntent(tx: Executor, delivery: DeliveryRequest): Promise<void> {
  await tx.execute(
    sql`insert into queue_handoff_deliveries (run_id, attempt, url_from_env, request) values (${delivery.runId}, ${delivery.attempt}, ${delivery.urlFromEnv}, ${JSON.stringify(delivery.request)}::jsonb)`,
  );
}

/**
 * (c): the queue's job id recorded and the delivery closed, once. False when it was already
 * delivered (another runner's redelivery got there first) or the hand-off is gone.
 */
export async function recordDelivered(executor: Executor, delivery: { runId: number; attempt: number; externalJobId: string | null; at: Date }): Promise<boolean> {
  const rows = await queryRows<{ run_id: string | number }>(
    executor,
    sql`with delivered as (
          update queue_handoff_deliveries set delivered_at = ${delivery.at.toISOString()}::timestamptz, tries = tries + 1, last_try_at = ${delivery.at.toISOString()}::timestamptz, last_error = null
          where run_id = ${delivery.runId} and attempt = ${delivery.attempt} and delivered_at is null
          returning run_id, attempt
        )
        update queue_handoffs h set external_job_id = ${delivery.externalJobId}
        from delivered d where h.run_id = d.run_id and h.attempt = d.attempt
        returning h.run_id`,
  );
  return rows.length === 1;
}

/** A try that failed: kept for `runs show` and for the next redelivery's back-off. */
export async function recordDeliveryFailure(executor: Executor, delivery: { runId: number; attempt: number; error: string; at: Date }): Promise<void> {
  await executor.execute(
    sql`update queue_handoff_deliveries set tries = tries + 1, last_error = ${delivery.error.slice(0, 4096)}, last_try_at = ${delivery.at.toISOString()}::timestamptz
        where run_id = ${delivery.runId} and attempt = ${delivery.attempt} and delivered_at is null`,
  );
}

export interface PendingDelivery extends DeliveryRequest {
  jobKey: string;
  target: string;
}

/**
 * Deliveries left open by a crash or an error, whose attempt is still the run's current one and
 * still handed off (a run that moved on needs no job), and that nobody tried since `triedBefore`
 * (the runner handing off is given that long). Through the partial index of open deliveries.
 */
export async function listPendingDeliveries(executor: Executor, options: { triedBefore: Date; limit: number }): Promise<PendingDelivery[]> {
  const before = options.triedBefore.toISOString();
  const rows = await queryRows<{ run_id: string | number; attempt: number; url_from_env: string; request: DeliveryRequest['request']; job_key: string; target: string }>(
    executor,
    sql`select d.run_id, d.attempt, d.url_from_env, d.request, h.job_key, h.target
        from queue_handoff_deliveries d join queue_handoffs h on h.run_id = d.run_id and h.attempt = d.attempt
        join schedule_runs r on r.id = d.run_id
        where d.delivered_at is null and r.status = 'RUNNING' and r.attempts = d.attempt and r.lease_owner like 'queue:%'
          and h.handed_off_at < ${before}::timestamptz and (d.last_try_at is null or d.last_try_at < ${before}::timestamptz)
        order by h.handed_off_at limit ${options.limit}`,
  );
  return rows.map((r) => ({ runId: Number(r.run_id), attempt: Number(r.attempt), urlFromEnv: r.url_from_env, request: r.request, jobKey: r.job_key, target: r.target }));
}

export interface RunHandOffLine {
  runId: number;
  attempt: number;
  target: string;
  externalJobId: string | null;
  /** False while a hand-off to a queue in another database has no recorded job id yet. */
  delivered: boolean;
}

/** The hand-offs of these runs (the dashboard's run history), by run then attempt. */
export async function listHandOffsOfRuns(executor: Executor, runIds: readonly number[]): Promise<RunHandOffLine[]> {
  if (runIds.length === 0) return [];
  const rows = await queryRows<{ run_id: string | number; attempt: number; target: string; external_job_id: string | null; delivered: boolean }>(
    executor,
    sql`select h.run_id, h.attempt, h.target, h.external_job_id, (d.run_id is null or d.delivered_at is not null) as delivered
        from queue_handoffs h left join queue_handoff_deliveries d on d.run_id = h.run_id and d.attempt = h.attempt
        where h.run_id = any(${sql.param([...runIds])}::bigint[]) order by h.run_id, h.attempt`,
  );
  return rows.map((r) => ({ runId: Number(r.run_id), attempt: Number(r.attempt), target: r.target, externalJobId: r.external_job_id, delivered: r.delivered }));
}

/** A round trip to a queue's own database before a hand-off is promised to it (wrong URL, password, host down). */
export async function probeQueueDatabase(executor: Executor): Promise<void> {
  await queryRows(executor, sql`select 1 as reachable`);
}

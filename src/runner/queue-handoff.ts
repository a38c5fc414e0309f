/**
 * Handing a claimed run to a queue a team already has (docs/queue-handoff.md). The queue lives
 * in cronform's database, so the queue job is inserted in the same transaction that passes the
 * run's lease to the queue: an outbox by construction. Either both happen (exactly one queue job
 * per attempt, the run RUNNING under the queue's lease until the worker reports or the lease
 * expires) or neither (the attempt fails like any job that could not start, and the run is retried
 * per its retry policy, with the same job key, so even a hand-off whose commit was lost in transit
 * never makes a second job).
 */
import { createHash } from 'node:crypto';
import type { Definition, QueueJobDefinition } from '../compile/definition.js';
import { describeQueueTarget } from '../compile/queue-job.js';
import type { Database, Executor } from '../db/client.js';
import {
  addGraphileWorkerJob,
  callEnqueueFunction,
  findPgBossJob,
  listPendingDeliveries,
  lockRunForHandOff,
  pgBossDatabaseOn,
  probeQueueDatabase,
  recordDelivered,
  recordDeliveryFailure,
  recordDeliveryIntent,
  recordHandOff,
} from '../db/queue-handoff-queries.js';
import type { ClaimedRun } from '../db/worker-queries.js';
import type { Clock } from '../shared/clock.js';
import { failedOutcome } from './executors/job-outcome.js';
import type { QueueConnections } from './queue-connections.js';
import type { ExecutionOutcome } from './run-types.js';

/**
 * What the queue job carries, whatever the system: the run's identity and the manifest's
 * `payload` (validated free of secrets). Nothing of the runner's environment: a queue job has no
 * `fromEnv` fields, so no secret value can reach a queue row.
 */
export interface QueuePayload {
  scheduleRunId: number;
  attempt: number;
  idempotencyKey: string;
  schedule: string;
  businessDate: string | null;
  scheduledFor: string;
  trigger: string;
  payload: Record<string, unknown>;
}

export type HandOffResult = { handedOff: true; externalJobId: string | null; deliveryError?: string } | { handedOff: false; outcome: ExecutionOutcome } | { handedOff: false; leaseLost: true };

export interface HandOffSettings {
  runnerId: string;
  clock: Clock;
  /** How far each report of the worker extends the run's lease: the runner's own lease length. */
  leaseMs: number;
  /** Pools of queues in other databases (`url`); required for such a job. */
  queueConnections?: QueueConnections;
  /** Test seam: called between the queue's insert and the record of its job id. */
  afterQueueInsert?: () => Promise<void>;
}

export function queuePayloadOf(run: ClaimedRun, definition: Definition): QueuePayload {
  return {
    scheduleRunId: run.id,
    attempt: run.attempt,
    idempotencyKey: run.idempotencyKey,
    schedule: run.scheduleName,
    businessDate: run.businessDate,
    scheduledFor: run.scheduledFor.toISOString(),
    trigger: run.triggerType,
    payload: definition.payload,
  };
}

/**
 * The key the queue deduplicates by: the run's idempotency key for its first attempt, and
 * `<key>#<attempt>` for a retry, which must be a new job (the failed one may still sit in the
 * queue, and would otherwise swallow the retry). A repeated hand-off of one attempt reuses its key.
 */
export function queueJobKeyOf(run: Pick<ClaimedRun, 'idempotencyKey' | 'attempt'>): string {
  return run.attempt === 1 ? run.idempotencyKey : `${run.idempotencyKey}#${run.attempt}`;
}

/** pg-boss takes a caller's job id: one derived from the job key makes its insert idempotent. */
export function pgBossJobIdOf(jobKey: string): string {
  const hex = createHash('sha256').update(`cronform:${jobKey}`).digest('hex');
  // RFC 4122 layout, version 8 (custom) and the variant bits set, so it is a valid uuid anywhere.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export async function handOffClaimedRun(database: Database, run: ClaimedRun, definition: Definition, job: QueueJobDefinition, settings: HandOffSettings): Promise<HandOffResult> {
  const startedMs = settings.clock.nowMs();
  if (database.engine === 'pglite' && job.system !== 'sql' && job.url === undefined) {
    return { handedOff: false, outcome: failedOutcome(`${job.system} needs PostgreSQL: this runner uses the embedded PGlite database, which cannot host ${job.system}; set DATABASE_URL (docs/queue-handoff.md)`, 0) };
  }
  const payload = queuePayloadOf(run, definition);
  const jobKey = queueJobKeyOf(run);
  if (job.url !== undefined) return handOffToOtherDatabase(database, run, definition, { ...job, url: job.url }, settings, payload, jobKey, startedMs);
  try {
    const result = await database.db.transaction(async (tx) => {
      if (!(await lockRunForHandOff(tx, settings.runnerId, { runId: run.id, attempt: run.attempt }))) return { leaseLost: true as const };
      const externalJobId = await enqueue(tx, job, payload, jobKey);
      const handedOffMs = settings.clock.nowMs();
      const recorded = await recordHandOff(tx, settings.runnerId, {
        runId: run.id,
        attempt: run.attempt,
        system: job.system,
        target: describeQueueTarget(job),
        jobKey,
        externalJobId,
        handedOffAt: new Date(handedOffMs),
        // The timeout counts from the claim, as a local attempt's does from its start.
        deadlineAt: new Date(startedMs + definition.timeoutMs),
        heartbeatLeaseMs: settings.leaseMs,
      });
      if (!recorded) throw new Error('the run moved on while it was being handed off');
      return { externalJobId };
    });
    if ('leaseLost' in result) return { handedOff: false, leaseLost: true };
    return { handedOff: true, externalJobId: result.externalJobId };
  } catch (error) {
    // Rolled back: no queue job, no record. The attempt fails and the run retries per its policy.
    const message = error instanceof Error ? error.message : String(error);
    return { handedOff: false, outcome: failedOutcome(`hand-off to ${describeQueueTarget(job)} failed: ${message}`, settings.clock.nowMs() - startedMs) };
  }
}

async function enqueue(tx: Executor, job: QueueJobDefinition, payload: QueuePayload, jobKey: string): Promise<string | null> {
  switch (job.system) {
    case 'graphile-worker':
      return addGraphileWorkerJob(tx, { task: job.task, payload, queueName: job.queueName ?? null, priority: job.priority ?? null, maxAttempts: job.maxAttempts, jobKey });
    case 'pg-boss':
      return sendPgBossJob(tx, job, payload, jobKey);
    case 'sql': {
      const args = Object.entries(job.arguments).map(([name, source]) => ({ name, source, value: source === 'document' ? payload : payload[source] }));
      return callEnqueueFunction(tx, job.function, args, payload);
    }
  }
}

const PG_BOSS_SCHEMA = 'pgboss';
let pgBossClient: Promise<{ send(name: string, data: unknown, options: Record<string, unknown>): Promise<string | null> }> | undefined;

/**
 * pg-boss's own `send`, on this transaction (its `db` option), with `singletonKey` = the job key
 * and a job id derived from it. pg-boss is the team's dependency, loaded only when a pg-boss job
 * is handed off; the instance is never started (no maintenance, no polling: only its insert).
 * send() answers null both for a job it deduplicated and for a queue that does not exist, so a
 * null is told apart by looking for the job id.
 */
async function sendPgBossJob(tx: Executor, job: Extract<QueueJobDefinition, { system: 'pg-boss' }>, payload: QueuePayload, jobKey: string): Promise<string> {
  // A specifier in a variable: pg-boss is not cronform's dependency, so the compiler must not look for it.
  const specifier = 'pg-boss';
  pgBossClient ??= import(specifier).then(
    (module) => {
      const PgBoss = (module as { default: new (options: unknown) => never }).default;
      return new PgBoss({ db: { executeSql: () => Promise.reject(new Error('pg-boss used outside a hand-off')) }, schema: PG_BOSS_SCHEMA });
    },
    (error: unknown) => {
      pgBossClient = undefined;
      throw new Error(`pg-boss is not installed where cronform runs (${(error as Error).message})`);
    },
  );
  const boss = await pgBossClient;
  const id = pgBossJobIdOf(jobKey);
  const { expireInSeconds, ...options } = job.options;
  const sent = await boss.send(job.name, payload, { ...options, ...(expireInSeconds !== undefined ? { expireInSeconds } : {}), id, singletonKey: jobKey, db: pgBossDatabaseOn(tx) });
  if (sent !== null) return sent;
  if (await findPgBossJob(tx, PG_BOSS_SCHEMA, job.name, id)) return id;
  throw new Error(`pg-boss queue ${JSON.stringify(job.name)} does not exist (create it with boss.createQueue) or refused the job`);
}

/**
 * A queue in another database: no transaction spans both, so the hand-off is an outbox.
 * (a) In cronform's database, under this runner's lease: the run is handed off (its lease the
 * queue's, up to the attempt's deadline) and the intended job recorded (key, target, request).
 * The lease moves now, not at (c): a worker may pick the job up the moment it is inserted, and its
 * reports must be taken. (b) The job is inserted in the queue's database with the job key. (c) Its
 * id is recorded. A crash or an error after (a) leaves the delivery open; it is delivered again
 * (redeliverHandOffs, by any runner) with the SAME key, which the queue deduplicates, so the
 * attempt never gets a second job. Only a failure before (a) fails the attempt.
 */
async function handOffToOtherDatabase(
  database: Database,
  run: ClaimedRun,
  definition: Definition,
  job: QueueJobDefinition & { url: { fromEnv: string } },
  settings: HandOffSettings,
  payload: QueuePayload,
  jobKey: string,
  startedMs: number,
): Promise<HandOffResult> {
  const connections = settings.queueConnections;
  const fail = (message: string): HandOffResult => ({ handedOff: false, outcome: failedOutcome(`hand-off to ${describeQueueTarget(job)} failed: ${message}`, settings.clock.nowMs() - startedMs) });
  if (!connections) return fail('this runner has no connections to other queue databases');
  try {
    // Before (a): an unset variable, a wrong URL or password, a database that is down fail the
    // attempt cleanly (retried per the schedule's policy) instead of leaving a delivery open
    // until the timeout.
    await probeQueueDatabase((await connections.get(job.url.fromEnv)).db);
  } catch (error) {
    return fail(connections.scrub(job.url.fromEnv, databaseErrorMessage(error)));
  }
  try {
    const recorded = await database.db.transaction(async (tx) => {
      if (!(await lockRunForHandOff(tx, settings.runnerId, { runId: run.id, attempt: run.attempt }))) return false;
      const handedOffMs = settings.clock.nowMs();
      const ok = await recordHandOff(tx, settings.runnerId, {
        runId: run.id,
        attempt: run.attempt,
        system: job.system,
        target: describeQueueTarget(job),
        jobKey,
        externalJobId: null,
        handedOffAt: new Date(handedOffMs),
        deadlineAt: new Date(startedMs + definition.timeoutMs),
        heartbeatLeaseMs: settings.leaseMs,
      });
      if (!ok) throw new Error('the run moved on while it was being handed off');
      await recordDeliveryIntent(tx, { runId: run.id, attempt: run.attempt, urlFromEnv: job.url.fromEnv, request: { job, payload } });
      return true;
    });
    if (!recorded) return { handedOff: false, leaseLost: true };
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  const delivered = await deliver(database, connections, { runId: run.id, attempt: run.attempt, job, payload, jobKey }, settings);
  return { handedOff: true, externalJobId: delivered.externalJobId, ...(delivered.error !== undefined ? { deliveryError: delivered.error } : {}) };
}

/** (b) and (c): the insert with the job key, then the record of the queue's job id. Never throws. */
async function deliver(
  database: Database,
  connections: QueueConnections,
  delivery: { runId: number; attempt: number; job: QueueJobDefinition & { url: { fromEnv: string } }; payload: QueuePayload; jobKey: string },
  settings: Pick<HandOffSettings, 'clock' | 'afterQueueInsert'>,
): Promise<{ externalJobId: string | null; error?: string }> {
  const { job } = delivery;
  try {
    const queue = await connections.get(job.url.fromEnv);
    const externalJobId = await queue.db.transaction((tx) => enqueue(tx, job, delivery.payload, delivery.jobKey));
    await settings.afterQueueInsert?.();
    await recordDelivered(database.db, { runId: delivery.runId, attempt: delivery.attempt, externalJobId, at: new Date(settings.clock.nowMs()) });
    return { externalJobId };
  } catch (error) {
    const message = connections.scrub(job.url.fromEnv, databaseErrorMessage(error));
    await recordDeliveryFailure(database.db, { runId: delivery.runId, attempt: delivery.attempt, error: message, at: new Date(settings.clock.nowMs()) }).catch(() => undefined);
    return { externalJobId: null, error: message };
  }
}

export interface RedeliverySettings {
  clock: Clock;
  queueConnections: QueueConnections;
  /** A delivery is retried once nobody has tried it for this long (the hand-off in progress is given that long). */
  retryAfterMs: number;
  limit?: number;
  afterQueueInsert?: () => Promise<void>;
}

/**
 * Deliveries left open by a crash or an error between (a) and (c), delivered again with the same
 * job key: the queue returns the job already inserted (graphile-worker `unsafe_dedupe`, pg-boss's
 * job id; a `sql` function must be idempotent on the key) and its id is recorded. Run by each
 * runner's reconcile tick; two runners at once insert nothing twice and record the id once.
 */
export async function redeliverHandOffs(database: Database, settings: RedeliverySettings): Promise<{ delivered: number; failed: number }> {
  const nowMs = settings.clock.nowMs();
  const pending = await listPendingDeliveries(database.db, { triedBefore: new Date(nowMs - settings.retryAfterMs), limit: settings.limit ?? 100 });
  let delivered = 0;
  let failed = 0;
  for (const open of pending) {
    const job = open.request.job as QueueJobDefinition & { url: { fromEnv: string } };
    const result = await deliver(database, settings.queueConnections, { runId: open.runId, attempt: open.attempt, job, payload: open.request.payload as QueuePayload, jobKey: open.jobKey }, settings);
    if (result.error === undefined) delivered += 1;
    else failed += 1;
  }
  return { delivered, failed };
}

/** The driver's message rather than drizzle's "Failed query: <statement>" wrapper around it. */
function databaseErrorMessage(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

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
import { addGraphileWorkerJob, callEnqueueFunction, findPgBossJob, lockRunForHandOff, pgBossDatabaseOn, recordHandOff } from '../db/queue-handoff-queries.js';
import type { ClaimedRun } from '../db/worker-queries.js';
import type { Clock } from '../shared/clock.js';
import { failedOutcome } from './executors/job-outcome.js';
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

export type HandOffResult = { handedOff: true; externalJobId: string | null } | { handedOff: false; outcome: ExecutionOutcome } | { handedOff: false; leaseLost: true };

export interface HandOffSettings {
  runnerId: string;
  clock: Clock;
  /** How far each report of the worker extends the run's lease: the runner's own lease length. */
  leaseMs: number;
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
  if (database.engine === 'pglite' && job.system !== 'sql') {
    return { handedOff: false, outcome: failedOutcome(`${job.system} needs PostgreSQL: this runner uses the embedded PGlite database, which cannot host ${job.system}; set DATABASE_URL (docs/queue-handoff.md)`, 0) };
  }
  const payload = queuePayloadOf(run, definition);
  const jobKey = queueJobKeyOf(run);
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

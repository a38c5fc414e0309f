/**
 * A queue in another database (docs/queue-handoff.md, "A queue in another database"): two real
 * PostgreSQL databases, cronform's and the queue's. The hand-off is an outbox: a failure after the
 * queue's insert and before the record of its id is delivered again with the same key, and the
 * queue (graphile-worker 0.17.3, pg-boss 10.4.2) deduplicates it: never a second job. The worker
 * reports to cronform's database; a hostile payload value stays a bound parameter of a sql job.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/compile/definition.js';
import { queryRows, type Database } from '../../src/db/client.js';
import { showRun } from '../../src/operations/runs/show-run.js';
import { triggerRun } from '../../src/operations/runs/trigger.js';
import { QueueConnections } from '../../src/runner/queue-connections.js';
import { Runner } from '../../src/runner/runner.js';
import { Worker } from '../../src/runner/worker.js';
import { ManualClock } from '../../src/shared/clock.js';
import { reportTo } from '../../src/worker/index.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';
import { createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../support/databases.js';

interface GraphileWorkerModule {
  run(options: Record<string, unknown>): Promise<{ stop(): Promise<void> }>;
  runMigrations(options: { connectionString: string }): Promise<void>;
  Logger: new (factory: () => () => void) => unknown;
}
interface PgBossInstance {
  on(event: 'error', listener: (error: Error) => void): void;
  start(): Promise<unknown>;
  stop(options: { graceful: boolean; wait: boolean }): Promise<void>;
  createQueue(name: string): Promise<void>;
}
const graphileWorkerName = 'graphile-worker';
const pgBossName = 'pg-boss';

const { source: _source, ...policy } = DEFAULT_POLICY;
const author = { actor: 'test', reason: null, gitSha: null };
const HOSTILE = `x'); drop table app.report_jobs; --`;
const MINUTE = 60_000;
const LEASE_MS = 30_000;

describe.runIf(postgresServerUrl)('queue hand-off to a queue in another PostgreSQL database', () => {
  let cronform: TestPostgres;
  let queue: TestPostgres;
  let setup: Database;
  let queueDb: Database;
  let cronformPool: pg.Pool;
  let boss: PgBossInstance;
  let graphileWorker: GraphileWorkerModule;
  const clock = new ManualClock(Date.now());
  const workers: Worker[] = [];
  const worker = () => {
    const created = new Worker(setup, { runnerId: 'runner-a', clock, concurrency: 10, leaseMs: LEASE_MS, killGraceMs: 200, baseDir: process.cwd(), env: { QUEUE_DATABASE_URL: queue.url } }, { ...policy, queues: { default: { concurrency: 100 } } });
    workers.push(created);
    return created;
  };
  const handOff = async (w: Worker) => {
    await w.claimAndStart();
    await w.waitForExecutions(30_000);
    await w.flushCompletions();
  };
  const trigger = async (name: string) => (await triggerRun(setup, { name, forceNew: true, nowMs: clock.nowMs(), author })).runId;
  const keyOf = async (runId: number) => (await queryRows<{ k: string }>(setup.db, sql`select idempotency_key as k from schedule_runs where id = ${runId}`))[0]!.k;
  const handOffRow = async (runId: number) =>
    (await queryRows<{ external_job_id: string | null; job_key: string; delivered: boolean; tries: number; last_error: string | null }>(
      setup.db,
      sql`select h.external_job_id, h.job_key, d.delivered_at is not null as delivered, d.tries, d.last_error from queue_handoffs h join queue_handoff_deliveries d using (run_id, attempt) where h.run_id = ${runId}`,
    ))[0]!;
  const runOf = async (id: number) => (await queryRows<{ status: string; lease_owner: string | null }>(setup.db, sql`select status, lease_owner from schedule_runs where id = ${id}`))[0]!;
  /** The failure between (b) and (c): cronform's database refuses the record of the job id once. */
  const refuseRecord = () => setup.db.execute(sql`create trigger refuse_record before update on queue_handoffs for each row execute function pg_temp_refuse()`);

  beforeAll(async () => {
    [cronform, queue] = await Promise.all([createPostgresDatabase(), createPostgresDatabase({ migrated: false })]);
    setup = await cronform.open();
    queueDb = await queue.open();
    cronformPool = new pg.Pool({ connectionString: cronform.url, max: 3 });
    graphileWorker = (await import(graphileWorkerName)) as GraphileWorkerModule;
    await graphileWorker.runMigrations({ connectionString: queue.url });
    const PgBoss = ((await import(pgBossName)) as { default: new (options: Record<string, unknown>) => PgBossInstance }).default;
    boss = new PgBoss({ connectionString: queue.url, supervise: false, schedule: false });
    boss.on('error', () => undefined);
    await boss.start();
    await boss.createQueue('reports');
    await queueDb.db.execute(sql`create schema app`);
    await queueDb.db.execute(sql`create table app.report_jobs (id bigserial primary key, idempotency_key text unique, document jsonb)`);
    // Idempotent on the key, as the docs require of a sql queue in another database.
    await queueDb.db.execute(sql`create function app.enqueue_report(idempotency_key text, document jsonb) returns bigint language sql as $$
      insert into app.report_jobs (idempotency_key, document) values (idempotency_key, document)
      on conflict (idempotency_key) do update set idempotency_key = excluded.idempotency_key returning id $$`);
    await setup.db.execute(sql`create function pg_temp_refuse() returns trigger language plpgsql as $$ begin raise exception 'record refused'; end $$`);
    const url = { fromEnv: 'QUEUE_DATABASE_URL' };
    await applyManifests(
      setup,
      {
        'gw.yaml': scheduleManifest('gw-remote', { cron: '0 0 1 1 *', job: { type: 'queue', system: 'graphile-worker', task: 'report', url }, timeout: '10m', payload: { project: 'platform' } }),
        'boss.yaml': scheduleManifest('boss-remote', { cron: '0 0 1 1 *', job: { type: 'queue', system: 'pg-boss', name: 'reports', url }, timeout: '10m' }),
        'sql.yaml': scheduleManifest('sql-remote', {
          cron: '0 0 1 1 *',
          job: { type: 'queue', system: 'sql', function: 'app.enqueue_report', arguments: { idempotency_key: 'idempotencyKey', document: 'document' }, url },
          timeout: '10m',
          payload: { note: HOSTILE, [HOSTILE]: HOSTILE },
        }),
      },
      clock.nowMs() - MINUTE,
    );
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.closeQueueConnections()));
    await boss?.stop({ graceful: false, wait: true }).catch(() => undefined);
    await cronformPool?.end().catch(() => undefined);
    await cronform?.drop();
    await queue?.drop();
  });

  it('hands a graphile-worker job off once even when recording its id failed, and takes the worker’s SUCCESS', async () => {
    const runId = await trigger('gw-remote');
    const key = await keyOf(runId);
    const w = worker();
    await refuseRecord();
    await handOff(w);
    await setup.db.execute(sql`drop trigger refuse_record on queue_handoffs`);
    // The job is in the queue's database; cronform has the intent, not the id, and the run is the queue's.
    const jobs = () => queryRows<{ id: string; payload: { scheduleRunId: number; attempt: number } }>(queueDb.db, sql`select id::text, payload from graphile_worker._private_jobs where key = ${key}`);
    expect(await jobs()).toHaveLength(1);
    expect(await handOffRow(runId)).toMatchObject({ external_job_id: null, job_key: key, delivered: false, tries: 1, last_error: expect.stringContaining('record refused') });
    expect(await runOf(runId)).toEqual({ status: 'RUNNING', lease_owner: 'queue:graphile-worker' });
    expect((await showRun(setup, runId)).attemptDetails[0]!.handOff).toMatchObject({
      target: 'graphile-worker task report in database $QUEUE_DATABASE_URL',
      externalJobId: null,
      delivery: { urlFromEnv: 'QUEUE_DATABASE_URL', delivered: false, tries: 1, lastError: expect.stringContaining('record refused') },
    });

    // Not before the runner handing off has had its lease; then again, with the same key.
    expect(await w.redeliverHandOffs()).toEqual({ delivered: 0, failed: 0 });
    clock.advance(LEASE_MS + 1_000);
    expect(await w.redeliverHandOffs()).toEqual({ delivered: 1, failed: 0 });
    const after = await jobs();
    expect(after).toHaveLength(1);
    expect(after[0]!.payload).toMatchObject({ scheduleRunId: runId, attempt: 1 });
    expect(await handOffRow(runId)).toMatchObject({ external_job_id: after[0]!.id, delivered: true, last_error: null });
    expect(await w.redeliverHandOffs()).toEqual({ delivered: 0, failed: 0 });

    // The worker runs on the queue's database and reports to cronform's.
    const runner = await graphileWorker.run({
      connectionString: queue.url,
      concurrency: 1,
      noHandleSignals: true,
      logger: new graphileWorker.Logger(() => () => undefined),
      pollInterval: 100,
      taskList: { report: reportTo(cronformPool, async () => undefined) },
    });
    try {
      await waitFor(async () => (await runOf(runId)).status === 'SUCCESS');
    } finally {
      await runner.stop();
    }
  });

  it('hands a pg-boss job off once when recording its id failed', async () => {
    const runId = await trigger('boss-remote');
    const key = await keyOf(runId);
    const w = worker();
    await refuseRecord();
    await handOff(w);
    await setup.db.execute(sql`drop trigger refuse_record on queue_handoffs`);
    const jobs = () => queryRows<{ id: string }>(queueDb.db, sql`select id::text from pgboss.job where name = 'reports' and singleton_key = ${key}`);
    expect(await jobs()).toHaveLength(1);
    expect(await handOffRow(runId)).toMatchObject({ external_job_id: null, delivered: false });
    clock.advance(LEASE_MS + 1_000);
    expect(await w.redeliverHandOffs()).toEqual({ delivered: 1, failed: 0 });
    const after = await jobs();
    expect(after).toHaveLength(1);
    expect(await handOffRow(runId)).toMatchObject({ external_job_id: after[0]!.id, delivered: true });
    expect(await runOf(runId)).toEqual({ status: 'RUNNING', lease_owner: 'queue:pg-boss' });
  });

  it('passes a hostile payload value to a sql function in the other database only as a bound parameter', async () => {
    const runId = await trigger('sql-remote');
    await handOff(worker());
    const rows = await queryRows<{ id: string; document: { payload: Record<string, string> } }>(queueDb.db, sql`select id::text, document from app.report_jobs`);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.document.payload).toEqual({ note: HOSTILE, [HOSTILE]: HOSTILE });
    expect(await handOffRow(runId)).toMatchObject({ external_job_id: rows[0]!.id, delivered: true, tries: 1 });
    // Nothing of the queue database's URL is stored in cronform's: only the variable's name.
    const stored = await queryRows<{ text: string }>(setup.db, sql`select url_from_env || request::text as text from queue_handoff_deliveries`);
    expect(stored.some((row) => row.text.includes(queue.url))).toBe(false);
  });

  it("delivers an open hand-off again from a runner's reconcile tick, and closes the queue pools at stop", async () => {
    const runId = await trigger('boss-remote');
    const key = await keyOf(runId);
    const runner = new Runner(setup, { clock, concurrency: 2, leaseMs: LEASE_MS, reconcileIntervalMs: 1_000, killGraceMs: 200, baseDir: process.cwd(), env: { QUEUE_DATABASE_URL: queue.url }, runnerId: 'runner-loop' });
    await refuseRecord();
    try {
      await runner.tick();
      await runner.worker.waitForExecutions(30_000);
      await runner.worker.flushCompletions();
    } finally {
      await setup.db.execute(sql`drop trigger refuse_record on queue_handoffs`);
    }
    expect(await handOffRow(runId)).toMatchObject({ external_job_id: null, delivered: false });
    clock.advance(LEASE_MS + 1_000);
    await runner.tick();
    const jobs = await queryRows<{ id: string }>(queueDb.db, sql`select id::text from pgboss.job where singleton_key = ${key}`);
    expect(jobs).toHaveLength(1);
    expect(await handOffRow(runId)).toMatchObject({ external_job_id: jobs[0]!.id, delivered: true });
    await runner.stop();
  });

  it('keeps one pool per distinct URL and closes them all', async () => {
    const connections = new QueueConnections({ A: queue.url, B: queue.url, C: cronform.url });
    const [a, b, c] = [await connections.get('A'), await connections.get('B'), await connections.get('C')];
    expect(a).toBe(b);
    expect(c).not.toBe(a);
    await a.db.execute(sql`select 1`);
    await connections.close();
    await expect(a.db.execute(sql`select 1`)).rejects.toThrow();
    await expect(connections.get('A')).rejects.toThrow(/stopping/);
  });

  it('fails the attempt before anything is recorded when the variable is unset or the database unreachable', async () => {
    const runId = await trigger('gw-remote');
    const w = new Worker(setup, { runnerId: 'runner-b', clock, concurrency: 1, leaseMs: LEASE_MS, killGraceMs: 200, baseDir: process.cwd(), env: {} }, { ...policy, queues: { default: { concurrency: 100 } } });
    workers.push(w);
    await handOff(w);
    expect((await runOf(runId)).status).toBe('FAILED');
    const [attempt] = await queryRows<{ error: string }>(setup.db, sql`select error from run_attempts where run_id = ${runId}`);
    expect(attempt!.error).toMatch(/environment variable QUEUE_DATABASE_URL is not set/);
    expect(await queryRows(setup.db, sql`select 1 from queue_handoffs where run_id = ${runId}`)).toHaveLength(0);

    // A database that cannot be reached: the attempt fails, nothing is promised, the URL stays out of the error.
    const badUrl = new URL(queue.url);
    badUrl.password = 'hunter2-queue-secret';
    badUrl.pathname = '/cronform_no_such_queue_db';
    const unreachable = await trigger('boss-remote');
    const w2 = new Worker(setup, { runnerId: 'runner-c', clock, concurrency: 1, leaseMs: LEASE_MS, killGraceMs: 200, baseDir: process.cwd(), env: { QUEUE_DATABASE_URL: badUrl.toString() } }, { ...policy, queues: { default: { concurrency: 100 } } });
    workers.push(w2);
    await handOff(w2);
    expect((await runOf(unreachable)).status).toBe('FAILED');
    const [failed] = await queryRows<{ error: string }>(setup.db, sql`select error from run_attempts where run_id = ${unreachable}`);
    expect(failed!.error).toMatch(/^hand-off to pg-boss queue reports in database \$QUEUE_DATABASE_URL failed: .*cronform_no_such_queue_db/);
    expect(failed!.error).not.toContain('hunter2');
    expect(await queryRows(setup.db, sql`select 1 from queue_handoffs where run_id = ${unreachable}`)).toHaveLength(0);
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

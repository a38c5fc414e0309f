/**
 * Queue hand-off (docs/queue-handoff.md) against the real peers, graphile-worker 0.17.3 and
 * pg-boss 10.4.2, on real PostgreSQL: one queue job per slot whatever races, outcomes reported
 * by the helper and by the SQL functions, a silent worker leading to onStall, a failed insert
 * leaving the run retryable and no duplicate, and a hostile value staying a bound parameter.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/compile/definition.js';
import { queryRows, type Database } from '../../src/db/client.js';
import { retryRun } from '../../src/operations/runs/retry.js';
import { readScheduleStatus } from '../../src/operations/runs/schedule-status.js';
import { showRun } from '../../src/operations/runs/show-run.js';
import { triggerRun } from '../../src/operations/runs/trigger.js';
import { handOffClaimedRun } from '../../src/runner/queue-handoff.js';
import { runReconcileTick } from '../../src/runner/reconciler.js';
import { runSchedulerTick } from '../../src/runner/scheduler.js';
import { Worker } from '../../src/runner/worker.js';
import { ManualClock } from '../../src/shared/clock.js';
import { reportTo } from '../../src/worker/index.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';
import { createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../support/databases.js';

/**
 * The peers are dev dependencies, loaded by name (and from CRONFORM_QUEUE_PEERS where the shared
 * node_modules lacks them, see vitest.config.ts); typed here by the little this test uses, so the
 * project typechecks whether or not they are installed.
 */
interface GraphileWorkerModule {
  run(options: Record<string, unknown>): Promise<{ stop(): Promise<void> }>;
  runMigrations(options: { connectionString: string }): Promise<void>;
  makeWorkerUtils(options: { connectionString: string }): Promise<{ withPgClient<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T>; release(): Promise<void> }>;
  Logger: new (factory: () => () => void) => unknown;
}
interface PgBossInstance {
  on(event: 'error', listener: (error: Error) => void): void;
  start(): Promise<unknown>;
  stop(options: { graceful: boolean; wait: boolean }): Promise<void>;
  createQueue(name: string): Promise<void>;
  work(name: string, options: Record<string, unknown>, handler: (jobs: unknown) => Promise<unknown>): Promise<string>;
  offWork(value: { id: string }): Promise<void>;
}
const graphileWorkerName = 'graphile-worker';
const pgBossName = 'pg-boss';
const loadGraphileWorker = async () => (await import(graphileWorkerName)) as GraphileWorkerModule;
const loadPgBoss = async () => ((await import(pgBossName)) as { default: new (options: Record<string, unknown>) => PgBossInstance }).default;

const { source: _source, ...policy } = DEFAULT_POLICY;
const author = { actor: 'test', reason: null, gitSha: null };
const HOSTILE = `x'); drop table app.report_jobs; --`;
const MINUTE = 60_000;

describe.runIf(postgresServerUrl)('queue hand-off with graphile-worker 0.17.3 and pg-boss 10.4.2 on PostgreSQL', () => {
  let server: TestPostgres;
  let setup: Database;
  let pool: pg.Pool;
  let boss: PgBossInstance;
  let graphileWorker: GraphileWorkerModule;
  // Real time: the report functions use the database's now(), which the runner's lease is compared with.
  const t0 = Math.floor(Date.now() / MINUTE) * MINUTE - 2 * MINUTE;
  const clock = new ManualClock(Date.now());
  const worker = (database: Database, runnerId: string) =>
    new Worker(database, { runnerId, clock, concurrency: 10, leaseMs: 30_000, killGraceMs: 200, baseDir: process.cwd(), env: {} }, { ...policy, queues: { default: { concurrency: 100 } } });
  const runOf = async (id: number) =>
    (await queryRows<{ status: string; attempts: number; lease_owner: string | null; status_reason: string | null }>(setup.db, sql`select status, attempts, lease_owner, status_reason from schedule_runs where id = ${id}`))[0]!;
  const trigger = async (name: string) => (await triggerRun(setup, { name, forceNew: true, nowMs: clock.nowMs(), author })).runId;
  const handOffAll = async (...workers: Worker[]) => {
    await Promise.all(workers.map((w) => w.claimAndStart()));
    await Promise.all(workers.map((w) => w.waitForExecutions(30_000)));
    await Promise.all(workers.map((w) => w.flushCompletions()));
  };
  const graphileJobs = (key: string) =>
    queryRows<{ id: string; payload: Record<string, unknown> }>(setup.db, sql`select id::text, payload from graphile_worker._private_jobs where key like ${`${key}%`} order by id`);

  beforeAll(async () => {
    server = await createPostgresDatabase();
    setup = await server.open();
    pool = new pg.Pool({ connectionString: server.url, max: 4 });
    graphileWorker = await loadGraphileWorker();
    await graphileWorker.runMigrations({ connectionString: server.url });
    const PgBoss = await loadPgBoss();
    boss = new PgBoss({ connectionString: server.url, supervise: false, schedule: false });
    boss.on('error', () => undefined);
    await boss.start();
    await boss.createQueue('reports');
    await setup.db.execute(sql`create schema app`);
    await setup.db.execute(sql`create table app.report_jobs (id bigserial primary key, idempotency_key text unique, business_date date, run_id bigint, document jsonb)`);
    await setup.db.execute(sql`create function app.enqueue_report(idempotency_key text, business_date date, run_id bigint, document jsonb) returns bigint language sql as
      $$ insert into app.report_jobs (idempotency_key, business_date, run_id, document) values (idempotency_key, business_date, run_id, document) returning id $$`);
    const queue = (job: Record<string, unknown>, spec: Record<string, unknown> = {}) => ({ job: { type: 'queue', ...job }, timeout: '10m', ...spec });
    await applyManifests(
      setup,
      {
        'gw.yaml': scheduleManifest('gw-slot', { cron: '* * * * *', ...queue({ system: 'graphile-worker', task: 'report', queueName: 'reports' }), payload: { project: 'platform' } }),
        'gw-retry.yaml': scheduleManifest('gw-retry', { cron: '0 0 1 1 *', ...queue({ system: 'graphile-worker', task: 'report' }), retry: { maxAttempts: 2, initialDelay: '1h' } }),
        'gw-fail.yaml': scheduleManifest('gw-fail', { cron: '0 0 1 1 *', ...queue({ system: 'graphile-worker', task: 'report' }) }),
        'stall-fail.yaml': scheduleManifest('stall-fail', { cron: '0 0 1 1 *', ...queue({ system: 'graphile-worker', task: 'report' }), onStall: 'fail' }),
        'stall-manual.yaml': scheduleManifest('stall-manual', { cron: '0 0 1 1 *', ...queue({ system: 'graphile-worker', task: 'report' }), onStall: 'manual' }),
        'boss.yaml': scheduleManifest('boss-slot', { cron: '* * * * *', ...queue({ system: 'pg-boss', name: 'reports' }) }),
        'boss-missing.yaml': scheduleManifest('boss-missing', { cron: '0 0 1 1 *', ...queue({ system: 'pg-boss', name: 'no-such-queue' }), retry: { maxAttempts: 2, initialDelay: '1h' } }),
        'sql.yaml': scheduleManifest('sql-job', {
          cron: '0 0 1 1 *',
          ...queue({ system: 'sql', function: 'app.enqueue_report', arguments: { idempotency_key: 'idempotencyKey', business_date: 'businessDate', run_id: 'scheduleRunId', document: 'document' } }),
          payload: { note: HOSTILE, [HOSTILE]: HOSTILE },
        }),
      },
      t0,
    );
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false, wait: true }).catch(() => undefined);
    await pool?.end().catch(() => undefined);
    await server?.drop();
  });

  it('turns a slot into exactly one graphile-worker job with two runners, and a repeated hand-off into none', async () => {
    const [a, b] = [await server.open({ maxConnections: 3 }), await server.open({ maxConnections: 3 })];
    // Both runners schedule the same slot and race to hand it off.
    await Promise.all([a, b].map((database) => runSchedulerTick(database, { nowMs: t0 + MINUTE + 5, policy })));
    const [runA, runB] = [worker(a, 'runner-a'), worker(b, 'runner-b')];
    await handOffAll(runA, runB);
    const runs = await queryRows<{ id: string; idempotency_key: string; status: string; lease_owner: string }>(
      setup.db,
      sql`select r.id::text, r.idempotency_key, r.status, r.lease_owner from schedule_runs r join schedules s on s.id = r.schedule_id where s.name = 'gw-slot'`,
    );
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'RUNNING', lease_owner: 'queue:graphile-worker' });
    const jobs = await graphileJobs(runs[0]!.idempotency_key);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.payload).toEqual({
      scheduleRunId: Number(runs[0]!.id),
      attempt: 1,
      idempotencyKey: runs[0]!.idempotency_key,
      schedule: 'gw-slot',
      businessDate: expect.any(String),
      scheduledFor: new Date(t0 + MINUTE).toISOString(),
      trigger: 'SCHEDULED',
      payload: { project: 'platform' },
    });
    const [handoff] = await queryRows<{ external_job_id: string; job_key: string }>(setup.db, sql`select external_job_id, job_key from queue_handoffs where run_id = ${Number(runs[0]!.id)}`);
    expect(handoff).toEqual({ external_job_id: jobs[0]!.id, job_key: runs[0]!.idempotency_key });

    // The same attempt handed off again (a runner that missed the commit): the lease is the
    // queue's now, so nothing happens; and graphile-worker itself dedupes the key.
    const claimed = { id: Number(runs[0]!.id), scheduleId: 0, scheduleName: 'gw-slot', scheduleVersion: 1, scheduledFor: new Date(t0 + MINUTE), slot: new Date(t0 + MINUTE).toISOString(), triggerType: 'SCHEDULED' as const, idempotencyKey: runs[0]!.idempotency_key, businessDate: null, attempt: 1, maxAttempts: 1, queue: 'default', priority: 2, claimedAt: new Date(), openedRunning: true, leaseExpiresAt: new Date() };
    const definition = { payload: {}, timeoutMs: 600_000 } as never;
    expect(await handOffClaimedRun(a, claimed, definition, { type: 'queue', system: 'graphile-worker', task: 'report', queueName: 'reports', maxAttempts: 1 }, { runnerId: 'runner-a', clock, leaseMs: 30_000 })).toEqual({ handedOff: false, leaseLost: true });
    const utils = await graphileWorker.makeWorkerUtils({ connectionString: server.url });
    try {
      await utils.withPgClient((client) => client.query(`select graphile_worker.add_job('report', '{}'::json, job_key => $1, job_key_mode => 'unsafe_dedupe')`, [runs[0]!.idempotency_key]));
    } finally {
      await utils.release();
    }
    expect(await graphileJobs(runs[0]!.idempotency_key)).toHaveLength(1);
  });

  it('turns a slot into exactly one pg-boss job with two runners', async () => {
    const [a, b] = [await server.open({ maxConnections: 3 }), await server.open({ maxConnections: 3 })];
    await Promise.all([a, b].map((database) => runSchedulerTick(database, { nowMs: t0 + MINUTE + 5, policy })));
    await handOffAll(worker(a, 'runner-a'), worker(b, 'runner-b'));
    const [run] = await queryRows<{ id: string; idempotency_key: string; lease_owner: string }>(
      setup.db,
      sql`select r.id::text, r.idempotency_key, r.lease_owner from schedule_runs r join schedules s on s.id = r.schedule_id where s.name = 'boss-slot'`,
    );
    expect(run?.lease_owner).toBe('queue:pg-boss');
    const jobs = await queryRows<{ id: string; singleton_key: string; data: Record<string, unknown> }>(setup.db, sql`select id::text, singleton_key, data from pgboss.job where name = 'reports'`);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ singleton_key: run!.idempotency_key, data: { scheduleRunId: Number(run!.id), idempotencyKey: run!.idempotency_key } });
  });

  it("reports a graphile-worker task's success and a pg-boss handler's failure through reportTo", async () => {
    const [gwRun] = await queryRows<{ id: string }>(setup.db, sql`select r.id::text from schedule_runs r join schedules s on s.id = r.schedule_id where s.name = 'gw-slot'`);
    const [bossRun] = await queryRows<{ id: string }>(setup.db, sql`select r.id::text from schedule_runs r join schedules s on s.id = r.schedule_id where s.name = 'boss-slot'`);
    const seen: unknown[] = [];
    const runner = await graphileWorker.run({
      connectionString: server.url,
      concurrency: 1,
      noHandleSignals: true,
      logger: new graphileWorker.Logger(() => () => undefined),
      pollInterval: 100,
      taskList: { report: reportTo(pool, async (run) => void seen.push(run.idempotencyKey)) },
    });
    const bossWorker = await boss.work('reports', { pollingIntervalSeconds: 0.5 }, reportTo(pool, async () => {
      throw new Error('report generator crashed');
    }));
    try {
      await waitFor(async () => (await runOf(Number(gwRun!.id))).status === 'SUCCESS' && (await runOf(Number(bossRun!.id))).status === 'FAILED');
    } finally {
      await runner.stop();
      await boss.offWork({ id: bossWorker });
    }
    expect(seen).toHaveLength(1);
    const attempts = await queryRows<{ run_id: string; status: string; error: string | null }>(
      setup.db,
      sql`select run_id::text, status, error from run_attempts where run_id in (${Number(gwRun!.id)}, ${Number(bossRun!.id)}) order by run_id`,
    );
    expect(Object.fromEntries(attempts.map((a) => [a.run_id, a]))).toEqual({
      [gwRun!.id]: { run_id: gwRun!.id, status: 'SUCCEEDED', error: null },
      [bossRun!.id]: { run_id: bossRun!.id, status: 'FAILED', error: 'report generator crashed' },
    });
    const [handoff] = await queryRows<{ started: boolean; finished: boolean }>(setup.db, sql`select started_at is not null as started, finished_at is not null as finished from queue_handoffs where run_id = ${Number(gwRun!.id)}`);
    expect(handoff).toEqual({ started: true, finished: true });
  });

  it('takes outcomes reported with the SQL functions, per retry policy, and ignores stale or repeated reports', async () => {
    const runId = await trigger('gw-retry');
    await handOffAll(worker(setup, 'runner-a'));
    const report = async (text: string, values: unknown[]) => (await pool.query(text, values)).rows[0] as Record<string, unknown>;
    expect(await report('select cronform.run_started($1) as ok', [runId])).toEqual({ ok: true });
    expect(await report('select cronform.run_heartbeat($1, 2) as ok', [runId])).toEqual({ ok: false });
    expect(await report(`select cronform.run_finished($1, 'FAILED', 'disk full') as status`, [runId])).toEqual({ status: 'RETRY_PENDING' });
    expect(await report(`select cronform.run_finished($1, 'SUCCESS') as status`, [runId])).toEqual({ status: null });
    expect(await runOf(runId)).toMatchObject({ status: 'RETRY_PENDING', attempts: 1, lease_owner: null });
    // The retry (due in 1h) is a new queue job under its own key; a report for attempt 1 is ignored.
    clock.advance(61 * MINUTE);
    await handOffAll(worker(setup, 'runner-a'));
    const [{ idempotency_key: key }] = await queryRows<{ idempotency_key: string }>(setup.db, sql`select idempotency_key from schedule_runs where id = ${runId}`) as [{ idempotency_key: string }];
    expect((await graphileJobs(key)).length).toBe(2);
    expect(await report(`select cronform.run_finished($1, 'SUCCESS', null, 1) as status`, [runId])).toEqual({ status: null });
    expect(await report(`select cronform.run_finished($1, 'SUCCESS', null, 2) as status`, [runId])).toEqual({ status: 'SUCCESS' });
    expect(await runOf(runId)).toMatchObject({ status: 'SUCCESS', attempts: 2 });
    await expect(pool.query(`select cronform.run_finished($1, 'DONE')`, [runId])).rejects.toThrow(/status must be SUCCESS or FAILED/);

    const failing = await trigger('gw-fail');
    await handOffAll(worker(setup, 'runner-a'));
    expect(await report(`select cronform.run_finished($1, 'FAILED', 'no data') as status`, [failing])).toEqual({ status: 'FAILED' });
  });

  it("leads a handed-off run whose worker went silent to its onStall outcome once the lease expires", async () => {
    const started = await trigger('stall-fail');
    const neverPicked = await trigger('stall-manual');
    await handOffAll(worker(setup, 'runner-a'));
    // The worker starts (its lease is now 30 s from the report), then dies without a word.
    await pool.query('select cronform.run_started($1)', [started]);
    // status lists both with the queue's job id, and which one the worker has reported on.
    const { handedOff } = await readScheduleStatus(setup, { nowMs: clock.nowMs() });
    const jobIds = await queryRows<{ run_id: string; external_job_id: string }>(setup.db, sql`select run_id::text, external_job_id from queue_handoffs where run_id in (${started}, ${neverPicked})`);
    expect(handedOff!.map((h) => ({ runId: h.runId, externalJobId: h.externalJobId, reported: h.lastReportAt !== null }))).toEqual(
      [started, neverPicked].map((runId) => ({ runId, externalJobId: jobIds.find((j) => j.run_id === String(runId))!.external_job_id, reported: runId === started })),
    );
    const nowMs = Date.now();
    await runReconcileTick(setup, { nowMs: nowMs + 5_000, runnerSilenceMs: 60_000 });
    expect((await runOf(started)).status).toBe('RUNNING');
    await runReconcileTick(setup, { nowMs: nowMs + 31_000, runnerSilenceMs: 60_000 });
    expect(await runOf(started)).toMatchObject({ status: 'FAILED', status_reason: 'STALLED' });
    const [stalled] = await queryRows<{ status: string; error: string }>(setup.db, sql`select status, error from run_attempts where run_id = ${started}`);
    expect(stalled).toEqual({ status: 'STALLED', error: 'lease expired: the queue worker did not report (died, hung, or never picked the job up before the timeout)' });
    // Never picked up: the lease runs to the attempt's timeout (10m), then onStall applies (after the 1 s stop margin).
    expect((await runOf(neverPicked)).status).toBe('RUNNING');
    await runReconcileTick(setup, { nowMs: clock.nowMs() + 10 * MINUTE + 2_000, runnerSilenceMs: 60_000 });
    expect(await runOf(neverPicked)).toMatchObject({ status: 'MANUAL_REQUIRED', status_reason: 'STALLED' });
    // A late report from the dead worker changes nothing.
    expect((await pool.query(`select cronform.run_finished($1, 'SUCCESS') as status`, [started])).rows[0]).toEqual({ status: null });
  });

  it('leaves a run whose queue insert failed retryable, with no queue job, and hands off the retry once', async () => {
    const runId = await trigger('boss-missing');
    await handOffAll(worker(setup, 'runner-a'));
    expect(await runOf(runId)).toMatchObject({ status: 'RETRY_PENDING', attempts: 1, lease_owner: null });
    const [attempt] = await queryRows<{ error: string }>(setup.db, sql`select error from run_attempts where run_id = ${runId}`);
    expect(attempt!.error).toMatch(/hand-off to pg-boss queue no-such-queue failed: .*does not exist/);
    expect(await queryRows(setup.db, sql`select 1 from queue_handoffs where run_id = ${runId}`)).toHaveLength(0);

    // The insert succeeds but the hand-off's own record fails: both roll back, no job is left.
    await boss.createQueue('no-such-queue');
    await setup.db.execute(sql`create function app.refuse_handoff() returns trigger language plpgsql as $$ begin raise exception 'record refused'; end $$`);
    await setup.db.execute(sql`create trigger refuse_handoff before insert on queue_handoffs for each row execute function app.refuse_handoff()`);
    clock.advance(61 * MINUTE);
    await handOffAll(worker(setup, 'runner-a'));
    await setup.db.execute(sql`drop trigger refuse_handoff on queue_handoffs`);
    expect(await runOf(runId)).toMatchObject({ status: 'FAILED', attempts: 2 });
    expect(await queryRows(setup.db, sql`select 1 from pgboss.job where name = 'no-such-queue'`)).toHaveLength(0);

    // retry <runId> makes a third attempt: exactly one job, under that attempt's key.
    await retryRun(setup, { runId, nowMs: clock.nowMs(), author });
    await handOffAll(worker(setup, 'runner-a'), worker(setup, 'runner-b'));
    const jobs = await queryRows<{ singleton_key: string }>(setup.db, sql`select singleton_key from pgboss.job where name = 'no-such-queue'`);
    expect(jobs).toEqual([{ singleton_key: expect.stringMatching(/#3$/) }]);
  });

  it('passes a hostile payload value to a sql job only as a bound parameter', async () => {
    const runId = await trigger('sql-job');
    await handOffAll(worker(setup, 'runner-a'));
    expect((await runOf(runId)).status).toBe('RUNNING');
    const rows = await queryRows<{ id: string; run_id: string; document: { payload: Record<string, string> } }>(setup.db, sql`select id::text, run_id::text, document from app.report_jobs`);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.run_id).toBe(String(runId));
    expect(rows[0]!.document.payload).toEqual({ note: HOSTILE, [HOSTILE]: HOSTILE });
    const [handoff] = await queryRows<{ external_job_id: string }>(setup.db, sql`select external_job_id from queue_handoffs where run_id = ${runId}`);
    expect(handoff!.external_job_id).toBe(rows[0]!.id);
    // runs show names the queue's job.
    const detail = await showRun(setup, runId);
    expect(detail.leaseOwner).toBe('queue:sql');
    expect(detail.attemptDetails[0]!.handOff).toMatchObject({ system: 'sql', target: 'sql app.enqueue_report(business_date => businessDate, document => document, idempotency_key => idempotencyKey, run_id => scheduleRunId)', externalJobId: rows[0]!.id, reportedStartAt: null });
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

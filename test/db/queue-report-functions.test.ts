/**
 * The report functions of a handed-off run on the embedded engine (docs/queue-handoff.md): a
 * graphile-worker or pg-boss hand-off fails clearly there, a `sql` one works, and
 * `cronform.run_finished` retries by the very rule of runner/policy/backoff.ts.
 */
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, type RetryDefinition } from '../../src/compile/definition.js';
import { queryRows, type Database } from '../../src/db/client.js';
import { triggerRun } from '../../src/operations/runs/trigger.js';
import { retryDelayMs } from '../../src/runner/policy/backoff.js';
import { Worker } from '../../src/runner/worker.js';
import { ManualClock } from '../../src/shared/clock.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';
import { createPgliteDatabase } from '../support/databases.js';

const { source: _source, ...policy } = DEFAULT_POLICY;
const author = { actor: 'test', reason: null, gitSha: null };

describe('queue hand-off on the embedded database', () => {
  let database: Database;
  const clock = new ManualClock(Date.now());
  const handOff = async () => {
    const worker = new Worker(database, { runnerId: 'runner-a', clock, concurrency: 5, leaseMs: 30_000, killGraceMs: 200, baseDir: process.cwd(), env: {} }, policy);
    await worker.claimAndStart();
    await worker.waitForExecutions(10_000);
    await worker.flushCompletions();
  };
  const runOf = async (id: number) => (await queryRows<{ status: string; attempts: number; lease_owner: string | null }>(database.db, sql`select status, attempts, lease_owner from schedule_runs where id = ${id}`))[0]!;

  beforeEach(async () => {
    database = await createPgliteDatabase();
    clock.set(Date.now());
    await database.db.execute(sql`create schema app`);
    await database.db.execute(sql`create table app.jobs (id serial primary key, document jsonb)`);
    await database.db.execute(sql`create function app.enqueue(document jsonb) returns integer language sql as $$ insert into app.jobs (document) values (document) returning id $$`);
  }, 60_000);
  afterEach(async () => {
    await database.close();
  });

  it('fails a graphile-worker hand-off with a clear error, and hands a sql job off', async () => {
    await applyManifests(
      database,
      {
        'gw.yaml': scheduleManifest('gw', { job: { type: 'queue', system: 'graphile-worker', task: 'report' }, cron: '0 3 * * *' }),
        'sql.yaml': scheduleManifest('sq', { job: { type: 'queue', system: 'sql', function: 'app.enqueue' }, cron: '0 3 * * *', timeout: '10m' }),
      },
      clock.nowMs(),
    );
    const gw = (await triggerRun(database, { name: 'gw', forceNew: false, nowMs: clock.nowMs(), author })).runId;
    const sq = (await triggerRun(database, { name: 'sq', forceNew: false, nowMs: clock.nowMs(), author })).runId;
    await handOff();
    expect(await runOf(gw)).toMatchObject({ status: 'FAILED', lease_owner: null });
    const [attempt] = await queryRows<{ error: string }>(database.db, sql`select error from run_attempts where run_id = ${gw}`);
    expect(attempt!.error).toBe('graphile-worker needs PostgreSQL: this runner uses the embedded PGlite database, which cannot host graphile-worker; set DATABASE_URL (docs/queue-handoff.md)');
    expect(await runOf(sq)).toMatchObject({ status: 'RUNNING', lease_owner: 'queue:sql' });
    const [job] = await queryRows<{ id: number; document: { scheduleRunId: number; attempt: number } }>(database.db, sql`select id, document from app.jobs`);
    expect(job!.document).toMatchObject({ scheduleRunId: sq, attempt: 1 });
    const [finished] = await queryRows<{ status: string }>(database.db, sql`select cronform.run_finished(${sq}, 'SUCCESS', null, 1) as status`);
    expect(finished!.status).toBe('SUCCESS');
  });

  it.each<RetryDefinition & { name: string }>([
    { name: 'exponential', maxAttempts: 5, backoff: 'exponential', initialDelayMs: 7_000, maxDelayMs: 40_000 },
    { name: 'fixed', maxAttempts: 3, backoff: 'fixed', initialDelayMs: 3_000, maxDelayMs: 600_000 },
  ])('run_finished(FAILED) waits out the $name backoff of runner/policy/backoff.ts, then fails', async (retry) => {
    const spec = { maxAttempts: retry.maxAttempts, backoff: retry.backoff, initialDelay: `${retry.initialDelayMs / 1000}s`, maxDelay: `${retry.maxDelayMs / 1000}s` };
    await applyManifests(database, { 'r.yaml': scheduleManifest('retried', { job: { type: 'queue', system: 'sql', function: 'app.enqueue' }, cron: '0 3 * * *', timeout: '1h', retry: spec }) }, clock.nowMs());
    const runId = (await triggerRun(database, { name: 'retried', forceNew: false, nowMs: clock.nowMs(), author })).runId;
    for (let attempt = 1; attempt <= retry.maxAttempts; attempt += 1) {
      await handOff();
      expect(await runOf(runId)).toMatchObject({ status: 'RUNNING', attempts: attempt });
      // One transaction: its now() is the one run_finished computed the retry time from.
      const row = await database.db.transaction(async (tx) => {
        const [finished] = await queryRows<{ status: string }>(tx, sql`select cronform.run_finished(${runId}, 'FAILED', 'boom') as status`);
        const [delay] = await queryRows<{ delay_ms: number }>(tx, sql`select round(extract(epoch from run_after - now()) * 1000)::int as delay_ms from schedule_runs where id = ${runId}`);
        return { status: finished!.status, delay_ms: delay!.delay_ms };
      });
      if (attempt < retry.maxAttempts) {
        expect(row).toEqual({ status: 'RETRY_PENDING', delay_ms: retryDelayMs(retry, attempt) });
        // The retry falls due by the database's clock; the runner's follows it past run_after.
        clock.set(Date.now() + retryDelayMs(retry, attempt) + 1_000);
      } else {
        expect(row!.status).toBe('FAILED');
      }
    }
    expect(await runOf(runId)).toMatchObject({ status: 'FAILED', attempts: retry.maxAttempts });
  });

  it('a SUCCESS reported through run_finished creates the dependents\' runs in its transaction; a FAILED none', async () => {
    await applyManifests(
      database,
      {
        'sq.yaml': scheduleManifest('sq', { job: { type: 'queue', system: 'sql', function: 'app.enqueue' }, cron: '0 3 * * *', timeout: '10m', overlap: 'ALLOW', businessDate: { offsetDays: -1 } }),
        'load.yaml': scheduleManifest('load', { after: [{ schedule: 'sq' }], overlap: 'ALLOW', priority: 'HIGH' }),
        'local.yaml': scheduleManifest('local', { cron: '0 3 * * *' }),
        'join.yaml': scheduleManifest('join', { after: [{ schedule: 'sq' }, { schedule: 'local' }], overlap: 'ALLOW' }),
      },
      clock.nowMs(),
    );
    const succeeded = (await triggerRun(database, { name: 'sq', forceNew: false, nowMs: clock.nowMs(), author })).runId;
    await handOff();
    const downstream = async () =>
      queryRows<{ name: string; status: string; trigger: string; slot: string; day: string | null; upstream: number; upstreams: Record<string, number>; priority: number }>(
        database.db,
        sql`select s.name, r.status, r.trigger_type as trigger, r.scheduled_for::text as slot, r.business_date::text as day, c.upstream_run_id::int as upstream, c.upstream_run_ids as upstreams, r.priority
            from schedule_runs r join schedules s on s.id = r.schedule_id join run_contexts c on c.run_id = r.id where r.trigger_type = 'DEPENDENCY' order by r.id`,
      );
    const [upstream] = await queryRows<{ slot: string; day: string }>(database.db, sql`select scheduled_for::text as slot, business_date::text as day from schedule_runs where id = ${succeeded}`);
    // Reported, and replayed: one downstream run of `load`, none of `join` (its other upstream has not run).
    for (let report = 0; report < 2; report += 1) await database.db.execute(sql`select cronform.run_finished(${succeeded}, 'SUCCESS', null, 1)`);
    expect(await downstream()).toEqual([{ name: 'load', status: 'QUEUED', trigger: 'DEPENDENCY', slot: upstream!.slot, day: upstream!.day, upstream: succeeded, upstreams: { sq: succeeded }, priority: 1 }]);

    // A failed report creates nothing (one attempt: FAILED is final).
    clock.set(clock.nowMs() + 1_000);
    const failed = (await triggerRun(database, { name: 'sq', forceNew: true, nowMs: clock.nowMs(), author })).runId;
    await handOff();
    const [finished] = await queryRows<{ status: string }>(database.db, sql`select cronform.run_finished(${failed}, 'FAILED', 'boom') as status`);
    expect(finished!.status).toBe('FAILED');
    expect((await downstream()).map((run) => run.upstream)).toEqual([succeeded]);
  });
});

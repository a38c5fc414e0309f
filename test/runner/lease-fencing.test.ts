/**
 * Leases when the runner holding them cannot reach the database (found by bench/chaos with
 * --outage): the job is stopped before its lease expires, so the retry another runner starts
 * never overlaps it; a runner that was cut off itself gives the others one lease to come back
 * before it declares their attempts stalled.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';
import { Runner } from '../../src/runner/runner.js';
import { runReconcileTick } from '../../src/runner/reconciler.js';
import { STOP_MARGIN_MS } from '../../src/runner/policy/lease.js';
import { Worker } from '../../src/runner/worker.js';
import { DefinitionCache } from '../../src/runner/definition-cache.js';
import { ManualClock } from '../../src/shared/clock.js';
import { DEFAULT_POLICY } from '../../src/compile/definition.js';
import { migrateDatabase } from '../../src/db/migrate.js';
import { createPgliteDatabase, createPostgresDatabase, postgresServerUrl } from '../support/databases.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';
import { everyAttempt } from '../../src/db/open-attempts.js';
import { heldJobs } from './held-jobs.js';
import { waitFor } from '../support/processes.js';

const T0 = Date.parse('2026-11-29T12:00:00Z');
const { source: _source, ...policy } = DEFAULT_POLICY;

async function queueManualRun(database: Database, atIso: string): Promise<void> {
  await database.db.execute(
    sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts)
        select id, version, ${atIso}::timestamptz, 'MANUAL', name || ':manual', 'QUEUED', 2, 'default', ${atIso}::timestamptz, 2 from schedules`,
  );
}

/** Schedule `elsewhere` applied at t0, and another runner's RUNNING attempt of it whose lease expires at t0 + 2 s. */
async function seedOtherRunnersAttempt(database: Database, t0: number): Promise<void> {
  await applyManifests(database, { 'a.yaml': scheduleManifest('elsewhere', { cron: '0 0 1 1 *', timeout: '10m' }) }, t0);
    await database.db.execute(
      sql`with run as (
            insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts, attempts, lease_owner, lease_expires_at, started_at)
            select id, version, '2026-11-29T12:00:00Z', 'MANUAL', 'elsewhere:manual', 'RUNNING', 2, 'default', '2026-11-29T12:00:00Z', 2, 1, 'other', '2026-11-29T12:00:02Z', '2026-11-29T12:00:00Z' from schedules
            returning id, scheduled_for)
          insert into run_attempts (run_id, attempt, scheduled_for, runner_id, status, started_at) select id, 1, scheduled_for, 'other', 'RUNNING', '2026-11-29T12:00:00Z' from run`,
    );
}

describe('leases of a runner cut off from the database', () => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('stops a job whose lease it cannot renew before the lease expires, and leaves the run to the reconciler', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('hangs', { cron: '0 0 1 1 *', timeout: '10m', onStall: 'retry', retry: { maxAttempts: 2, backoff: 'fixed', initialDelay: '1s' } }) }, T0);
    await queueManualRun(database, new Date(T0).toISOString());
    const leaseMs = 1_500;
    const killGraceMs = 200;
    const clock = new ManualClock(T0);
    const jobs = heldJobs();
    const worker = new Worker(database, { runnerId: 'cut-off', clock, concurrency: 1, leaseMs, killGraceMs, baseDir: process.cwd(), env: {}, execute: jobs.execute }, policy);
    expect(await worker.claimAndStart()).toBe(1);
    const [lease] = await queryRows<{ expires: string }>(database.db, sql`select lease_expires_at::text as expires from schedule_runs`);
    const expiresMs = Date.parse(lease!.expires);
    const [runId] = jobs.started;
    // No heartbeat: as if every heartbeat failed. Until a kill grace before expiry, the job runs…
    clock.set(expiresMs - killGraceMs - 1);
    expect(jobs.running.has(runId!)).toBe(true);
    // …then it is stopped, early enough that a job ignoring SIGTERM is killed by the time the lease runs out.
    clock.set(expiresMs + 10);
    expect(jobs.running.has(runId!)).toBe(false);
    expect(jobs.abortedAtMs.get(runId!)).toBeLessThan(expiresMs);
    expect(jobs.abortedAtMs.get(runId!)! + killGraceMs).toBeLessThanOrEqual(expiresMs);
    expect(await worker.waitForExecutions(5_000)).toBe(true);
    expect(await worker.flushCompletions()).toBe(0);
    // The reconcilers wait out the owner's kill grace (this worker has no runner row: the
    // default they are given) and the stop margin after expiry before they retry the run.
    const statuses = () => queryRows(database!.db, sql`select r.status, a.status as attempt from schedule_runs r join ${everyAttempt()} a on a.run_id = r.id`);
    await runReconcileTick(database, { nowMs: expiresMs + killGraceMs + STOP_MARGIN_MS, runnerSilenceMs: 60_000, defaultKillGraceMs: killGraceMs });
    expect(await statuses()).toEqual([{ status: 'RUNNING', attempt: 'RUNNING' }]);
    await runReconcileTick(database, { nowMs: expiresMs + killGraceMs + STOP_MARGIN_MS + 1, runnerSilenceMs: 60_000, defaultKillGraceMs: killGraceMs });
    expect(await statuses()).toEqual([{ status: 'RETRY_PENDING', attempt: 'STALLED' }]);
  });

  it('never starts a job whose fence has passed before it could start (the claim waited for the database)', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('late', { cron: '0 0 1 1 *', timeout: '10m', onStall: 'retry', retry: { maxAttempts: 2, backoff: 'fixed', initialDelay: '1s' } }) }, T0);
    await queueManualRun(database, new Date(T0).toISOString());
    const leaseMs = 1_500;
    const clock = new ManualClock(T0);
    const jobs = heldJobs();
    // The definitions read after the claim waits for the database (an outage beginning), and
    // gets through once the lease is past its fence: starting the job then would run it with
    // its lease about to expire and its retry about to start elsewhere.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const definitions = new DefinitionCache();
    const require = definitions.require.bind(definitions);
    definitions.require = async (...args) => {
      await gate;
      return require(...args);
    };
    const worker = new Worker(database, { runnerId: 'slow-claim', clock, concurrency: 1, leaseMs, killGraceMs: 200, baseDir: process.cwd(), env: {}, execute: jobs.execute }, policy, definitions);
    const claiming = worker.claimAndStart();
    await new Promise((resolve) => setTimeout(resolve, 50));
    clock.set(T0 + leaseMs - 200);
    open();
    expect(await claiming).toBe(1);
    expect(jobs.started).toEqual([]);
    expect(worker.activeCount).toBe(0);
    // Left to the reconciler, like the run of a runner that died.
    await runReconcileTick(database, { nowMs: T0 + leaseMs + 200 + STOP_MARGIN_MS + 1, runnerSilenceMs: 60_000, defaultKillGraceMs: 200 });
    expect(await queryRows(database.db, sql`select r.status from schedule_runs r`)).toEqual([{ status: 'RETRY_PENDING' }]);
  });

  it('keeps a job running while its heartbeats succeed', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('slow', { cron: '0 0 1 1 *', timeout: '10m' }) }, T0);
    await queueManualRun(database, new Date(T0).toISOString());
    const clock = new ManualClock(T0);
    const jobs = heldJobs();
    const worker = new Worker(database, { runnerId: 'healthy', clock, concurrency: 1, leaseMs: 900, killGraceMs: 200, baseDir: process.cwd(), env: {}, execute: jobs.execute }, policy);
    expect(await worker.claimAndStart()).toBe(1);
    // A job of 2.5 s, nearly three leases, with a heartbeat every third of a lease.
    for (let elapsedMs = 0; elapsedMs < 2_500; elapsedMs += 300) {
      clock.advance(300);
      await worker.heartbeat();
    }
    jobs.finishAll();
    expect(await worker.waitForExecutions(300)).toBe(true);
    await worker.flushCompletions();
    expect(await queryRows(database.db, sql`select r.status, a.status as attempt from schedule_runs r join ${everyAttempt()} a on a.run_id = r.id`)).toEqual([{ status: 'SUCCESS', attempt: 'SUCCEEDED' }]);
  });

  it('after being cut off for longer than a lease, a runner waits one more lease before declaring other runners\' attempts stalled', async () => {
    database = await createPgliteDatabase();
    const t0 = Date.parse('2026-11-29T12:00:00Z');
    await seedOtherRunnersAttempt(database, t0);
    const clock = new ManualClock(t0);
    const runner = new Runner(database, { clock, concurrency: 1, leaseMs: 3_000, reconcileIntervalMs: 10_000, baseDir: process.cwd(), env: process.env });
    const status = async () => (await queryRows<{ status: string }>(database!.db, sql`select status from schedule_runs`))[0]?.status;
    await runner.tick();
    // Ten seconds without a tick (every one failed: the database was down for everyone).
    clock.set(t0 + 10_000);
    await runner.tick();
    expect(await status()).toBe('RUNNING');
    clock.set(t0 + 12_000);
    await runner.tick();
    expect(await status()).toBe('RUNNING');
    clock.set(t0 + 13_000);
    await runner.tick();
    expect(await status()).toBe('RETRY_PENDING');
  });

  it('counts that lease from the heartbeat that got through, not from the start of a tick that waited for the database', async () => {
    database = await createPgliteDatabase();
    const t0 = Date.parse('2026-11-29T12:00:00Z');
    await seedOtherRunnersAttempt(database, t0);
    // The runner's transactions wait while `gate` is closed: the database is unreachable.
    let gate: Promise<void> | undefined;
    const real = database;
    const db = new Proxy(real.db, {
      get(target, property) {
        const value = Reflect.get(target, property) as unknown;
        if (property !== 'transaction' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
        return async (...args: unknown[]) => {
          await gate;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const clock = new ManualClock(t0);
    const runner = new Runner({ ...real, db }, { clock, concurrency: 1, leaseMs: 3_000, reconcileIntervalMs: 10_000, baseDir: process.cwd(), env: process.env });
    const status = async () => (await queryRows<{ status: string }>(real.db, sql`select status from schedule_runs`))[0]?.status;
    await runner.tick();
    // A tick begins at 10 s, while the database is down, and gets through when it is back at 14 s.
    clock.set(t0 + 10_000);
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    const waiting = runner.tick();
    clock.set(t0 + 14_000);
    open();
    gate = undefined;
    await waiting;
    expect(await status()).toBe('RUNNING');
    // Counted from 10 s, the lease of grace would have ended at 13 s: the other runner gets until 17 s.
    clock.set(t0 + 16_000);
    await runner.tick();
    expect(await status()).toBe('RUNNING');
    clock.set(t0 + 17_000);
    await runner.tick();
    expect(await status()).toBe('RETRY_PENDING');
  });
  it('a runner that started during the outage waits that lease too, from its first heartbeat', async () => {
    database = await createPgliteDatabase();
    const t0 = Date.parse('2026-11-29T12:00:00Z');
    await seedOtherRunnersAttempt(database, t0);
    // Started at t0, the database unreachable until 10 s: its first tick gets through then.
    const clock = new ManualClock(t0);
    const runner = new Runner(database, { clock, concurrency: 1, leaseMs: 3_000, reconcileIntervalMs: 10_000, baseDir: process.cwd(), env: process.env, reachingDatabaseSinceMs: t0 });
    const status = async () => (await queryRows<{ status: string }>(database!.db, sql`select status from schedule_runs`))[0]?.status;
    clock.set(t0 + 10_000);
    await runner.tick();
    expect(await status()).toBe('RUNNING');
    clock.set(t0 + 13_000);
    await runner.tick();
    expect(await status()).toBe('RETRY_PENDING');
  });
});

describe.runIf(postgresServerUrl)('a graceful shutdown that drains longer than the lease (real PostgreSQL)', () => {
  it('keeps renewing the lease, so no other runner declares the attempt stalled and runs it again', async () => {
    const server = await createPostgresDatabase();
    try {
      const database = await server.open();
      await migrateDatabase(database);
      await applyManifests(database, { 'a.yaml': scheduleManifest('draining', { cron: '0 0 1 1 *', timeout: '10m', onStall: 'retry', retry: { maxAttempts: 2, backoff: 'fixed', initialDelay: '1s' } }) }, T0);
      await queueManualRun(database, new Date(T0).toISOString());
      const clock = new ManualClock(T0);
      const jobs = heldJobs();
      const leaseMs = 900;
      const runner = new Runner(await server.open(), { clock, concurrency: 1, leaseMs, drainTimeoutMs: 5_000, killGraceMs: 200, baseDir: process.cwd(), env: {}, execute: jobs.execute });
      await runner.start();
      await jobs.whenStarted(1);
      expect(runner.worker.activeCount).toBe(1);
      let stopped = false;
      const stopping = runner.stop().then(() => (stopped = true));
      const leaseExpiresMs = async () => Date.parse((await queryRows<{ expires: string }>(database.db, sql`select lease_expires_at::text as expires from schedule_runs`))[0]!.expires);
      // The job runs on for 2.1 s of the drain, more than two leases. The drain renews the lease,
      // then waits a third of a lease; the clock moves only once both are done (a move while the
      // renewal is in flight would pass the fence of the lease before it). After each move,
      // another replica reconciles: a lease left to expire would be taken.
      for (let elapsedMs = 0; elapsedMs < 2_100 && !stopped; elapsedMs += leaseMs / 3) {
        const nowMs = clock.nowMs();
        await waitFor('the drain to renew the lease', async () => ((await leaseExpiresMs()) >= nowMs + leaseMs || stopped ? true : undefined), 20_000);
        await Promise.race([clock.waitForTimerDueBy(nowMs + leaseMs / 3), stopping]);
        clock.set(nowMs + leaseMs / 3);
        await runReconcileTick(database, { nowMs: clock.nowMs(), runnerSilenceMs: 60_000 });
      }
      jobs.finishAll();
      await stopping;
      expect(await queryRows(database.db, sql`select r.status, r.attempts, a.status as attempt from schedule_runs r join run_attempts a on a.run_id = r.id`)).toEqual([{ status: 'SUCCESS', attempts: 1, attempt: 'SUCCEEDED' }]);
    } finally {
      await server.drop();
    }
  });
});

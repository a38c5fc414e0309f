/**
 * Leases when the runner holding them cannot reach the database (found by bench/chaos with
 * --outage): the job is stopped before its lease expires, so the retry another runner starts
 * never overlaps it; a runner that was cut off itself gives the others one lease to come back
 * before it declares their attempts stalled.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';
import { Runner } from '../../src/runner/runner.js';
import { runReconcileTick } from '../../src/runner/reconciler.js';
import { Worker } from '../../src/runner/worker.js';
import { ManualClock, systemClock } from '../../src/shared/clock.js';
import { DEFAULT_POLICY } from '../../src/compile/definition.js';
import { migrateDatabase } from '../../src/db/migrate.js';
import { createPgliteDatabase, createPostgresDatabase, postgresServerUrl } from '../support/databases.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';

const { source: _source, ...policy } = DEFAULT_POLICY;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function queueManualRun(database: Database, atIso: string): Promise<void> {
  await database.db.execute(
    sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts)
        select id, version, ${atIso}::timestamptz, 'MANUAL', name || ':manual', 'QUEUED', 2, 'default', ${atIso}::timestamptz, 2 from schedules`,
  );
}

describe('leases of a runner cut off from the database', () => {
  let database: Database | undefined;
  let scratch: string | undefined;
  let jobPid: number | undefined;
  afterEach(async () => {
    if (jobPid && isAlive(jobPid)) process.kill(jobPid, 'SIGKILL');
    jobPid = undefined;
    await database?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    database = undefined;
    scratch = undefined;
  });

  it('stops a job whose lease it cannot renew before the lease expires, and leaves the run to the reconciler', async () => {
    database = await createPgliteDatabase();
    scratch = mkdtempSync(path.join(tmpdir(), 'cronform-fence-'));
    const pidFile = path.join(scratch, 'job.pid');
    const hang = `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);`;
    await applyManifests(database, { 'a.yaml': scheduleManifest('hangs', { cron: '0 0 1 1 *', timeout: '10m', onStall: 'retry', retry: { maxAttempts: 2, backoff: 'fixed', initialDelay: '1s' }, job: { type: 'command', command: [process.execPath, '-e', hang] } }) }, Date.now());
    await queueManualRun(database, new Date().toISOString());
    const leaseMs = 1_500;
    const worker = new Worker(database, { runnerId: 'cut-off', clock: systemClock, concurrency: 1, leaseMs, killGraceMs: 200, baseDir: scratch, env: process.env }, policy);
    expect(await worker.claimAndStart()).toBe(1);
    const [lease] = await queryRows<{ expires: string }>(database.db, sql`select lease_expires_at::text as expires from schedule_runs`);
    const expiresMs = Date.parse(lease!.expires);
    for (let i = 0; i < 100 && !(existsSync(pidFile) && readFileSync(pidFile, 'utf8')); i += 1) await sleep(20);
    jobPid = Number(readFileSync(pidFile, 'utf8'));
    // No heartbeat: as if every heartbeat failed. The job is gone before the lease runs out.
    while (isAlive(jobPid) && Date.now() < expiresMs + 2_000) await sleep(10);
    expect(isAlive(jobPid)).toBe(false);
    expect(Date.now()).toBeLessThan(expiresMs);
    expect(await worker.waitForExecutions(5_000)).toBe(true);
    expect(await worker.flushCompletions()).toBe(0);
    await sleep(Math.max(0, expiresMs - Date.now() + 10));
    await runReconcileTick(database, { nowMs: Date.now(), runnerSilenceMs: 60_000 });
    expect(await queryRows(database.db, sql`select r.status, a.status as attempt from schedule_runs r join run_attempts a on a.run_id = r.id`)).toEqual([{ status: 'RETRY_PENDING', attempt: 'STALLED' }]);
  });

  it('keeps a job running while its heartbeats succeed', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('slow', { cron: '0 0 1 1 *', timeout: '10m', job: { type: 'command', command: [process.execPath, '-e', 'setTimeout(() => {}, 2500)'] } }) }, Date.now());
    await queueManualRun(database, new Date().toISOString());
    const worker = new Worker(database, { runnerId: 'healthy', clock: systemClock, concurrency: 1, leaseMs: 900, killGraceMs: 200, baseDir: process.cwd(), env: process.env }, policy);
    expect(await worker.claimAndStart()).toBe(1);
    while (!(await worker.waitForExecutions(300))) await worker.heartbeat();
    await worker.flushCompletions();
    expect(await queryRows(database.db, sql`select r.status, a.status as attempt from schedule_runs r join run_attempts a on a.run_id = r.id`)).toEqual([{ status: 'SUCCESS', attempt: 'SUCCEEDED' }]);
  });

  it('after being cut off for longer than a lease, a runner waits one more lease before declaring other runners\' attempts stalled', async () => {
    database = await createPgliteDatabase();
    const t0 = Date.parse('2026-11-29T12:00:00Z');
    await applyManifests(database, { 'a.yaml': scheduleManifest('elsewhere', { cron: '0 0 1 1 *', timeout: '10m' }) }, t0);
    // Another runner's attempt, its lease due to expire at t0 + 2 s.
    await database.db.execute(
      sql`with run as (
            insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts, attempts, lease_owner, lease_expires_at, started_at)
            select id, version, '2026-11-29T12:00:00Z', 'MANUAL', 'elsewhere:manual', 'RUNNING', 2, 'default', '2026-11-29T12:00:00Z', 2, 1, 'other', '2026-11-29T12:00:02Z', '2026-11-29T12:00:00Z' from schedules
            returning id)
          insert into run_attempts (run_id, attempt, runner_id, status, started_at) select id, 1, 'other', 'RUNNING', '2026-11-29T12:00:00Z' from run`,
    );
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
});

describe.runIf(postgresServerUrl)('a graceful shutdown that drains longer than the lease (real PostgreSQL)', () => {
  it('keeps renewing the lease, so no other runner declares the attempt stalled and runs it again', async () => {
    const server = await createPostgresDatabase();
    try {
      const database = await server.open();
      await migrateDatabase(database);
      await applyManifests(database, { 'a.yaml': scheduleManifest('draining', { cron: '0 0 1 1 *', timeout: '10m', onStall: 'retry', retry: { maxAttempts: 2, backoff: 'fixed', initialDelay: '1s' }, job: { type: 'command', command: [process.execPath, '-e', 'setTimeout(() => {}, 2000)'] } }) }, Date.now());
      await queueManualRun(database, new Date().toISOString());
      const runner = new Runner(await server.open(), { clock: systemClock, concurrency: 1, leaseMs: 900, drainTimeoutMs: 5_000, killGraceMs: 200, baseDir: process.cwd(), env: process.env });
      await runner.start();
      for (let i = 0; i < 200 && runner.worker.activeCount === 0; i += 1) await sleep(20);
      expect(runner.worker.activeCount).toBe(1);
      // Another replica reconciles all along; a lease left to expire during the drain would be taken.
      let stopping = true;
      const otherReconciler = (async () => {
        while (stopping) {
          await runReconcileTick(database, { nowMs: Date.now(), runnerSilenceMs: 60_000 });
          await sleep(50);
        }
      })();
      await runner.stop();
      stopping = false;
      await otherReconciler;
      expect(await queryRows(database.db, sql`select r.status, r.attempts, a.status as attempt from schedule_runs r join run_attempts a on a.run_id = r.id`)).toEqual([{ status: 'SUCCESS', attempts: 1, attempt: 'SUCCEEDED' }]);
    } finally {
      await server.drop();
    }
  });
});

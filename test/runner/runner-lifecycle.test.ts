import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';
import { Runner } from '../../src/runner/runner.js';
import { runSchedulerTick } from '../../src/runner/scheduler.js';
import { ManualClock } from '../../src/shared/clock.js';
import { DEFAULT_POLICY } from '../../src/compile/definition.js';
import { createPgliteDatabase } from '../support/databases.js';
import { cancelRun } from '../../src/operations/runs/cancel.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';
import { heldJobs } from './held-jobs.js';

const T0 = Date.parse('2026-11-29T12:00:00Z');
const { source: _source, ...policy } = DEFAULT_POLICY;

async function runRows(database: Database) {
  return queryRows<{ scheduled_for: string; status: string; status_reason: string | null; lease_owner: string | null; attempts: number }>(
    database.db,
    sql`select to_char(scheduled_for at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI"Z"') as scheduled_for, status, status_reason, lease_owner, attempts from schedule_runs order by scheduled_for, id`,
  );
}

/** A QUEUED run of the one applied schedule, due a second before T0. */
async function insertRun(database: Database, key: string, trigger: 'MANUAL' | 'SCHEDULED'): Promise<void> {
  const dueIso = new Date(T0 - 1_000).toISOString();
  await database.db.execute(
    sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts)
        select id, version, ${dueIso}::timestamptz, ${trigger}, ${key}, 'QUEUED', 2, 'default', ${dueIso}::timestamptz, 1 from schedules`,
  );
}

describe('runner lifecycle', () => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
  });

  it('graceful shutdown: stops claiming, and releases what did not finish within the drain timeout', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('slow', { cron: '0 0 1 1 *', timeout: '10m' }) }, T0);
    await insertRun(database, 'slow:manual', 'MANUAL');
    const clock = new ManualClock(T0);
    const jobs = heldJobs(); // a job that does not end by itself
    const drainTimeoutMs = 300;
    const runner = new Runner(database, { clock, concurrency: 2, leaseMs: 30_000, drainTimeoutMs, killGraceMs: 200, baseDir: process.cwd(), env: {}, execute: jobs.execute });
    await runner.start();
    await jobs.whenStarted(1);
    expect(runner.worker.activeCount).toBe(1);
    const stopping = runner.stop();
    // The drain gives the job its timeout, and stops it then, not before.
    const drainEndsMs = clock.nowMs() + drainTimeoutMs;
    await Promise.race([clock.waitForTimerDueBy(drainEndsMs), stopping]);
    clock.set(drainEndsMs - 1);
    expect(jobs.running.size).toBe(1);
    clock.set(drainEndsMs);
    await stopping;
    expect(jobs.abortedAtMs.get(jobs.started[0]!)).toBe(drainEndsMs);
    expect(await runRows(database)).toEqual([{ scheduled_for: expect.any(String), status: 'QUEUED', status_reason: null, lease_owner: null, attempts: 1 }]);
    const [attempt] = await queryRows<{ status: string; error: string }>(database.db, sql`select status, error from run_attempts`);
    expect(attempt).toEqual({ status: 'CANCELLED', error: 'runner shut down before the attempt finished; run released to other runners' });
    // Released without using up a retry: one more attempt is allowed.
    const [run] = await queryRows<{ max_attempts: number }>(database.db, sql`select max_attempts from schedule_runs`);
    expect(run?.max_attempts).toBe(2);
    const [runnerRow] = await queryRows<{ stopped: boolean }>(database.db, sql`select stopped_at is not null as stopped from runners`);
    expect(runnerRow?.stopped).toBe(true);
  });

  it('turns a DST day into the right runs end to end (New York, 02:30 shifted to 03:30 EDT)', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('nightly', { cron: '30 2 * * *', timezone: 'America/New_York', dst: { gap: 'shift', fold: 'first' } }) }, Date.parse('2026-03-07T12:00:00Z'));
    await runSchedulerTick(database, { nowMs: Date.parse('2026-03-08T07:30:00.100Z'), policy });
    await runSchedulerTick(database, { nowMs: Date.parse('2026-03-09T06:30:00.100Z'), policy });
    expect((await runRows(database)).map((r) => r.scheduled_for)).toEqual(['2026-03-08T07:30Z', '2026-03-09T06:30Z']);
  });

  it.each([
    { fold: 'first', slots: ['2026-11-01T05:30Z', '2026-11-02T06:30Z'] },
    { fold: 'second', slots: ['2026-11-01T06:30Z', '2026-11-02T06:30Z'] },
    { fold: 'both', slots: ['2026-11-01T05:30Z', '2026-11-01T06:30Z', '2026-11-02T06:30Z'] },
  ])('turns the repeated hour of a DST end into runs per fold: $fold (New York, 01:30 EDT and 01:30 EST)', async ({ fold, slots }) => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('nightly', { cron: '30 1 * * *', timezone: 'America/New_York', dst: { gap: 'shift', fold }, overlap: 'ALLOW' }) }, Date.parse('2026-10-31T12:00:00Z'));
    // A tick just after each pass of 01:30 (05:30Z in EDT, 06:30Z in EST) and after the next day's;
    // nothing executes, so overlap ALLOW keeps every slot's run QUEUED.
    for (const at of ['2026-11-01T05:30:00.100Z', '2026-11-01T06:30:00.100Z', '2026-11-02T06:30:00.100Z']) await runSchedulerTick(database, { nowMs: Date.parse(at), policy });
    const rows = await runRows(database);
    expect(rows.map((r) => r.scheduled_for)).toEqual(slots);
    expect(rows.map((r) => [r.status, r.status_reason])).toEqual(slots.map(() => ['QUEUED', null]));
  });

  // A 2-day outage under each misfire policy: 48 hourly slots, the 3 within the 3 h grace period
  // handled per the policy, the 45 older ones never run, and none vanishes.
  it.each([
    { misfire: 'RUN_ONCE', extra: {}, recent: [['SKIPPED', 'MISFIRE'], ['SKIPPED', 'MISFIRE'], ['QUEUED', null]] },
    { misfire: 'SKIP', extra: {}, recent: [['SKIPPED', 'MISFIRE'], ['SKIPPED', 'MISFIRE'], ['SKIPPED', 'MISFIRE']] },
    { misfire: 'CATCH_UP_ALL', extra: { maxCatchUp: 2, overlap: 'ALLOW' }, recent: [['SKIPPED', 'CATCH_UP_CAP'], ['QUEUED', null], ['QUEUED', null]] },
    { misfire: 'MANUAL', extra: {}, recent: [['MANUAL_REQUIRED', null], ['MANUAL_REQUIRED', null], ['MANUAL_REQUIRED', null]] },
  ])('after a 2-day outage, $misfire records every missed slot per its policy', async ({ misfire, extra, recent }) => {
    database = await createPgliteDatabase();
    const t0 = Date.parse('2026-11-29T12:00:00Z');
    await applyManifests(database, { 'a.yaml': scheduleManifest('hourly', { cron: '0 * * * *', misfire, gracePeriod: '3h', ...extra }) }, t0);
    await runSchedulerTick(database, { nowMs: t0 + 48 * 3_600_000 + 30 * 60_000, policy });
    const rows = await runRows(database);
    expect(rows).toHaveLength(48);
    expect(rows[0]?.scheduled_for).toBe('2026-11-29T13:00Z');
    expect(rows.slice(0, 45).every((r) => r.status === 'SKIPPED' && r.status_reason === 'GRACE_EXCEEDED')).toBe(true);
    expect(rows.slice(45).map((r) => [r.scheduled_for, r.status, r.status_reason])).toEqual(
      ['2026-12-01T10:00Z', '2026-12-01T11:00Z', '2026-12-01T12:00Z'].map((slot, i) => [slot, ...recent[i]!]),
    );
    const [schedule] = await queryRows<{ next: string }>(database.db, sql`select to_char(next_run_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI"Z"') as next from schedules`);
    expect(schedule?.next).toBe('2026-12-01T13:00Z');
  });

  it('a paused schedule records its slots as SKIPPED/PAUSED, and the pause ends at its until', async () => {
    database = await createPgliteDatabase();
    const t0 = Date.parse('2026-11-29T12:00:00Z');
    await applyManifests(database, { 'a.yaml': scheduleManifest('pausable', { cron: '*/10 * * * *' }) }, t0);
    await database.db.execute(sql`update schedules set paused_at = '2026-11-29T12:00:00Z', paused_by = 'ops', paused_reason = 'incident', paused_until = '2026-11-29T12:25:00Z'`);
    const clock = new ManualClock(t0 + 10 * 60_000 + 5);
    const jobs = heldJobs();
    const runner = new Runner(database, { clock, concurrency: 0 + 1, baseDir: process.cwd(), env: {}, execute: jobs.execute });
    for (const minute of [10, 20, 30]) {
      clock.set(t0 + minute * 60_000 + 5);
      await runSchedulerTick(database, { nowMs: clock.nowMs(), policy });
    }
    expect((await runRows(database)).map((r) => [r.scheduled_for.slice(11), r.status, r.status_reason])).toEqual([
      ['12:10Z', 'SKIPPED', 'PAUSED'],
      ['12:20Z', 'SKIPPED', 'PAUSED'],
      ['12:30Z', 'QUEUED', null],
    ]);
    await runner.tick();
    const [schedule] = await queryRows<{ paused: boolean }>(database.db, sql`select paused_at is not null as paused from schedules`);
    expect(schedule?.paused).toBe(false);
    const [audit] = await queryRows<{ action: string; reason: string }>(database.db, sql`select action, reason from audit_log where action = 'SCHEDULE_RESUMED'`);
    expect(audit).toEqual({ action: 'SCHEDULE_RESUMED', reason: 'pause expired' });
    jobs.finishAll();
    await runner.worker.waitForExecutions(10_000);
    await runner.worker.flushCompletions();
  });

  it('cancel of a running run stops its process at once (NOTIFY), not at the next heartbeat', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('long', { cron: '0 0 1 1 *', timeout: '10m' }) }, T0);
    await insertRun(database, 'long:manual', 'MANUAL');
    const clock = new ManualClock(T0);
    const jobs = heldJobs(); // a job that does not end by itself
    const runner = new Runner(database, { clock, concurrency: 1, leaseMs: 60_000, killGraceMs: 200, baseDir: process.cwd(), env: {}, execute: jobs.execute });
    await runner.start();
    await jobs.whenStarted(1);
    expect(runner.worker.activeCount).toBe(1);
    // Once its first tick is over (leases renewed), the loop sleeps until its next heartbeat at
    // the latest: a cancel sent earlier could be found by that tick's heartbeat instead.
    await clock.waitForTimerDueBy(T0 + 20_000);
    await cancelRun(database, { runId: 1, nowMs: clock.nowMs(), author: { actor: 'ops', reason: 'wrong day', gitSha: null } });
    // The clock is never moved from here on: no heartbeat or other timer of the runner can fire,
    // so only the notification can stop the job. Without it this wait never ends and the test
    // fails on its timeout.
    await jobs.whenAborted(1);
    await runner.worker.waitForExecutions(60_000);
    expect(runner.worker.activeCount).toBe(0);
    await runner.stop();
    expect((await runRows(database))[0]?.status).toBe('CANCELLED');
  });

  it('a paused schedule starts no scheduled run, but a manual trigger still runs', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('held', { cron: '0 0 1 1 *' }) }, T0);
    await database.db.execute(sql`update schedules set paused_at = ${new Date(T0 - 60_000).toISOString()}::timestamptz, paused_by = 'ops', paused_reason = 'incident'`);
    await insertRun(database, 'held:scheduled', 'SCHEDULED');
    await insertRun(database, 'held:manual', 'MANUAL');
    const jobs = heldJobs();
    const runner = new Runner(database, { clock: new ManualClock(T0), concurrency: 2, baseDir: process.cwd(), env: {}, execute: jobs.execute });
    await runner.tick();
    expect(runner.worker.activeCount).toBe(1);
    jobs.finishAll();
    await runner.worker.waitForExecutions(10_000);
    await runner.worker.flushCompletions();
    const rows = await queryRows<{ trigger_type: string; status: string }>(database.db, sql`select trigger_type, status from schedule_runs order by trigger_type`);
    expect(rows).toEqual([
      { trigger_type: 'MANUAL', status: 'SUCCESS' },
      { trigger_type: 'SCHEDULED', status: 'QUEUED' },
    ]);
  });
});

/**
 * Retention (README "Retention"): a pass deletes finished runs past the retention in batches,
 * with their attempts, and counts them into the daily rollups in the same statement, so `report`
 * and `status` show the same figures before and after it; unfinished runs, runs waiting for a
 * human, a schedule's latest keepLast runs and a backfill that ran recently are kept.
 */
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../src/db/client.js';
import { estimateP95FromBuckets, START_DELAY_BUCKETS_MS } from '../../src/db/retention-queries.js';
import { buildScheduleReport } from '../../src/operations/runs/schedule-report.js';
import { readScheduleStatus } from '../../src/operations/runs/schedule-status.js';
import { retentionCutoffMs, runRetentionPass } from '../../src/runner/retention.js';
import { Runner } from '../../src/runner/runner.js';
import { ManualClock } from '../../src/shared/clock.js';
import { SUCCEEDED } from '../runner/held-jobs.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';
import { createPgliteDatabase, createPostgresDatabase, postgresServerUrl } from '../support/databases.js';
import { migrateDatabase } from '../../src/db/migrate.js';

const DAY = 86_400_000;
const NOW_MS = Date.parse('2026-11-29T12:00:00Z');
const policy = (retention: string) => `apiVersion: cronform/v1\nkind: Policy\nmetadata: { name: default }\nspec:\n  retention: ${retention}\n`;

let database: Database | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

/**
 * 40 days of hourly runs of `name` up to NOW: every 10th FAILED, every 25th SKIPPED, the rest
 * SUCCESS, started (hour % 7) seconds late and running 2 s, each with one attempt.
 */
async function seedHourlyHistory(db: Database, name: string, days = 40): Promise<void> {
  await db.db.execute(sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, attempts, max_attempts, created_at, started_at, finished_at)
    select s.id, 1, slot, 'SCHEDULED', ${name} || ':' || slot::text || ':SCHEDULED',
      case when n % 25 = 0 then 'SKIPPED' when n % 10 = 0 then 'FAILED' else 'SUCCESS' end, 2, 'default', slot, 1, 1, slot,
      case when n % 25 = 0 then null else slot + ((n % 7) || ' seconds')::interval end,
      slot + ((n % 7) + 2 || ' seconds')::interval
    from schedules s, generate_series(1, ${days * 24}) as n, lateral (select ${new Date(NOW_MS).toISOString()}::timestamptz - (n || ' hours')::interval as slot) t
    where s.name = ${name}`);
  await db.db.execute(sql`insert into run_attempts (run_id, attempt, scheduled_for, runner_id, status, started_at, finished_at, exit_code)
    select r.id, 1, r.scheduled_for, 'seed', case when r.status = 'SUCCESS' then 'SUCCEEDED' else 'FAILED' end, r.started_at, r.finished_at, 0
    from schedule_runs r join schedules s on s.id = r.schedule_id where s.name = ${name} and r.started_at is not null`);
}

async function countRows(db: Database, where: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db.db, sql.raw(`select count(*)::int as n from ${where}`));
  return row!.n;
}

describe('retention', () => {
  it('deletes old finished runs in batches with their attempts, and report and status do not change', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'schedules/policy.yaml': policy('{ runs: 10d, keepLast: 5 }'), 'schedules/hourly.yaml': scheduleManifest('hourly', { cron: '0 * * * *' }) }, NOW_MS);
    await seedHourlyHistory(database, 'hourly');
    // Old but kept: one still queued, one waiting for approval, one backfill of an old slot that ran an hour ago.
    const old = new Date(NOW_MS - 30 * DAY + 30 * 60_000).toISOString();
    await database.db.execute(sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts, created_at, finished_at)
      select id, 1, ${old}::timestamptz, t.trigger, 'kept:' || t.trigger, t.status, 2, 'default', ${old}::timestamptz, 1, t.created, t.finished
      from schedules, (values ('MANUAL', 'QUEUED', ${old}::timestamptz, null::timestamptz), ('SCHEDULED', 'MANUAL_REQUIRED', ${old}::timestamptz, null), ('BACKFILL', 'SUCCESS', ${new Date(NOW_MS - 3_600_000).toISOString()}::timestamptz, ${new Date(NOW_MS - 3_000_000).toISOString()}::timestamptz)) as t(trigger, status, created, finished)
      where name = 'hourly'`);

    // From a UTC midnight: rolled-up days are counted whole (README "Retention").
    const window = { sinceMs: Date.parse('2026-10-25T00:00:00Z'), nowMs: NOW_MS };
    const reportBefore = await buildScheduleReport(database, window);
    const statusBefore = await readScheduleStatus(database, { nowMs: NOW_MS });
    const attemptsBefore = await countRows(database, 'run_attempts');

    const cutoffMs = retentionCutoffMs(NOW_MS, 10 * DAY);
    expect(new Date(cutoffMs).toISOString()).toBe('2026-11-19T00:00:00.000Z');
    const expected = await countRows(database, `schedule_runs where scheduled_for < '${new Date(cutoffMs).toISOString()}' and status in ('SUCCESS', 'FAILED', 'SKIPPED') and trigger_type = 'SCHEDULED'`);
    expect(expected).toBe(40 * 24 - 10 * 24 - 12);

    const pass = await runRetentionPass(database, { nowMs: NOW_MS, policyRetention: { runsMs: 10 * DAY, keepLast: 5 }, batchSize: 100, maxBatches: 1_000 });
    expect(pass).toEqual({ deleted: expected, days: 0, batches: Math.floor(expected / 100) + 1, unfinished: false });

    // What is left: the runs since the cutoff and the three kept ones; no attempt without its run.
    expect(await countRows(database, `schedule_runs where scheduled_for < '${new Date(cutoffMs).toISOString()}'`)).toBe(3);
    expect(await countRows(database, 'run_attempts a where not exists (select 1 from schedule_runs r where r.id = a.run_id)')).toBe(0);
    // The skipped runs never started and had no attempt.
    expect(await countRows(database, 'run_attempts')).toBe(attemptsBefore - (expected - (await sumRollups(database, 'SKIPPED'))));
    expect(await sumRollups(database)).toBe(expected);
    // Whole UTC days only: the newest rolled-up day is the one before the cutoff.
    const [days] = await queryRows<{ last: string; n: number }>(database.db, sql`select max(day)::text as last, count(distinct day)::int as n from run_daily_rollups`);
    expect(days).toEqual({ last: '2026-11-18', n: 30 });

    const reportAfter = await buildScheduleReport(database, window);
    const [before, after] = [reportBefore.schedules[0]!, reportAfter.schedules[0]!];
    const { p95StartDelayMs: p95Before, ...countsBefore } = before;
    const { p95StartDelayMs: p95After, ...countsAfter } = after;
    expect(countsAfter).toEqual(countsBefore);
    expect(countsAfter.runs).toBe(35 * 24 + 12 + 2); // 35½ days of slots, the queued and the waiting run (the backfill is left out)
    // The p95 over rolled-up days comes from the histogram: within its bucket (5 s and 10 s bounds here).
    expect(p95Before).toBe(6000);
    expect(p95After).toBeGreaterThan(5000);
    expect(p95After).toBeLessThanOrEqual(10_000);
    expect(await readScheduleStatus(database, { nowMs: NOW_MS })).toEqual(statusBefore);

    // A second pass finds nothing left to delete and counts nothing twice.
    expect(await runRetentionPass(database, { nowMs: NOW_MS, policyRetention: { runsMs: 10 * DAY, keepLast: 5 }, batchSize: 100, maxBatches: 1_000 })).toEqual({ deleted: 0, days: 0, batches: 1, unfinished: false });
    expect(await sumRollups(database)).toBe(expected);
  });

  it('keeps the latest keepLast runs of a schedule however old, and a schedule override wins over the Policy', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, {
      'schedules/policy.yaml': policy('{ runs: 7d, keepLast: 30 }'),
      'schedules/old.yaml': scheduleManifest('old', { cron: '0 * * * *' }),
      'schedules/own.yaml': scheduleManifest('own', { cron: '0 * * * *', retention: { runs: '20d' } }),
      'schedules/forever.yaml': scheduleManifest('forever', { cron: '0 * * * *' }),
    }, NOW_MS);
    for (const name of ['old', 'own']) await seedHourlyHistory(database, name);
    // `old` stopped 30 days ago: only its last 30 runs are left.
    await database.db.execute(sql`delete from run_attempts where run_id in (select r.id from schedule_runs r join schedules s on s.id = r.schedule_id where s.name = 'old' and r.scheduled_for > ${new Date(NOW_MS - 30 * DAY).toISOString()}::timestamptz)`);
    await database.db.execute(sql`delete from schedule_runs r using schedules s where s.id = r.schedule_id and s.name = 'old' and r.scheduled_for > ${new Date(NOW_MS - 30 * DAY).toISOString()}::timestamptz`);
    await runRetentionPass(database, { nowMs: NOW_MS, policyRetention: { runsMs: 7 * DAY, keepLast: 30 }, batchSize: 1_000, maxBatches: 100 });
    const left = await queryRows<{ name: string; n: number; oldest: Date }>(database.db, sql`select s.name, count(*)::int as n, min(r.scheduled_for) as oldest from schedule_runs r join schedules s on s.id = r.schedule_id group by s.name order by s.name`);
    expect(left.map((r) => [r.name, r.n, new Date(r.oldest).toISOString()])).toEqual([
      ['old', 30, new Date(NOW_MS - 30 * DAY - 30 * 3_600_000 + 3_600_000 * 1).toISOString()],
      // 20 days back to the midnight before: the runs of 2026-11-09 from 00:00 on.
      ['own', 20 * 24 + 12, '2026-11-09T00:00:00.000Z'],
    ]);
  });

  it('stops a pass at maxBatches and takes up where it left off on the next', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'schedules/hourly.yaml': scheduleManifest('hourly', { cron: '0 * * * *', retention: { runs: '7d', keepLast: 0 } }) }, NOW_MS);
    await seedHourlyHistory(database, 'hourly', 10);
    const options = { nowMs: NOW_MS, policyRetention: undefined, batchSize: 10, maxBatches: 3 };
    expect(await runRetentionPass(database, options)).toEqual({ deleted: 30, days: 0, batches: 3, unfinished: true });
    expect(await runRetentionPass(database, { ...options, maxBatches: 100 })).toMatchObject({ deleted: 2 * 24 + 12 - 30, unfinished: false });
  });

  it('does nothing without a retention in force', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'schedules/hourly.yaml': scheduleManifest('hourly', { cron: '0 * * * *', retention: { keepLast: 1 } }) }, NOW_MS);
    await seedHourlyHistory(database, 'hourly', 10);
    expect(await runRetentionPass(database, { nowMs: NOW_MS, policyRetention: undefined, batchSize: 10, maxBatches: 3 })).toEqual({ deleted: 0, days: 0, batches: 0, unfinished: false });
  });
});

describe.runIf(postgresServerUrl)('retention by replicas at once on real PostgreSQL', () => {
  it('deletes each run once and counts it once: skipped locks, rollups added up', async () => {
    const server = await createPostgresDatabase();
    const setup = await server.open();
    const replicas: Database[] = [];
    try {
      await migrateDatabase(setup);
      await applyManifests(setup, { 'schedules/a.yaml': scheduleManifest('alpha', { cron: '0 * * * *' }), 'schedules/b.yaml': scheduleManifest('beta', { cron: '0 * * * *' }) }, NOW_MS);
      for (const name of ['alpha', 'beta']) await seedHourlyHistory(setup, name);
      const expected = await countRows(setup, `schedule_runs where scheduled_for < '2026-11-19T00:00:00Z' and status <> 'QUEUED'`);
      for (let i = 0; i < 4; i += 1) replicas.push(await server.open());
      const passes = await Promise.all(replicas.map((replica) => runRetentionPass(replica, { nowMs: NOW_MS, policyRetention: { runsMs: 10 * DAY, keepLast: 5 }, batchSize: 50, maxBatches: 1_000 })));
      expect(passes.reduce((sum, pass) => sum + pass.deleted, 0)).toBe(expected);
      expect(await sumRollups(setup)).toBe(expected);
      expect(await countRows(setup, `schedule_runs where scheduled_for < '2026-11-19T00:00:00Z'`)).toBe(0);
      expect(await countRows(setup, 'run_attempts a where not exists (select 1 from schedule_runs r where r.id = a.run_id)')).toBe(0);
    } finally {
      for (const replica of replicas) await replica.close();
      await setup.close();
      await server.drop();
    }
  });
});

describe('the runner applies retention', () => {
  it('in a pass off the tick a minute after start, then every interval, with the stored Policy', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'schedules/policy.yaml': policy('{ runs: 7d, keepLast: 0 }'), 'schedules/hourly.yaml': scheduleManifest('hourly', { cron: '0 * * * *' }) }, NOW_MS);
    await seedHourlyHistory(database, 'hourly', 10);
    const clock = new ManualClock(NOW_MS);
    const runner = new Runner(database, { clock, concurrency: 1, baseDir: process.cwd(), env: {}, alerts: false, retention: { intervalMs: DAY, batchSize: 7 }, execute: async () => SUCCEEDED });
    const olderThanCutoff = () => countRows(database!, `schedule_runs where scheduled_for < '2026-11-22T00:00:00Z'`);
    await runner.tick();
    await runner.retentionApplied();
    expect(await olderThanCutoff()).toBe(60);
    clock.advance(60_000);
    await runner.tick();
    await runner.retentionApplied();
    expect(await olderThanCutoff()).toBe(0);
    expect(await sumRollups(database)).toBe(60);
  });
});

async function sumRollups(db: Database, status?: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db.db, sql`select coalesce(sum(runs), 0)::int as n from run_daily_rollups where ${status === undefined ? sql`true` : sql`status = ${status}`}`);
  return row!.n;
}

describe('estimateP95FromBuckets', () => {
  it('interpolates inside the bucket holding the 95th percentile', () => {
    const buckets = START_DELAY_BUCKETS_MS.map(() => 0).concat(0);
    expect(estimateP95FromBuckets(buckets)).toBeNull();
    buckets[0] = 95; // ≤ 5 ms
    buckets[7] = 5; // (500 ms, 1 s]
    expect(estimateP95FromBuckets(buckets)).toBe(5);
    buckets[0] = 90;
    // 95 counted: the 90.25th falls a twentieth into the 5 in (500 ms, 1 s].
    expect(estimateP95FromBuckets(buckets)).toBeCloseTo(525, 6);
  });
});

/**
 * A claim must cost the same however many runs are queued. Right after many runs are queued at
 * once (a backfill, a catch-up, a restart after an outage) the table's statistics are stale, and
 * the planner, expecting a handful of rows, used to read every queued run and sort them on each
 * claim. Here the claim statement is run under EXPLAIN ANALYZE in the claim's own transaction
 * (its planner settings included) on a table that was never analyzed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Database } from '../../src/db/client.js';
import { findEarliestRunAfter } from '../../src/db/scheduler-queries.js';
import { claimRuns } from '../../src/db/worker-queries.js';
import { createPgliteDatabase } from '../support/databases.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';
import { explainStatement, rowsRead, scansOf, type PlanNode } from '../support/query-plans.js';

const T0 = Date.parse('2026-11-29T12:00:00Z');
const QUEUED = 5_000;

/** The claim with its big statement explained. */
function explainClaim(database: Database, capacity: number): Promise<PlanNode> {
  return explainStatement(database, /^\s*with paused as/, (executor) => claimRuns(executor, { runnerId: 'r1', now: new Date(T0), leaseMs: 30_000, capacity, queueLimits: {}, defaultQueueLimit: 10_000 }));
}

/** `count` QUEUED runs of every schedule, `run_after` at `runAfter` plus n seconds, inserted without ever analyzing the tables. */
async function queueRuns(database: Database, count: number, runAfter: Date, keyPrefix: string, firstSlot = '2026-11-28T00:00:00Z', status = 'QUEUED'): Promise<void> {
  await database.db.execute(
    sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts)
        select s.id, s.version, ${firstSlot}::timestamptz + n * interval '1 second', 'MANUAL', s.name || ':' || ${keyPrefix} || n, ${status}, 2, 'default',
          ${runAfter.toISOString()}::timestamptz + n * interval '1 second', 1
        from schedules s, generate_series(1, ${count}) n`,
  );
}

describe('claim', () => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('reads a bounded number of queued runs, not all of them, even on statistics that were never gathered', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('batch', { cron: '0 0 1 1 *' }) }, T0);
    // Due runs, and as many waiting for a later start: the claim must not read the latter's index.
    await queueRuns(database, QUEUED, new Date(T0 - QUEUED * 1000 - 1000), 'due-');
    await queueRuns(database, QUEUED, new Date(T0), 'later-', '2026-11-29T00:00:00Z');
    const plan = await explainClaim(database, 10);
    // Candidates come from active_runs (the copy the triggers keep), the taken rows from schedule_runs.
    expect(scansOf(plan, 'active_runs').length).toBeGreaterThan(0);
    const scans = [...scansOf(plan, 'active_runs'), ...scansOf(plan, 'schedule_runs')];
    // The claim scans at most max(4 × capacity, 100) candidates; without the planner settings
    // the first scan read all 5,000 queued runs.
    expect(rowsRead(scans)).toBeLessThanOrEqual(100);
    expect(scans.every((node) => node['Node Type'] !== 'Seq Scan' && node['Node Type'] !== 'Bitmap Heap Scan')).toBe(true);
    expect(JSON.stringify(plan)).not.toContain('active_runs_run_after_idx');
  });

  it('does not read retries still waiting out their backoff, however many sort ahead of the due runs', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('batch', { cron: '0 0 1 1 *' }) }, T0);
    // After an outage: 5,000 retries of older slots wait a minute; 200 queued runs and 20 retries are due.
    await queueRuns(database, QUEUED, new Date(T0 + 60_000), 'waiting-', '2026-11-26T00:00:00Z', 'RETRY_PENDING');
    await queueRuns(database, 20, new Date(T0 - 60_000), 'retry-due-', '2026-11-27T00:00:00Z', 'RETRY_PENDING');
    await queueRuns(database, 200, new Date(T0 - 3_600_000), 'due-');
    const plan = await explainClaim(database, 10);
    const scans = [...scansOf(plan, 'active_runs'), ...scansOf(plan, 'schedule_runs')];
    // Without the retry index the claim order read all 5,000 waiting retries before the due runs.
    expect(rowsRead(scans)).toBeLessThanOrEqual(100);
    expect(scans.every((node) => node['Node Type'] !== 'Seq Scan' && node['Node Type'] !== 'Bitmap Heap Scan')).toBe(true);
    // And the claim itself takes the due retries first: their slots are the oldest due ones.
    const claimed = await database.db.transaction((tx) => claimRuns(tx, { runnerId: 'r1', now: new Date(T0), leaseMs: 30_000, capacity: 30, queueLimits: {}, defaultQueueLimit: 10_000 }));
    expect(claimed.map((run) => run.idempotencyKey.split(':')[1]!.replace(/\d+$/, ''))).toEqual([...Array<string>(20).fill('retry-due-'), ...Array<string>(10).fill('due-')]);
  });

  it('reads no more due retries than its scan, however many fell due at once', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('batch', { cron: '0 0 1 1 *' }) }, T0);
    // The backoffs of an outage ran out together: 5,000 retries due, beside 200 queued runs.
    await queueRuns(database, QUEUED, new Date(T0 - QUEUED * 1000 - 60_000), 'retry-due-', '2026-11-26T00:00:00Z', 'RETRY_PENDING');
    await queueRuns(database, 200, new Date(T0 - 3_600_000), 'due-');
    const plan = await explainClaim(database, 10);
    // Each branch reads at most its scan (100): sorting all due retries by claim order read 5,000.
    expect(rowsRead(scansOf(plan, 'active_runs'))).toBeLessThanOrEqual(100);
  });

  it('keeps to the retry index on statistics gathered when half the active runs were retries', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('batch', { cron: '0 0 1 1 *' }) }, T0);
    // Half of the active runs are retries when the statistics are gathered…
    await queueRuns(database, 2_000, new Date(T0 + 60_000), 'waiting-', '2026-11-26T00:00:00Z', 'RETRY_PENDING');
    await queueRuns(database, 2_000, new Date(T0 - 3_600_000), 'running-', '2026-11-24T00:00:00Z', 'RUNNING');
    await database.db.execute(sql`analyze active_runs`);
    // …then many more runs start (RUNNING rows the retry branch must not walk through).
    await queueRuns(database, 30_000, new Date(T0 - 3_600_000), 'started-', '2026-11-27T00:00:00Z', 'RUNNING');
    await queueRuns(database, 20, new Date(T0 - 60_000), 'retry-due-', '2026-11-25T00:00:00Z', 'RETRY_PENDING');
    const plan = await explainClaim(database, 10);
    const scans = scansOf(plan, 'active_runs');
    expect(JSON.stringify(plan)).toContain('active_runs_retry_idx');
    expect(rowsRead(scans.filter((node) => (node as unknown as { 'Index Name'?: string })['Index Name'] !== 'active_runs_running_idx'))).toBeLessThanOrEqual(100);
  });

  it('finds when the next waiting run falls due from one index entry, however many wait', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('batch', { cron: '0 0 1 1 *' }) }, T0);
    await queueRuns(database, QUEUED, new Date(T0 - QUEUED * 1000 - 1000), 'due-');
    await queueRuns(database, QUEUED, new Date(T0 + 60_000), 'later-', '2026-11-27T00:00:00Z');
    expect(await findEarliestRunAfter(database.db, new Date(T0))).toEqual(new Date(T0 + 61_000));
    // A retry falling due sooner comes first; one falling due later changes nothing.
    await queueRuns(database, 1, new Date(T0 + 90_000), 'retry-later-', '2026-11-25T00:00:00Z', 'RETRY_PENDING');
    expect(await findEarliestRunAfter(database.db, new Date(T0))).toEqual(new Date(T0 + 61_000));
    await queueRuns(database, 1, new Date(T0 + 30_000), 'retry-sooner-', '2026-11-26T00:00:00Z', 'RETRY_PENDING');
    expect(await findEarliestRunAfter(database.db, new Date(T0))).toEqual(new Date(T0 + 31_000));
    const plan = await explainStatement(database, /^\s*select run_after as at from active_runs/, (executor) => findEarliestRunAfter(executor, new Date(T0)));
    const scans = scansOf(plan, 'active_runs');
    expect(JSON.stringify(plan)).toContain('active_runs_run_after_idx');
    // One entry read (without the index: all 10,000 waiting runs).
    expect(rowsRead(scans)).toBeLessThanOrEqual(1);
  });

  it('looks up only the paused schedules to hold back their scheduled runs, not every schedule', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('batch', { cron: '0 0 1 1 *' }) }, T0);
    // 3,000 more schedules (rows only: the claim reads names and pause state), one paused, each with a due SCHEDULED run.
    await database.db.execute(
      sql`insert into schedules (name, version, definition, digest, paused_at)
          select 'bulk-' || n, 1, s.definition, s.digest, case when n = 7 then ${new Date(T0).toISOString()}::timestamptz end
          from schedules s, generate_series(1, 3000) n`,
    );
    await database.db.execute(
      sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts)
          select s.id, 1, '2026-11-29T11:00:00Z', 'SCHEDULED', s.name || ':slot', 'QUEUED', 2, 'default', ${new Date(T0 - 1000).toISOString()}::timestamptz, 1
          from schedules s`,
    );
    const plan = await explainClaim(database, 10);
    const scans = scansOf(plan, 'schedules');
    expect(scans.length).toBeGreaterThan(0);
    // One read of the paused ones (a single schedule), then the names of the 10 claimed runs by
    // key; not a pass over all 3,001 schedules, nor one lookup per scanned candidate (100).
    expect(scans.reduce((sum, node) => sum + node['Actual Loops'], 0)).toBeLessThanOrEqual(11);
    expect(rowsRead(scans)).toBeLessThanOrEqual(10);
  });
});

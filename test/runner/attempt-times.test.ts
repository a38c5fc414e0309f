/**
 * The recorded [started_at, finished_at) of the attempts of one run never overlap (found by
 * bench/chaos): an outcome written late (a drain, a database outage) keeps the instant the attempt
 * ended, and a run released at shutdown cannot be claimed by a clock reading older than the release.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';
import { claimRuns, releaseLeases } from '../../src/db/worker-queries.js';
import { Worker } from '../../src/runner/worker.js';
import { ManualClock } from '../../src/shared/clock.js';
import { DEFAULT_POLICY } from '../../src/compile/definition.js';
import { createPgliteDatabase } from '../support/databases.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';
import { everyAttempt } from '../../src/db/open-attempts.js';
import { heldJobs } from './held-jobs.js';

const T0 = Date.parse('2026-11-29T12:00:00Z');
const { source: _source, ...policy } = DEFAULT_POLICY;

async function queueManualRun(database: Database): Promise<void> {
  await database.db.execute(
    sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts)
        select id, version, '2026-11-29T12:00:00Z', 'MANUAL', name || ':manual', 'QUEUED', 2, 'default', '2026-11-29T12:00:00Z', 2 from schedules`,
  );
}

const times = (database: Database) =>
  queryRows<{ attempt: number; started: string; finished: string | null; run_after: string }>(
    database.db,
    sql`select a.attempt, to_char(a.started_at at time zone 'UTC', 'HH24:MI:SS.MS') as started, to_char(a.finished_at at time zone 'UTC', 'HH24:MI:SS.MS') as finished,
          to_char(r.run_after at time zone 'UTC', 'HH24:MI:SS.MS') as run_after
        from ${everyAttempt()} a join schedule_runs r on r.id = a.run_id order by a.attempt`,
  );

describe('attempt times', () => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
  });

  it('an outcome written late keeps the instant the attempt ended, and the retry waits from there', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('fails', { cron: '0 0 1 1 *', retry: { maxAttempts: 2, backoff: 'fixed', initialDelay: '1s' } }) }, T0);
    await queueManualRun(database);
    const clock = new ManualClock(T0 + 10_000);
    const jobs = heldJobs();
    const worker = new Worker(database, { runnerId: 'late', clock, concurrency: 1, leaseMs: 30_000, killGraceMs: 200, baseDir: process.cwd(), env: {}, execute: jobs.execute }, policy);
    await worker.claimAndStart();
    jobs.finishAll({ status: 'FAILED', exitCode: 1, httpStatus: null, error: 'exited with code 1', stdoutTail: null, stderrTail: null, durationMs: 0 });
    expect(await worker.waitForExecutions(10_000)).toBe(true);
    // Written five seconds after the attempt ended: its end is still 12:00:10.
    clock.advance(5_000);
    await worker.flushCompletions();
    expect(await times(database)).toEqual([{ attempt: 1, started: '12:00:10.000', finished: '12:00:10.000', run_after: '12:00:11.000' }]);
  });

  it('a run released at shutdown is claimable only from the instant of its release', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('released', { cron: '0 0 1 1 *' }) }, T0);
    await queueManualRun(database);
    const claim = (runnerId: string, nowMs: number) =>
      database!.db.transaction((tx) => claimRuns(tx, { runnerId, now: new Date(nowMs), leaseMs: 30_000, capacity: 1, queueLimits: { default: 5 }, defaultQueueLimit: 5 }));
    const [run] = await claim('stopping', T0 + 1_000);
    await database.db.transaction((tx) => releaseLeases(tx, 'stopping', [{ runId: run!.id, slot: run!.slot }], new Date(T0 + 10_000)));
    // A claim that read its clock (12:00:05) before the release committed takes nothing…
    expect(await claim('other', T0 + 5_000)).toEqual([]);
    // …and the next one starts the attempt after the released one ended.
    expect(await claim('other', T0 + 10_000)).toHaveLength(1);
    expect((await times(database)).map(({ attempt, started, finished }) => ({ attempt, started, finished }))).toEqual([
      { attempt: 1, started: '12:00:01.000', finished: '12:00:10.000' },
      { attempt: 2, started: '12:00:10.000', finished: null },
    ]);
  });
});

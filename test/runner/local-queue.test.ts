/**
 * Claiming ahead (the worker's local queue): a runner claims more runs than it has free slots
 * only once its jobs have proven short, keeps them RUNNING under its lease, starts them in
 * priority order, records when each really started, and hands back the unstarted ones at shutdown
 * exactly as they were. Jobs are held open by the test (held-jobs.ts, the worker's `execute`
 * seam) so every step is observed between two statements, with a manual clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';
import { Worker } from '../../src/runner/worker.js';
import { ManualClock } from '../../src/shared/clock.js';
import { DEFAULT_POLICY } from '../../src/compile/definition.js';
import type { StoredPolicy } from '../../src/db/settings-queries.js';
import { runReconcileTick } from '../../src/runner/reconciler.js';
import { STOP_MARGIN_MS } from '../../src/runner/policy/lease.js';
import { createPgliteDatabase } from '../support/databases.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';
import { everyAttempt } from '../../src/db/open-attempts.js';
import { heldJobs } from './held-jobs.js';

const T0 = Date.parse('2026-11-29T12:00:00Z');
const { source: _source, ...defaultPolicy } = DEFAULT_POLICY;
/** Queue limits out of the way, except where a test is about them. */
const roomyPolicy: StoredPolicy = { ...defaultPolicy, queues: { default: { concurrency: 100 } } };

/** Queues `count` MANUAL runs of the one applied schedule, slots one second apart, at `priority`. */
async function queueRuns(database: Database, count: number, options: { priority?: number; firstSlot?: string } = {}): Promise<void> {
  await database.db.execute(
    sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts)
        select s.id, s.version, ${options.firstSlot ?? '2026-11-29T11:00:00Z'}::timestamptz + n * interval '1 second', 'MANUAL',
          s.name || ':' || ${options.firstSlot ?? ''} || ':' || n, 'QUEUED', ${options.priority ?? 2}, 'default', ${new Date(T0).toISOString()}::timestamptz, 1
        from schedules s, generate_series(0, ${count - 1}) n`,
  );
}

const runRows = (database: Database) =>
  queryRows<{ id: string; status: string; lease_owner: string | null; attempts: number; started_at: Date | null; attempt_rows: number }>(
    database.db,
    sql`select r.id, r.status, r.lease_owner, r.attempts, r.started_at, (select count(*)::int from ${everyAttempt()} a where a.run_id = r.id) as attempt_rows
        from schedule_runs r order by r.id`,
  );

async function setUp(options: { concurrency: number; prefetch: number; policy?: StoredPolicy }) {
  const database = await createPgliteDatabase();
  await applyManifests(database, { 'a.yaml': scheduleManifest('batch', { cron: '0 0 1 1 *' }) }, T0);
  const clock = new ManualClock(T0);
  const jobs = heldJobs();
  const worker = new Worker(
    database,
    { runnerId: 'r1', clock, concurrency: options.concurrency, prefetch: options.prefetch, leaseMs: 30_000, killGraceMs: 200, baseDir: process.cwd(), env: {}, execute: jobs.execute },
    options.policy ?? roomyPolicy,
  );
  return { database, clock, jobs, worker };
}

/** Lets the jobs' promise callbacks (outcome recorded, next local run started) run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A first round of 0 ms jobs proves them short; the next claim fills the slots and the local queue. */
async function fillLocalQueue(setup: Awaited<ReturnType<typeof setUp>>): Promise<void> {
  await setup.worker.claimAndStart();
  setup.jobs.finishAll();
  await settle();
  await setup.worker.flushAndClaim();
}

describe('worker local queue', () => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('claims only free slots until jobs have proven short, then claims ahead and keeps the extra runs RUNNING under its lease', async () => {
    const setup = await setUp({ concurrency: 2, prefetch: 5 });
    database = setup.database;
    await queueRuns(database, 20);
    expect(await setup.worker.claimAndStart()).toBe(2);
    expect(setup.worker.activeCount).toBe(2);
    setup.jobs.finishAll();
    await settle();
    // Two jobs of 0 ms: the local queue may now hold its maximum.
    expect(setup.worker.prefetchTarget).toBe(5);
    expect(await setup.worker.flushAndClaim()).toEqual({ flushed: 2, claimed: 7 });
    expect(setup.worker.activeCount).toBe(2);
    expect(setup.worker.queuedLocally).toBe(5);
    const rows = await runRows(database);
    expect(rows.filter((r) => r.status === 'SUCCESS')).toHaveLength(2);
    const held = rows.filter((r) => r.status === 'RUNNING');
    expect(held).toHaveLength(7);
    expect(held.every((r) => r.lease_owner === 'r1' && r.attempts === 1 && r.attempt_rows === 1)).toBe(true);
  });

  it('claims no further ahead than its free slots when jobs take seconds', async () => {
    const setup = await setUp({ concurrency: 2, prefetch: 1000 });
    database = setup.database;
    await queueRuns(database, 20);
    await setup.worker.claimAndStart();
    setup.clock.advance(3_000);
    setup.jobs.finishAll();
    await settle();
    // 2 slots × 100 ms of waiting / 3 s per job: nothing ahead.
    expect(setup.worker.prefetchTarget).toBe(0);
    expect(await setup.worker.flushAndClaim()).toEqual({ flushed: 2, claimed: 2 });
    expect(setup.worker.queuedLocally).toBe(0);
  });

  it('records when each job really started, not when it was claimed', async () => {
    const setup = await setUp({ concurrency: 1, prefetch: 5 });
    database = setup.database;
    await queueRuns(database, 3);
    await fillLocalQueue(setup); // claims the other two at 12:00:00; one starts, one waits
    const [, second, third] = (await runRows(database)).map((r) => Number(r.id));
    setup.clock.advance(400);
    setup.jobs.finish(second!); // the third starts now, 400 ms after its claim
    await settle();
    setup.clock.advance(100);
    setup.jobs.finish(third!);
    await settle();
    await setup.worker.flushCompletions();
    const starts = await queryRows<{ run_id: string; attempt_start: Date; run_start: Date }>(
      database.db,
      sql`select a.run_id, a.started_at as attempt_start, r.started_at as run_start from run_attempts a join schedule_runs r on r.id = a.run_id order by a.run_id`,
    );
    expect(starts.map((s) => [new Date(s.attempt_start).getTime() - T0, new Date(s.run_start).getTime() - T0])).toEqual([
      [0, 0],
      [0, 0],
      [400, 400],
    ]);
  });

  it('starts a more urgent run claimed later before the runs already waiting, and claims again once half the local queue has drained', async () => {
    const setup = await setUp({ concurrency: 1, prefetch: 4 });
    database = setup.database;
    await queueRuns(database, 10, { priority: 3 });
    await fillLocalQueue(setup); // 1 running + 4 waiting (LOW)
    expect(setup.worker.queuedLocally).toBe(4);
    await queueRuns(database, 1, { priority: 1, firstSlot: '2026-11-29T11:30:00Z' }); // HIGH
    setup.jobs.finishAll(); // the oldest LOW run starts from the local queue: 3 wait
    await settle();
    // Room for 1 of 4: the local queue is still more than half full, so no claim yet.
    expect(await setup.worker.flushAndClaim()).toEqual({ flushed: 1, claimed: 0 });
    setup.jobs.finishAll(); // 2 wait: room for 2
    await settle();
    expect(await setup.worker.flushAndClaim()).toEqual({ flushed: 1, claimed: 2 }); // the HIGH run and one LOW
    const [urgent] = (await queryRows<{ id: string }>(database.db, sql`select id from schedule_runs where priority = 1`)).map((r) => Number(r.id));
    const before = setup.jobs.started.length;
    setup.jobs.finishAll();
    await settle();
    expect(setup.jobs.started[before]).toBe(urgent);
  });

  it('counts runs waiting locally against their queue limit', async () => {
    const setup = await setUp({ concurrency: 1, prefetch: 100, policy: { ...defaultPolicy, queues: { default: { concurrency: 3 } } } });
    database = setup.database;
    await queueRuns(database, 20);
    await fillLocalQueue(setup);
    expect((await runRows(database)).filter((r) => r.status === 'RUNNING')).toHaveLength(3);
    expect(setup.worker.activeCount + setup.worker.queuedLocally).toBe(3);
  });

  it('hands back the runs it never started exactly as they were, and keeps the running ones', async () => {
    const setup = await setUp({ concurrency: 2, prefetch: 4 });
    database = setup.database;
    await queueRuns(database, 10);
    await fillLocalQueue(setup); // 2 running, 4 waiting
    expect(await setup.worker.returnUnstarted()).toBe(4);
    const rows = await runRows(database);
    expect(rows.filter((r) => r.status === 'RUNNING')).toHaveLength(2);
    const returned = rows.filter((r) => r.status === 'QUEUED');
    expect(returned).toHaveLength(6); // 4 handed back + 2 never claimed
    expect(returned.every((r) => r.attempts === 0 && r.started_at === null && r.attempt_rows === 0 && r.lease_owner === null)).toBe(true);
    expect(setup.worker.queuedLocally).toBe(0);
    setup.jobs.finishAll();
    await settle();
    expect(await setup.worker.flushCompletions()).toBe(2);
    expect(setup.jobs.started).toHaveLength(4);
  });

  it('drops a cancelled run from the local queue without starting it', async () => {
    const setup = await setUp({ concurrency: 1, prefetch: 2 });
    database = setup.database;
    await queueRuns(database, 4);
    await fillLocalQueue(setup); // 1 running, 2 waiting
    const waiting = (await runRows(database)).filter((r) => r.status === 'RUNNING').map((r) => Number(r.id)).filter((id) => !setup.jobs.running.has(id));
    expect(waiting).toHaveLength(2);
    setup.worker.abandon(waiting[0]!);
    expect(setup.worker.queuedLocally).toBe(1);
    setup.jobs.finishAll();
    await settle();
    expect(setup.jobs.started).not.toContain(waiting[0]);
    expect(setup.jobs.started).toContain(waiting[1]);
  });

  it('records running attempts on their run rows, RUNNING for runs that start at once and CLAIMED until their job starts, and writes each attempt\'s row once, at its outcome', async () => {
    const setup = await setUp({ concurrency: 2, prefetch: 3 });
    database = setup.database;
    await queueRuns(database, 10);
    await fillLocalQueue(setup); // 2 start at once, 3 wait
    const rows = () => queryRows<{ run_id: string; status: string; started_at: Date }>(database!.db, sql`select run_id, status, started_at from run_attempts order by run_id`);
    const attempts = () => queryRows<{ run_id: string; status: string; started_at: Date }>(database!.db, sql`select run_id, status, started_at from ${everyAttempt()} a order by run_id`);
    expect((await rows()).map((a) => a.status)).toEqual(['SUCCEEDED', 'SUCCEEDED']);
    expect((await attempts()).map((a) => a.status)).toEqual(['SUCCEEDED', 'SUCCEEDED', 'RUNNING', 'RUNNING', 'CLAIMED', 'CLAIMED', 'CLAIMED']);
    // The running ones are read with their claim as start, from the run row.
    expect((await attempts()).slice(2, 4).map((a) => new Date(a.started_at).getTime())).toEqual([T0, T0]);
    setup.clock.advance(250);
    setup.jobs.finish(Number((await attempts())[2]!.run_id)); // the first waiting run starts now
    await settle();
    await setup.worker.flushCompletions();
    const after = await attempts();
    expect(after.map((a) => a.status)).toEqual(['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED', 'RUNNING', 'RUNNING', 'CLAIMED', 'CLAIMED']);
    expect(new Date(after[4]!.started_at).getTime()).toBe(T0 + 250);
    // The outcome wrote the finished attempt's row once, with its start; the start mark wrote none.
    expect((await rows()).map((a) => a.status)).toEqual(['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']);
    expect(new Date((await rows())[2]!.started_at).getTime()).toBe(T0);
  });

  it('after its runner died, hands back the runs it never started (no attempt used) and stalls the ones it started', async () => {
    const setup = await setUp({ concurrency: 2, prefetch: 3 });
    database = setup.database;
    await queueRuns(database, 10);
    await fillLocalQueue(setup); // 2 running, 3 waiting; then the runner is gone
    // Lease 30 s. Its owner ('r1', no runner row) is assumed to use a kill grace of 5 s: until
    // expiry + 5 s + the stop margin, its jobs may still be dying, so nothing is resolved.
    expect(await runReconcileTick(database, { nowMs: T0 + 30_000 + 5_000 + STOP_MARGIN_MS, runnerSilenceMs: 90_000, defaultKillGraceMs: 5_000 })).toMatchObject({ stalled: 0, requeued: 0 });
    await runReconcileTick(database, { nowMs: T0 + 30_000 + 5_000 + STOP_MARGIN_MS + 1_000, runnerSilenceMs: 90_000, defaultKillGraceMs: 5_000 });
    const rows = await queryRows<{ status: string; attempts: number; max_attempts: number; attempt_status: string }>(
      database.db,
      sql`select r.status, r.attempts, r.max_attempts, a.status as attempt_status from schedule_runs r join run_attempts a on a.run_id = r.id and a.attempt = r.attempts
          where a.status not in ('SUCCEEDED') order by r.id`,
    );
    // The reconciler wrote these rows from the run rows as they were: the dead runner, its claim.
    const written = await queryRows<{ runner_id: string; started_ms: number }>(
      database.db,
      sql`select runner_id, (extract(epoch from started_at) * 1000)::float8 as started_ms from run_attempts where status in ('STALLED', 'CANCELLED')`,
    );
    expect(written.map((w) => [w.runner_id, Number(w.started_ms)])).toEqual(Array.from({ length: 5 }, () => ['r1', T0])); // 2 stalled, 3 handed back
    expect(rows).toEqual([
      { status: 'FAILED', attempts: 1, max_attempts: 1, attempt_status: 'STALLED' },
      { status: 'FAILED', attempts: 1, max_attempts: 1, attempt_status: 'STALLED' },
      { status: 'QUEUED', attempts: 1, max_attempts: 2, attempt_status: 'CANCELLED' },
      { status: 'QUEUED', attempts: 1, max_attempts: 2, attempt_status: 'CANCELLED' },
      { status: 'QUEUED', attempts: 1, max_attempts: 2, attempt_status: 'CANCELLED' },
    ]);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';
import { Runner } from '../../src/runner/runner.js';
import { runSchedulerTick } from '../../src/runner/scheduler.js';
import { approveRun } from '../../src/operations/runs/approve.js';
import { ManualClock } from '../../src/shared/clock.js';
import { DEFAULT_POLICY } from '../../src/compile/definition.js';
import { createPgliteDatabase } from '../support/databases.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';
import { isProcessDead, jobsDir } from './executors/executor-fixtures.js';
import { heldJobs } from './held-jobs.js';
import type { ExecutionOutcome } from '../../src/runner/run-types.js';

const T0 = Date.parse('2026-11-29T12:00:00Z');
const { source: _source, ...policy } = DEFAULT_POLICY;

interface RunRow {
  id: number;
  scheduled_for: string;
  status: string;
  status_reason: string | null;
  attempts: number;
  idempotency_key: string;
  business_date: string | null;
  trigger_type: string;
}

async function runs(database: Database): Promise<RunRow[]> {
  return queryRows<RunRow>(
    database.db,
    sql`select id::int as id, to_char(scheduled_for at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as scheduled_for, status, status_reason, attempts,
          idempotency_key, business_date::text as business_date, trigger_type
        from schedule_runs order by scheduled_for, id`,
  );
}

async function attempts(database: Database): Promise<Array<{ run_id: number; attempt: number; status: string; error: string | null }>> {
  return queryRows(database.db, sql`select run_id::int as run_id, attempt, status, error from run_attempts order by run_id, attempt`);
}

describe('runner on embedded PGlite, driven tick by tick', () => {
  let database: Database | undefined;
  let runner: Runner | undefined;
  afterEach(async () => {
    await runner?.worker.releaseUnfinished().catch(() => undefined);
    await database?.close();
    runner = undefined;
  });

  /** Jobs run in process and end when the test says (held-jobs.ts), unless `jobs` is 'real': then they are child processes. */
  function createRunner(db: Database, clock: ManualClock, jobs: ReturnType<typeof heldJobs> | 'real'): Runner {
    return new Runner(db, { clock, concurrency: 4, leaseMs: 30_000, baseDir: process.cwd(), env: process.env, killGraceMs: 500, ...(jobs === 'real' ? {} : { execute: jobs.execute }) });
  }

  it('creates one run at the slot, executes it and records SUCCESS, then schedules the next slot', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('five-minutely', { cron: '*/5 * * * *', businessDate: { offsetDays: -1 } }) }, T0);
    const clock = new ManualClock(T0 + 5 * 60_000 + 120);
    const jobs = heldJobs();
    runner = createRunner(database, clock, jobs);
    await runner.tick();
    expect(runner.worker.activeCount).toBe(1);
    jobs.finishAll();
    expect(await runner.worker.waitForExecutions(10_000)).toBe(true);
    await runner.tick();
    expect(await runs(database)).toEqual([
      { id: 1, scheduled_for: '2026-11-29T12:05:00Z', status: 'SUCCESS', status_reason: null, attempts: 1, idempotency_key: 'five-minutely:2026-11-29T12:05:00.000Z:SCHEDULED', business_date: '2026-11-28', trigger_type: 'SCHEDULED' },
    ]);
    expect(await attempts(database)).toEqual([{ run_id: 1, attempt: 1, status: 'SUCCEEDED', error: null }]);
    const [schedule] = await queryRows<{ next: string }>(database.db, sql`select to_char(next_run_at at time zone 'UTC', 'HH24:MI') as next from schedules`);
    expect(schedule?.next).toBe('12:10');
  });

  it('creates the run of a slot a moment ahead and starts it at the slot, not before', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('five-minutely', { cron: '*/5 * * * *' }) }, T0);
    const slotMs = T0 + 5 * 60_000;
    const clock = new ManualClock(slotMs - 60);
    const jobs = heldJobs();
    runner = createRunner(database, clock, jobs);
    await runner.tick(); // 60 ms ahead, within the default lookahead of 100 ms
    expect((await runs(database)).map((r) => [r.scheduled_for, r.status, r.attempts])).toEqual([['2026-11-29T12:05:00Z', 'QUEUED', 0]]);
    expect(runner.worker.activeCount).toBe(0);
    const [schedule] = await queryRows<{ next: string }>(database.db, sql`select to_char(next_run_at at time zone 'UTC', 'HH24:MI') as next from schedules`);
    expect(schedule?.next).toBe('12:10');
    clock.advance(59);
    await runner.tick();
    expect(runner.worker.activeCount).toBe(0);
    clock.advance(1);
    await runner.tick(); // the slot: claimed and started
    expect(runner.worker.activeCount).toBe(1);
    jobs.finishAll();
    expect(await runner.worker.waitForExecutions(10_000)).toBe(true);
    await runner.tick();
    expect((await runs(database)).map((r) => r.status)).toEqual(['SUCCESS']);
    const [started] = await queryRows<{ late_ms: number }>(database.db, sql`select extract(epoch from (a.started_at - r.scheduled_for)) * 1000 as late_ms from run_attempts a join schedule_runs r on r.id = a.run_id`);
    expect(Number(started?.late_ms)).toBe(0);
  });

  it('wakes at once for a run that fell due while its tick was claiming, not at the next reason to wake', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('five-minutely', { cron: '*/5 * * * *' }) }, T0);
    const slotMs = T0 + 5 * 60_000;
    const clock = new ManualClock(slotMs - 60);
    runner = createRunner(database, clock, heldJobs());
    await runner.tick(); // creates the slot's run 60 ms ahead: QUEUED, not claimable yet
    expect((await runs(database)).map((r) => r.status)).toEqual(['QUEUED']);
    // The tick's claim came before the slot, but the tick ended after it (a slow transaction).
    clock.advance(80);
    const wakeAtMs = await runner.nextWakeAtMs(clock.nowMs());
    // Before the fix the loop looked only for runs due after now and slept to the next heartbeat
    // (10 s here; up to the next slot on a busy runner): a per-second run started a second late.
    expect(wakeAtMs).toBe(slotMs);
  });

  it('retries a failed attempt with backoff as a new attempt of the same run', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('flaky', { cron: '0 * * * *', retry: { maxAttempts: 3, backoff: 'fixed', initialDelay: '30s' } }) }, T0);
    const clock = new ManualClock(T0 + 3_600_000);
    const jobs = heldJobs();
    runner = createRunner(database, clock, jobs);
    await runner.tick();
    // The first attempt fails as a command exiting with 3 does, the second succeeds.
    const exitedWith3: ExecutionOutcome = { status: 'FAILED', exitCode: 3, httpStatus: null, error: 'exited with code 3', stdoutTail: null, stderrTail: null, durationMs: 0 };
    jobs.finishAll(exitedWith3);
    await runner.worker.waitForExecutions(10_000);
    await runner.tick();
    expect((await runs(database)).map((r) => [r.status, r.attempts])).toEqual([['RETRY_PENDING', 1]]);
    clock.advance(10_000);
    await runner.tick();
    expect(runner.worker.activeCount).toBe(0);
    clock.advance(21_000);
    await runner.tick();
    expect(runner.worker.activeCount).toBe(1);
    jobs.finishAll();
    await runner.worker.waitForExecutions(10_000);
    await runner.tick();
    const [run] = await runs(database);
    expect(run).toMatchObject({ status: 'SUCCESS', attempts: 2, idempotency_key: 'flaky:2026-11-29T13:00:00.000Z:SCHEDULED' });
    expect((await attempts(database)).map((a) => [a.attempt, a.status, a.error])).toEqual([
      [1, 'FAILED', 'exited with code 3'],
      [2, 'SUCCEEDED', null],
    ]);
  });

  it('a job past its timeout is killed with its whole process group, SIGTERM ignored, and recorded TIMED_OUT', async () => {
    database = await createPgliteDatabase();
    // The job and a grandchild ignore SIGTERM and never end; both print their pids once ready.
    const job = { type: 'command', command: [process.execPath, `${jobsDir}/process-tree.js`, '-', 'ignore-term', 'stay'] };
    await applyManifests(database, { 'a.yaml': scheduleManifest('hangs', { cron: '0 * * * *', job, timeout: '3s', retry: { maxAttempts: 2, backoff: 'fixed', initialDelay: '30s' } }) }, T0);
    const clock = new ManualClock(T0 + 3_600_000);
    // Real processes: the process group and its kill are what is under test. The job's timeout
    // runs on real time whatever the runner's clock (executors/long-timer.ts).
    runner = createRunner(database, clock, 'real');
    await runner.tick();
    expect(runner.worker.activeCount).toBe(1);
    expect(await runner.worker.waitForExecutions(10_000)).toBe(true);
    await runner.tick();
    const [attempt] = await queryRows<{ status: string; error: string; exit_code: number | null; stdout_tail: string }>(database.db, sql`select status, error, exit_code, stdout_tail from run_attempts`);
    expect(attempt).toMatchObject({ status: 'TIMED_OUT', error: 'timed out after 3s', exit_code: null });
    const pids = JSON.parse(attempt!.stdout_tail) as { child: number; grandchild: number };
    expect(isProcessDead(pids.child)).toBe(true);
    expect(isProcessDead(pids.grandchild)).toBe(true);
    // A timeout is a failed attempt: the run retries per its policy, 30 s after the attempt ended.
    expect((await runs(database))[0]).toMatchObject({ status: 'RETRY_PENDING', attempts: 1 });
    const [retry] = await queryRows<{ wait_ms: number }>(database.db, sql`select extract(epoch from r.run_after - a.finished_at) * 1000 as wait_ms from schedule_runs r join run_attempts a on a.run_id = r.id`);
    expect(Number(retry?.wait_ms)).toBe(30_000);
  });

  it('QUEUE_NEW: slots due while a run is active wait as PENDING and are promoted in slot order', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('queued', { cron: '* * * * *', overlap: 'QUEUE_NEW' }) }, T0);
    for (const minute of [1, 2, 3]) await runSchedulerTick(database, { nowMs: T0 + minute * 60_000 + 10, policy });
    expect((await runs(database)).map((r) => r.status)).toEqual(['QUEUED', 'PENDING', 'PENDING']);
    const clock = new ManualClock(T0 + 3 * 60_000 + 20);
    const jobs = heldJobs();
    runner = createRunner(database, clock, jobs);
    await runner.tick();
    jobs.finishAll();
    await runner.worker.waitForExecutions(10_000);
    await runner.tick();
    expect((await runs(database)).map((r) => r.status)).toEqual(['SUCCESS', 'RUNNING', 'PENDING']);
  });

  it('SKIP_NEW: a slot due while a run is active is recorded as SKIPPED/OVERLAP', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('skipper', { cron: '* * * * *', overlap: 'SKIP_NEW' }) }, T0);
    for (const minute of [1, 2]) await runSchedulerTick(database, { nowMs: T0 + minute * 60_000 + 10, policy });
    expect((await runs(database)).map((r) => [r.status, r.status_reason])).toEqual([
      ['QUEUED', null],
      ['SKIPPED', 'OVERLAP'],
    ]);
  });

  it('ALLOW: every slot is queued even while another run is active', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('allower', { cron: '* * * * *', overlap: 'ALLOW' }) }, T0);
    for (const minute of [1, 2]) await runSchedulerTick(database, { nowMs: T0 + minute * 60_000 + 10, policy });
    expect((await runs(database)).map((r) => r.status)).toEqual(['QUEUED', 'QUEUED']);
  });

  it('a duplicate scheduler tick for the same slot creates nothing new', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('dup', { cron: '* * * * *' }) }, T0);
    await runSchedulerTick(database, { nowMs: T0 + 60_010, policy });
    await database.db.execute(sql`update schedules set next_run_at = '2026-11-29T12:01:00Z'`);
    await runSchedulerTick(database, { nowMs: T0 + 60_020, policy });
    expect(await runs(database)).toHaveLength(1);
  });

  it('the slot key refuses a second run of a slot written past the scheduler, whatever its idempotency key', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('keyed', { cron: '* * * * *' }) }, T0);
    await runSchedulerTick(database, { nowMs: T0 + 60_010, policy });
    // A writer that bypasses the scheduler's ON CONFLICT DO NOTHING (a bug, a hand-written insert)
    // with a new idempotency key: only the unique slot key stands in the way.
    const duplicate = database.db.execute(
      sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts)
          select schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key || ':again', 'QUEUED', priority, queue, run_after, max_attempts
          from schedule_runs`,
    );
    // The index that refuses it is the slot key's share in the partition the slot falls in.
    await expect(duplicate).rejects.toMatchObject({ cause: { code: '23505', constraint: expect.stringMatching(/^schedule_runs_\w+_schedule_id_scheduled_for_trigger_typ\w*_(key|idx)$/) } });
    expect((await runs(database)).map((r) => r.idempotency_key)).toEqual(['keyed:2026-11-29T12:01:00.000Z:SCHEDULED']);
  });

  it('approval: runs of a schedule with approval required wait in MANUAL_REQUIRED, are not claimed, and run once approved', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('gated', { cron: '0 3 * * *', approval: 'required' }) }, T0);
    const clock = new ManualClock(Date.parse('2026-11-30T03:00:00.050Z'));
    const jobs = heldJobs();
    runner = createRunner(database, clock, jobs);
    await runner.tick();
    expect(runner.worker.activeCount).toBe(0);
    expect((await runs(database)).map((r) => r.status)).toEqual(['MANUAL_REQUIRED']);
    // Still waiting a minute later: only an approval lets it start.
    clock.advance(60_000);
    await runner.tick();
    expect(runner.worker.activeCount).toBe(0);
    const [waiting] = await runs(database);
    expect(waiting?.status).toBe('MANUAL_REQUIRED');
    await approveRun(database, { runId: waiting!.id, nowMs: clock.nowMs(), author: { actor: 'oncall', reason: 'checked the input files', gitSha: null } });
    clock.advance(1_000);
    await runner.tick();
    expect(runner.worker.activeCount).toBe(1);
    jobs.finishAll();
    expect(await runner.worker.waitForExecutions(10_000)).toBe(true);
    await runner.tick();
    expect((await runs(database))[0]).toMatchObject({ status: 'SUCCESS', attempts: 1, scheduled_for: '2026-11-30T03:00:00Z' });
    const audit = await queryRows<{ action: string; actor: string }>(database.db, sql`select action, actor from audit_log where run_id is not null`);
    expect(audit).toEqual([{ action: 'RUN_APPROVED', actor: 'oncall' }]);
  });

  it('an expired lease is recovered per onStall: retry → RETRY_PENDING with the attempt marked STALLED', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('stalls', { cron: '0 * * * *', onStall: 'retry', retry: { maxAttempts: 2, backoff: 'fixed', initialDelay: '1s' } }) }, T0);
    await runSchedulerTick(database, { nowMs: T0 + 3_600_000, policy });
    // A runner claims the run and dies without a heartbeat.
    await database.db.execute(sql`update schedule_runs set status = 'RUNNING', attempts = 1, lease_owner = 'dead-runner', lease_expires_at = '2026-11-29T13:00:30Z'`);
    await database.db.execute(sql`insert into run_attempts (run_id, attempt, scheduled_for, runner_id, status, started_at) select 1, 1, scheduled_for, 'dead-runner', 'RUNNING', '2026-11-29T13:00:00Z' from schedule_runs where id = 1`);
    const clock = new ManualClock(Date.parse('2026-11-29T13:01:00Z'));
    const jobs = heldJobs();
    runner = new Runner(database, { clock, concurrency: 0 + 1, leaseMs: 30_000, baseDir: process.cwd(), env: process.env, execute: jobs.execute });
    await runner.tick();
    const [attempt] = await attempts(database);
    expect(attempt).toMatchObject({ attempt: 1, status: 'STALLED' });
    expect((await runs(database))[0]).toMatchObject({ status: 'RETRY_PENDING', status_reason: 'STALLED', attempts: 1 });
    // The retry is claimed again (attempt 2) once its backoff has passed.
    clock.advance(2_000);
    await runner.tick();
    jobs.finishAll();
    await runner.worker.waitForExecutions(10_000);
    await runner.tick();
    expect((await runs(database))[0]).toMatchObject({ status: 'SUCCESS', attempts: 2 });
  });

  it.each([
    { onStall: 'fail', status: 'FAILED', finished: true },
    { onStall: 'manual', status: 'MANUAL_REQUIRED', finished: false },
  ])('an expired lease is recovered per onStall: $onStall → $status, never run again, and not before the lease expires', async ({ onStall, status, finished }) => {
    database = await createPgliteDatabase();
    // Retries left, so only onStall keeps the run from being attempted again.
    await applyManifests(database, { 'a.yaml': scheduleManifest('stalls', { cron: '0 * * * *', onStall, retry: { maxAttempts: 3, backoff: 'fixed', initialDelay: '1s' } }) }, T0);
    await runSchedulerTick(database, { nowMs: T0 + 3_600_000, policy });
    await database.db.execute(sql`update schedule_runs set status = 'RUNNING', attempts = 1, lease_owner = 'dead-runner', lease_expires_at = '2026-11-29T13:00:30Z'`);
    await database.db.execute(sql`insert into run_attempts (run_id, attempt, scheduled_for, runner_id, status, started_at) select 1, 1, scheduled_for, 'dead-runner', 'RUNNING', '2026-11-29T13:00:00Z' from schedule_runs where id = 1`);
    const clock = new ManualClock(Date.parse('2026-11-29T13:00:20Z'));
    runner = new Runner(database, { clock, concurrency: 1, leaseMs: 30_000, baseDir: process.cwd(), env: process.env, execute: heldJobs().execute });
    await runner.tick();
    // The lease still runs for 10 s: the run is its owner's.
    expect((await runs(database))[0]).toMatchObject({ status: 'RUNNING', attempts: 1 });
    expect((await attempts(database))[0]).toMatchObject({ status: 'RUNNING' });
    // Ticks 10 s apart (a jump longer than a lease would look like this runner being cut off).
    for (const at of ['13:00:30', '13:00:40', '13:00:50', '13:01:00']) {
      clock.set(Date.parse(`2026-11-29T${at}Z`));
      await runner.tick();
    }
    expect((await runs(database))[0]).toMatchObject({ status, status_reason: 'STALLED', attempts: 1 });
    const [attempt] = await attempts(database);
    expect(attempt).toMatchObject({ attempt: 1, status: 'STALLED' });
    const [row] = await queryRows<{ finished: boolean; lease_owner: string | null }>(database.db, sql`select finished_at is not null as finished, lease_owner from schedule_runs`);
    expect(row).toEqual({ finished, lease_owner: null });
    // Long after its backoff (1 s) would have passed, nothing starts it again.
    for (let i = 0; i < 3; i += 1) {
      clock.advance(10_000);
      await runner.tick();
    }
    expect(runner.worker.activeCount).toBe(0);
    expect((await runs(database))[0]).toMatchObject({ status, attempts: 1 });
    expect(await attempts(database)).toHaveLength(1);
  });

  it('ALLOW: runs of one schedule execute at the same time', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('overlapping', { cron: '* * * * *', overlap: 'ALLOW' }) }, T0);
    for (const minute of [1, 2]) await runSchedulerTick(database, { nowMs: T0 + minute * 60_000 + 10, policy });
    // Jobs that end when the test says so: both must be executing before either ends.
    let finish: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const started: number[] = [];
    const execute = async (_job: unknown, context: { runId: number }) => {
      started.push(context.runId);
      await finished;
      return { status: 'SUCCEEDED' as const, exitCode: 0, httpStatus: null, error: null, stdoutTail: null, stderrTail: null, durationMs: 0 };
    };
    const clock = new ManualClock(T0 + 2 * 60_000 + 20);
    runner = new Runner(database, { clock, concurrency: 4, leaseMs: 30_000, baseDir: process.cwd(), env: process.env, killGraceMs: 500, execute });
    await runner.tick();
    expect(runner.worker.activeCount).toBe(2);
    expect(started.sort()).toEqual([1, 2]);
    expect((await runs(database)).map((r) => r.status)).toEqual(['RUNNING', 'RUNNING']);
    finish();
    expect(await runner.worker.waitForExecutions(10_000)).toBe(true);
    await runner.tick();
    expect((await runs(database)).map((r) => r.status)).toEqual(['SUCCESS', 'SUCCESS']);
  });
});

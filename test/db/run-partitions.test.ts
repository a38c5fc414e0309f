/**
 * The run tables' days (migration 0023, db/run-partitions.ts): runners create the coming UTC days
 * of `schedule_runs` and `run_attempts` ahead, a run and its attempts land in their slot's day,
 * and retention drops an expired day whole, with exactly the outcome of deleting its runs row by
 * row (the same runs left, the same rollups), moving the few it must keep to the DEFAULT partition.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { queryRows, type Database, type Executor } from '../../src/db/client.js';
import { dayPartitionName, ensureDayPartitions, listRunPartitions, refreshRunStatistics } from '../../src/db/run-partitions.js';
import { claimRuns, completeAttempts, extendLeases, markAttemptsStarted, releaseLeases, returnUnstartedRuns, type ClaimedRun } from '../../src/db/worker-queries.js';
import { OutcomeWriter } from '../../src/runner/outcome-writer.js';
import { runRetentionPass } from '../../src/runner/retention.js';
import { Runner } from '../../src/runner/runner.js';
import { ManualClock } from '../../src/shared/clock.js';
import { SUCCEEDED } from '../runner/held-jobs.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';
import { createPgliteDatabase, createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../support/databases.js';
import { explainingDatabase, explainStatement, observedDatabase, rowsRead, scansOf, type PlanNode } from '../support/query-plans.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const NOW_MS = Date.parse('2026-11-29T12:00:00Z');
const TODAY_MS = Date.parse('2026-11-29T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

const opened: Database[] = [];
const servers: TestPostgres[] = [];
afterEach(async () => {
  for (const database of opened.splice(0)) await database.close();
  for (const server of servers.splice(0)) await server.drop();
});

type Engine = 'pglite' | 'postgres';
const engines: Engine[] = postgresServerUrl ? ['pglite', 'postgres'] : ['pglite'];

async function open(engine: Engine): Promise<Database> {
  if (engine === 'pglite') {
    const database = await createPgliteDatabase();
    opened.push(database);
    return database;
  }
  const server = await createPostgresDatabase();
  servers.push(server);
  return server.open();
}

/** Where each run of the query is stored: its partition's name. */
async function partitionsOf(db: Database, table: 'schedule_runs' | 'run_attempts', where: string): Promise<string[]> {
  const rows = await queryRows<{ p: string }>(db.db, sql.raw(`select distinct tableoid::regclass::text as p from ${table} where ${where} order by 1`));
  return rows.map((r) => r.p);
}

const POLICY = `apiVersion: cronform/v1\nkind: Policy\nmetadata: { name: default }\nspec:\n  retention: { runs: 10d, keepLast: 5 }\n`;

/**
 * 20 days of hourly runs of `hourly` (Policy: 10 days, keepLast 5), runs every 3 days of `sparse`
 * (keepLast 100: all of them stay), each run with an attempt and a run context; one backfill of an
 * old slot that ran an hour ago (kept), and one old run still waiting for approval (its day keeps
 * its partition; the others of that day go row by row).
 */
async function seed(db: Database): Promise<void> {
  await applyManifests(db, {
    'schedules/policy.yaml': POLICY,
    'schedules/hourly.yaml': scheduleManifest('hourly', { cron: '0 * * * *' }),
    'schedules/sparse.yaml': scheduleManifest('sparse', { cron: '0 6 */3 * *', retention: { keepLast: 100 } }),
  }, NOW_MS);
  await db.db.execute(sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, attempts, max_attempts, created_at, started_at, finished_at)
    select s.id, 1, slot, 'SCHEDULED', s.name || ':' || slot::text || ':SCHEDULED',
      case when n % 10 = 0 then 'FAILED' else 'SUCCESS' end, 2, 'default', slot, 1, 1, slot, slot + (n % 7) * interval '1 second', slot + (n % 7 + 2) * interval '1 second'
    from schedules s, generate_series(1, 20 * 24) as n, lateral (select ${iso(NOW_MS)}::timestamptz - n * interval '1 hour' as slot) t
    where s.name = 'hourly' or (s.name = 'sparse' and n % 72 = 6)
    order by slot, s.id`);
  const old = iso(NOW_MS - 15 * DAY + 30 * 60_000);
  await db.db.execute(sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts, created_at, finished_at)
    select id, 1, ${old}::timestamptz, t.trigger, 'kept:' || t.trigger, t.status, 2, 'default', ${old}::timestamptz, 1, t.created, t.finished
    from schedules, (values ('BACKFILL', 'SUCCESS', ${iso(NOW_MS - HOUR)}::timestamptz, ${iso(NOW_MS - HOUR + 60_000)}::timestamptz)) as t(trigger, status, created, finished)
    where name = 'hourly'`);
  await db.db.execute(sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts, created_at)
    select id, 1, ${iso(NOW_MS - 17 * DAY + 30 * 60_000)}::timestamptz, 'MANUAL', 'waiting', 'MANUAL_REQUIRED', 2, 'default', now(), 1, now() from schedules where name = 'hourly'`);
  await db.db.execute(sql`insert into run_attempts (run_id, attempt, scheduled_for, runner_id, status, started_at, finished_at, exit_code)
    select id, 1, scheduled_for, 'seed', case when status = 'SUCCESS' then 'SUCCEEDED' else 'FAILED' end, started_at, finished_at, 0 from schedule_runs where started_at is not null`);
  await db.db.execute(sql`insert into run_contexts (run_id, inputs) select id, '{"a":"b"}'::jsonb from schedule_runs`);
}

/** Everything retention may change, in a form two databases can be compared by. */
async function history(db: Database): Promise<unknown> {
  const runs = await queryRows(db.db, sql`select id, schedule_id, scheduled_for, status from schedule_runs order by id`);
  const attempts = await queryRows(db.db, sql`select run_id, attempt, scheduled_for from run_attempts order by run_id, attempt`);
  const contexts = await queryRows(db.db, sql`select run_id from run_contexts order by run_id`);
  const rollups = await queryRows(db.db, sql`select * from run_daily_rollups order by schedule_id, day, trigger_type, status`);
  return { runs, attempts, contexts, rollups };
}

/** Today's day partition made empty, then `runs` QUEUED runs of one schedule queued in it (no statistics gathered). */
async function dayFilledSinceMade(engine: Engine, runs: number): Promise<Database> {
  const db = await open(engine);
  await ensureDayPartitions(db, NOW_MS, NOW_MS + DAY);
  await applyManifests(db, { 'schedules/a.yaml': scheduleManifest('a', { cron: '0 0 1 1 *' }) }, NOW_MS);
  await db.db.transaction(async (tx) => {
    await tx.execute(sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts)
      select id, 1, ${iso(TODAY_MS)}::timestamptz + n * interval '1 second', 'MANUAL', 'q' || n, 'QUEUED', 2, 'default', ${iso(TODAY_MS)}::timestamptz, 1 from schedules, generate_series(1, ${runs}) n`);
    // Its write counts reach PostgreSQL's statistics at the commit, not up to 10 s later: added
    // after an ANALYZE, they would make the day look changed again.
    await tx.execute(sql`select pg_stat_force_next_flush()`);
  });
  return db;
}

describe.each(engines)('run table days on %s', (engine) => {
  it('are made ahead for both tables, once, and a run and its attempts land in their slot\'s day', async () => {
    const db = await open(engine);
    const first = await ensureDayPartitions(db, NOW_MS, NOW_MS + 2 * DAY);
    expect(first).toEqual({ created: ['schedule_runs_p20261129', 'schedule_runs_p20261130', 'schedule_runs_p20261201'], skipped: [] });
    expect(await ensureDayPartitions(db, NOW_MS, NOW_MS + 2 * DAY)).toEqual({ created: [], skipped: [] });
    const days = (await listRunPartitions(db.db)).filter((p) => p.isDay);
    expect(days.map((p) => [p.name, iso(p.fromMs!), iso(p.toMs!)])).toEqual([
      ['schedule_runs_p20261129', '2026-11-29T00:00:00.000Z', '2026-11-30T00:00:00.000Z'],
      ['schedule_runs_p20261130', '2026-11-30T00:00:00.000Z', '2026-12-01T00:00:00.000Z'],
      ['schedule_runs_p20261201', '2026-12-01T00:00:00.000Z', '2026-12-02T00:00:00.000Z'],
    ]);

    await applyManifests(db, { 'schedules/a.yaml': scheduleManifest('a', { cron: '0 * * * *' }) }, NOW_MS);
    // The last instant of a day and the first of the next, and a slot no day covers yet.
    const slots = [TODAY_MS + DAY - 1, TODAY_MS + DAY, TODAY_MS + 5 * DAY];
    for (const slot of slots) {
      await db.db.execute(sql`with r as (
          insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, attempts, max_attempts)
          select id, 1, ${iso(slot)}::timestamptz, 'MANUAL', ${`a:${slot}`}, 'RUNNING', 2, 'default', now(), 1, 1 from schedules where name = 'a' returning id, scheduled_for)
        insert into run_attempts (run_id, attempt, scheduled_for, runner_id, status, started_at) select id, 1, scheduled_for, 'r', 'RUNNING', now() from r`);
    }
    for (const table of ['schedule_runs', 'run_attempts'] as const) {
      expect(await partitionsOf(db, table, `scheduled_for = '${iso(slots[0]!)}'`)).toEqual([dayPartitionName(table, TODAY_MS)]);
      expect(await partitionsOf(db, table, `scheduled_for = '${iso(slots[1]!)}'`)).toEqual([dayPartitionName(table, TODAY_MS + DAY)]);
      expect(await partitionsOf(db, table, `scheduled_for = '${iso(slots[2]!)}'`)).toEqual([`${table}_default`]);
    }
    // A day that already has runs in DEFAULT keeps them there: it gets no partition of its own.
    const later = await ensureDayPartitions(db, NOW_MS, NOW_MS + 6 * DAY);
    expect(later).toEqual({ created: ['schedule_runs_p20261202', 'schedule_runs_p20261203', 'schedule_runs_p20261205'], skipped: ['schedule_runs_p20261204'] });
    expect(await partitionsOf(db, 'schedule_runs', `scheduled_for = '${iso(slots[2]!)}'`)).toEqual(['schedule_runs_default']);
    // Every key still holds across days: one run per slot, and ids from one sequence.
    const duplicate = db.db.execute(sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts)
      select schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key || ':again', 'QUEUED', priority, queue, run_after, max_attempts from schedule_runs`);
    await expect(duplicate).rejects.toMatchObject({ cause: { code: '23505' } });
    const [ids] = await queryRows<{ n: number; distinct_ids: number }>(db.db, sql`select count(*)::int as n, count(distinct id)::int as distinct_ids from schedule_runs`);
    expect(ids).toEqual({ n: 3, distinct_ids: 3 });
  });

  it('a runner makes today and the next two days at its first tick, before it schedules, and again as days pass', async () => {
    const db = await open(engine);
    await applyManifests(db, { 'schedules/a.yaml': scheduleManifest('a', { cron: '0 * * * *' }) }, NOW_MS - HOUR);
    const clock = new ManualClock(NOW_MS + 1_000);
    const runner = new Runner(db, { clock, concurrency: 1, baseDir: process.cwd(), env: {}, alerts: false, retention: false, execute: async () => SUCCEEDED });
    await runner.tick();
    const days = async () => (await listRunPartitions(db.db)).filter((p) => p.isDay).map((p) => p.name);
    expect(await days()).toEqual(['schedule_runs_p20261129', 'schedule_runs_p20261130', 'schedule_runs_p20261201']);
    // The slot the tick scheduled is in its day, not in DEFAULT.
    expect(await partitionsOf(db, 'schedule_runs', 'true')).toEqual(['schedule_runs_p20261129']);
    clock.advance(DAY);
    await runner.tick();
    expect(await days()).toEqual(['schedule_runs_p20261129', 'schedule_runs_p20261130', 'schedule_runs_p20261201', 'schedule_runs_p20261202']);
  });

  it('the runner\'s statements on claimed runs plan and lock only the days those runs are in', async () => {
    const db = await open(engine);
    await ensureDayPartitions(db, NOW_MS - 30 * DAY, NOW_MS + 2 * DAY);
    await applyManifests(db, { 'schedules/a.yaml': scheduleManifest('a', { cron: '0 0 1 1 *' }) }, NOW_MS);
    // Two queued runs, today's and one of five days ago (a backfill): 33 days exist.
    for (const [key, slot] of [['today', NOW_MS - 60_000], ['backfill', NOW_MS - 5 * DAY]] as const) {
      await db.db.execute(sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts)
        select id, 1, ${iso(slot)}::timestamptz, 'MANUAL', ${key}, 'QUEUED', 2, 'default', ${iso(slot)}::timestamptz, 3 from schedules`);
    }
    /** The run tables' partitions this transaction holds a lock on: what it planned. */
    const lockedDays = async (tx: Executor) =>
      (await queryRows<{ name: string }>(tx, sql`select distinct c.relname as name from pg_locks l join pg_class c on c.oid = l.relation
        where l.pid = pg_backend_pid() and c.relkind = 'r' and (c.relname like 'schedule_runs_%' or c.relname like 'run_attempts_%') order by 1`)).map((r) => r.name);
    const expected = ['run_attempts_p20261124', 'run_attempts_p20261129', 'schedule_runs_p20261124', 'schedule_runs_p20261129'];
    const now = new Date(NOW_MS);
    let claimed: ClaimedRun[] = [];
    const inTransaction = async (work: (tx: Executor) => Promise<unknown>) =>
      db.db.transaction(async (tx) => {
        await work(tx);
        return lockedDays(tx);
      });
    // The claim, the lease, the start mark and a hand-back write only the run rows: an attempt gets
    // its row when it ends (open-attempts.ts).
    const runDays = expected.filter((n) => n.startsWith('schedule_runs'));
    expect(await inTransaction(async (tx) => (claimed = await claimRuns(tx, { runnerId: 'r', now, leaseMs: 30_000, capacity: 5, startNow: 0, queueLimits: {}, defaultQueueLimit: 10 })))).toEqual(runDays);
    expect(claimed.map((c) => c.idempotencyKey).sort()).toEqual(['backfill', 'today']);
    const keys = claimed.map((c) => ({ runId: c.id, slot: c.slot }));
    expect(await inTransaction((tx) => extendLeases(tx, 'r', keys, now, 30_000))).toEqual(runDays);
    expect(await inTransaction((tx) => markAttemptsStarted(tx, 'r', claimed.map((c) => ({ runId: c.id, slot: c.slot, attempt: 1, startedAt: now }))))).toEqual(runDays);
    const [first, second] = claimed;
    expect(await inTransaction((tx) => returnUnstartedRuns(tx, 'r', [{ runId: first!.id, slot: first!.slot, attempt: 1 }]))).toEqual(runDays.filter((n) => n.endsWith(first!.slot.startsWith('2026-11-29') ? '29' : '24')));
    expect(await inTransaction((tx) => completeAttempts(tx, 'r', [{ runId: second!.id, slot: second!.slot, attempt: 1, attemptStatus: 'SUCCEEDED', runStatus: 'SUCCESS', runAfter: null, exitCode: 0, httpStatus: null, error: null, stdoutTail: null, stderrTail: null }], now))).toEqual(
      expected.filter((n) => n.endsWith(second!.slot.startsWith('2026-11-29') ? '29' : '24')),
    );
    const [again] = await db.db.transaction((tx) => claimRuns(tx, { runnerId: 'r', now, leaseMs: 30_000, capacity: 5, queueLimits: {}, defaultQueueLimit: 10 }));
    expect(await inTransaction((tx) => releaseLeases(tx, 'r', [{ runId: again!.id, slot: again!.slot }], now))).toEqual(expected.filter((n) => n.endsWith(again!.slot.startsWith('2026-11-29') ? '29' : '24')));
    const [{ status }] = (await queryRows<{ status: string }>(db.db, sql`select status from schedule_runs where id = ${second!.id}`)) as [{ status: string }];
    expect(status).toBe('SUCCESS');
  });

  it('once the runners\' statistics refresh has seen a day fill, the claim and the outcome reach its runs by key, not by reading the day', async () => {
    // The day was made empty and filled since, as every day is: 5,000 runs queued today.
    const db = await dayFilledSinceMade(engine, 5000);
    // Only the day that changed (its attempts' day is still empty), and once.
    expect(await refreshRunStatistics(db)).toEqual(['schedule_runs_p20261129']);
    expect(await refreshRunStatistics(db)).toEqual([]);
    const request = { runnerId: 'r', now: new Date(NOW_MS), leaseMs: 30_000, capacity: 50, queueLimits: {}, defaultQueueLimit: 10_000 };
    const today = /^(schedule_runs|run_attempts)_p20261129$/;
    // One probe per run taken. Before the refresh PostgreSQL expected ~25 runs in the day and
    // hashed all 5,000 for every claim.
    const claimPlan = await explainStatement(db, /^\s*with chosen as materialized/, (tx) => claimRuns(tx, request));
    expect(scansOf(claimPlan, today).length).toBeGreaterThan(0);
    expect(rowsRead(scansOf(claimPlan, today))).toBeLessThanOrEqual(50);
    // The outcomes of 50 claimed runs, written as a runner writes them.
    const claimed = await db.db.transaction((tx) => claimRuns(tx, request));
    expect(claimed).toHaveLength(50);
    const plans: PlanNode[] = [];
    const writer = new OutcomeWriter<number>(explainingDatabase(db, /done as \(/, (plan) => plans.push(plan)), 'r');
    for (const run of claimed) {
      writer.addOutcome(run.id, { runId: run.id, slot: run.slot, attempt: run.attempt, attemptStatus: 'SUCCEEDED', runStatus: 'SUCCESS', runAfter: null, exitCode: 0, httpStatus: null, error: null, stdoutTail: null, stderrTail: null });
    }
    await writer.write(NOW_MS);
    expect(plans).toHaveLength(1);
    // The run rows are read by key; the attempts are inserted (no read).
    expect(scansOf(plans[0]!, today).length).toBeGreaterThan(0);
    expect(rowsRead(scansOf(plans[0]!, today))).toBeLessThanOrEqual(50);
    const [counts] = await queryRows<{ done: number; attempts: number }>(db.db, sql`select count(*) filter (where status = 'SUCCESS')::int as done,
      (select count(*)::int from run_attempts where status = 'SUCCEEDED') as attempts from schedule_runs`);
    expect(counts).toEqual({ done: 50, attempts: 50 });
  });

  it('a runner refreshes the run tables\' statistics at its first tick, before it claims', async () => {
    const db = await dayFilledSinceMade(engine, 2000);
    const events: string[] = [];
    const observed = observedDatabase(db, (event, text) => {
      if (/^analyze /.test(text) || /^with chosen as materialized/.test(text)) events.push(`${event} ${text.split(/\s+/)[0]}`);
    });
    const runner = new Runner(observed, { clock: new ManualClock(NOW_MS), concurrency: 1, baseDir: process.cwd(), env: {}, alerts: false, retention: false, execute: async () => SUCCEEDED });
    await runner.tick();
    await runner.stop();
    // The day's statistics were gathered before the first claim was sent.
    expect(events.slice(0, 3)).toEqual(['start analyze', 'end analyze', 'start with']);
    const [{ n }] = (await queryRows<{ n: number }>(db.db, sql`select reltuples::int as n from pg_class where relname = 'schedule_runs_p20261129'`)) as [{ n: number }];
    expect(n).toBe(2000);
  });

  it('retention drops expired days whole, with the outcome of deleting their runs row by row', async () => {
    // Two databases with the same history: one with a partition per day, one with all of it in DEFAULT.
    const byDays = await open(engine);
    const byRows = await open(engine);
    await ensureDayPartitions(byDays, NOW_MS - 21 * DAY, NOW_MS + 2 * DAY);
    await seed(byDays);
    await seed(byRows);
    expect(await history(byDays)).toEqual(await history(byRows));
    expect((await partitionsOf(byRows, 'schedule_runs', 'true'))).toEqual(['schedule_runs_default']);

    const options = { nowMs: NOW_MS, policyRetention: { runsMs: 10 * DAY, keepLast: 5 }, batchSize: 100, maxBatches: 1_000 };
    const dropped = await runRetentionPass(byDays, options);
    const deleted = await runRetentionPass(byRows, options);
    expect(dropped.deleted).toBe(deleted.deleted);
    expect(deleted.days).toBe(0);
    // 2026-11-08 (empty) .. 2026-11-18 are past the cutoff (2026-11-19): the day of the waiting
    // run (2026-11-12) keeps its partition and loses its expired runs by rows; the others go whole.
    expect(dropped.days).toBe(10);
    expect(await history(byDays)).toEqual(await history(byRows));

    const days = (await listRunPartitions(byDays.db)).filter((p) => p.isDay).map((p) => p.name);
    expect(days.filter((d) => d < 'schedule_runs_p20261119')).toEqual(['schedule_runs_p20261112']);
    expect(days.filter((d) => d >= 'schedule_runs_p20261119')).toHaveLength(13);
    // What had to stay of the dropped days moved to DEFAULT, attempts with their runs.
    const kept = `scheduled_for < '2026-11-19T00:00:00Z' and scheduled_for >= '2026-11-10T00:00:00Z' and scheduled_for < '2026-11-12T00:00:00Z'`;
    expect(await partitionsOf(byDays, 'schedule_runs', kept)).toEqual(['schedule_runs_default']);
    expect(await partitionsOf(byDays, 'run_attempts', kept)).toEqual(['run_attempts_default']);
    const [orphans] = await queryRows<{ n: number }>(byDays.db, sql`select count(*)::int as n from run_attempts a where not exists (select 1 from schedule_runs r where r.id = a.run_id)`);
    expect(orphans!.n).toBe(0);

    // A second pass finds nothing to drop or delete.
    expect(await runRetentionPass(byDays, options)).toMatchObject({ deleted: 0, days: 0 });
  });
});

describe.runIf(postgresServerUrl)('a day drop while another session holds the run tables (PostgreSQL)', () => {
  it('never waits for them: the day waits for the next pass, the rest of the pass runs, nothing is half done', async () => {
    const server = await createPostgresDatabase();
    servers.push(server);
    const db = await server.open();
    await ensureDayPartitions(db, NOW_MS - 21 * DAY, NOW_MS + 2 * DAY);
    await seed(db);
    const before = await history(db);
    // A transaction that wrote a run by id alone (planned over every day) and is still open: it
    // holds the run tables, and the detach would wait for it (and it for the day's lock).
    const other = new pg.Client({ connectionString: server.url });
    await other.connect();
    try {
      await other.query('begin');
      await other.query(`update schedule_runs set status_reason = status_reason where id = (select max(id) from schedule_runs)`);
      const errors: string[] = [];
      const options = { nowMs: NOW_MS, policyRetention: { runsMs: 10 * DAY, keepLast: 5 }, batchSize: 100, maxBatches: 1_000, onDayError: (day: string) => errors.push(day) };
      const pass = await runRetentionPass(db, options);
      // No day dropped: each gave up without waiting in the lock queue (a wait would have ended in
      // the lock timeout, an error told to onDayError), its writes rolled back; the row batches ran.
      expect(pass.days).toBe(0);
      expect(pass.deleted).toBeGreaterThan(0);
      expect(errors).toEqual([]);
      const days = (await listRunPartitions(db.db)).filter((p) => p.isDay).length;
      expect(days).toBe(24);
      await other.query('commit');
      // Row deletion took the expired runs; what is left is the same as after dropping the days.
      const byRows = await open('postgres');
      await seed(byRows);
      await runRetentionPass(byRows, options);
      expect(await history(db)).toEqual(await history(byRows));
      expect(before).not.toEqual(await history(db));
    } finally {
      await other.end();
    }
  });
});


describe.runIf(postgresServerUrl)('statistics of a day another session is filling (PostgreSQL)', () => {
  it('are not gathered from uncommitted rows, which would leave the day planned as empty; they are once committed', async () => {
    const server = await createPostgresDatabase();
    servers.push(server);
    const db = await server.open();
    await ensureDayPartitions(db, NOW_MS, NOW_MS + DAY);
    const reltuples = async () => (await queryRows<{ n: number }>(db.db, sql`select reltuples::int as n from pg_class where relname = 'run_attempts_p20261129'`))[0]!.n;
    // A claim's attempts, not committed yet: the day's table has pages, and no row anyone can see.
    const other = new pg.Client({ connectionString: server.url });
    await other.connect();
    try {
      await other.query('begin');
      await other.query(`insert into run_attempts (run_id, attempt, scheduled_for, runner_id, status, started_at)
        select n, 1, '${iso(TODAY_MS)}'::timestamptz + n * interval '1 second', 'r', 'CLAIMED', now() from generate_series(1, 5000) n`);
      expect(await refreshRunStatistics(db)).toEqual([]);
      // Gathered now, it would say 0 rows, and PostgreSQL would plan for one however many came.
      expect(await reltuples()).toBe(-1);
      await other.query('commit');
    } finally {
      await other.end();
    }
    expect(await refreshRunStatistics(db)).toEqual(['run_attempts_p20261129']);
    expect(await reltuples()).toBe(5000);
  });
});

describe.runIf(postgresServerUrl)('making a day while another session reads a DEFAULT partition (PostgreSQL)', () => {
  it('never waits for it, so it can never be half of a deadlock: the day waits for the next try', async () => {
    const server = await createPostgresDatabase();
    servers.push(server);
    const db = await server.open();
    // What the reconciler's expired-lease query does first: it is planned over every day of both
    // tables and holds run_attempts' DEFAULT while it goes on to schedule_runs' partitions.
    const other = new pg.Client({ connectionString: server.url });
    await other.connect();
    try {
      await other.query('begin');
      await other.query('lock table run_attempts_default in access share mode');
      // Attaching schedule_runs' day first took its DEFAULT and then waited for run_attempts'
      // (here: until the lock timeout; there: a deadlock once that query asked for schedule_runs').
      expect(await ensureDayPartitions(db, NOW_MS, NOW_MS)).toEqual({ created: [], skipped: ['schedule_runs_p20261129'] });
      await other.query('lock table schedule_runs_default in row share mode nowait');
      await other.query('commit');
    } finally {
      await other.end();
    }
    expect(await ensureDayPartitions(db, NOW_MS, NOW_MS)).toEqual({ created: ['schedule_runs_p20261129'], skipped: [] });
    expect((await listRunPartitions(db.db)).filter((p) => p.isDay).map((p) => p.name)).toEqual(['schedule_runs_p20261129']);
  });
});

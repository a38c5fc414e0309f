/**
 * `active_runs` is what claims, overlap checks, promotion, pause and the lease scan read instead of
 * an index on `schedule_runs.status`; the statement triggers of migration 0006 are all that write
 * it. After every kind of statement that moves a run (each worker, reconciler and operation
 * statement, and plain SQL), it must hold exactly the unfinished runs and those waiting for a human
 * (MANUAL_REQUIRED, migration 0009) with their current fields; and no reader that means "active"
 * may count a waiting run. On PGlite, and on real PostgreSQL when the test server is set.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { openDatabase, queryRows, type Database } from '../../src/db/client.js';
import { MIGRATIONS_FOLDER, migrateDatabase } from '../../src/db/migrate.js';
import { markRunApproved, markRunCancelled, requeueRuns, skipUnstartedRuns } from '../../src/db/run-operations-queries.js';
import { requeueUnstartedRuns, resolveStalledRuns } from '../../src/db/reconcile-queries.js';
import { findEarliestRunAfter, findSchedulesWithActiveRuns, insertRuns, type NewRun } from '../../src/db/scheduler-queries.js';
import { claimRuns, completeAttempts, extendLeases, promotePendingRuns, releaseLeases, returnUnstartedRuns } from '../../src/db/worker-queries.js';
import { listRunsAwaitingAction, listUnfinishedRuns } from '../../src/db/dashboard-queries.js';
import { countActiveRunsByQueue } from '../../src/db/metrics-queries.js';
import { summarizeScheduleStatus } from '../../src/db/run-report-queries.js';
import { takeExpiredLeases } from '../../src/db/reconcile-queries.js';
import { approveRun } from '../../src/operations/runs/approve.js';
import { cancelRun } from '../../src/operations/runs/cancel.js';
import { triggerRun } from '../../src/operations/runs/trigger.js';
import { runSchedulerTick } from '../../src/runner/scheduler.js';
import { DEFAULT_POLICY } from '../../src/compile/definition.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';
import { createPgliteDatabase, createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../support/databases.js';

const T0 = Date.parse('2026-11-29T12:00:00Z');

interface Copy {
  run_id: string;
  schedule_id: string;
  status: string;
  trigger_type: string;
  priority: number;
  queue: string;
  scheduled_for: string;
  run_after: string;
}

/** The unfinished and waiting runs as schedule_runs says, and as active_runs says, in one comparable shape. */
async function bothSides(database: Database): Promise<{ expected: Copy[]; actual: Copy[] }> {
  const columns = sql`schedule_id::text as schedule_id, status, trigger_type, priority, queue,
    to_char(scheduled_for at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') as scheduled_for,
    to_char(run_after at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') as run_after`;
  const expected = await queryRows<Copy>(
    database.db,
    sql`select id::text as run_id, ${columns} from schedule_runs where status in ('PENDING', 'QUEUED', 'RUNNING', 'RETRY_PENDING', 'MANUAL_REQUIRED') order by id`,
  );
  const actual = await queryRows<Copy>(database.db, sql`select run_id::text as run_id, ${columns} from active_runs order by active_runs.run_id`);
  return { expected, actual };
}

async function expectExactCopy(database: Database, activeCount: number): Promise<void> {
  const { expected, actual } = await bothSides(database);
  expect(actual).toEqual(expected);
  expect(actual.length).toBe(activeCount);
}

function run(scheduleId: number, minute: number, status: string, extra: Partial<NewRun> = {}): NewRun {
  const scheduledFor = new Date(T0 - 3_600_000 + minute * 60_000);
  return {
    scheduleId,
    scheduleVersion: 1,
    scheduledFor,
    triggerType: 'SCHEDULED',
    idempotencyKey: `s${scheduleId}:${scheduledFor.toISOString()}:SCHEDULED`,
    status,
    statusReason: null,
    priority: 2,
    queue: 'default',
    businessDate: null,
    runAfter: scheduledFor,
    maxAttempts: 3,
    summarizedSlots: null,
    finishedAt: status === 'SKIPPED' ? scheduledFor : null,
    ...extra,
  };
}

const runIds = async (database: Database, status: string): Promise<number[]> =>
  (await queryRows<{ id: string | number }>(database.db, sql`select id from schedule_runs where status = ${status} order by id`)).map((r) => Number(r.id));

/** Drives a run through every statement that changes runs, checking the copy after each. */
async function exerciseEveryTransition(database: Database): Promise<void> {
  await applyManifests(database, { 'a.yaml': scheduleManifest('alpha', { cron: '0 0 1 1 *' }), 'b.yaml': scheduleManifest('beta', { cron: '0 0 1 1 *' }) }, T0);
  const [alpha, beta] = (await queryRows<{ id: string | number }>(database.db, sql`select id from schedules order by name`)).map((r) => Number(r.id));
  const now = new Date(T0);
  await expectExactCopy(database, 0);

  // Insert: only the unfinished and waiting ones are copied; a conflicting insert copies nothing twice.
  const inserted = [
    ...Array.from({ length: 6 }, (_, i) => run(alpha!, i, 'QUEUED')),
    run(alpha!, 10, 'PENDING'),
    run(alpha!, 11, 'MANUAL_REQUIRED'),
    run(alpha!, 12, 'SKIPPED', { statusReason: 'OVERLAP' }),
    run(beta!, 0, 'QUEUED', { priority: 0, queue: 'reports' }),
    run(beta!, 1, 'PENDING'),
    run(beta!, 2, 'PENDING'),
  ];
  await database.db.transaction((tx) => insertRuns(tx, inserted, now));
  await database.db.transaction((tx) => insertRuns(tx, inserted.slice(0, 2), now));
  await expectExactCopy(database, 11);

  // Claim: QUEUED → RUNNING (some opened CLAIMED), in the claim's one statement.
  const claimed = await database.db.transaction((tx) =>
    claimRuns(tx, { runnerId: 'r1', now, leaseMs: 30_000, capacity: 5, startNow: 3, queueLimits: {}, defaultQueueLimit: 100 }),
  );
  expect(claimed).toHaveLength(5);
  await expectExactCopy(database, 11);

  // Heartbeat: lease fields only, nothing copied changes.
  await database.db.transaction((tx) => extendLeases(tx, 'r1', claimed.map((c) => ({ runId: c.id, slot: c.slot })), now, 60_000));
  await expectExactCopy(database, 11);

  // Outcomes: one success (leaves), one retry (RETRY_PENDING with a new run_after), in one statement.
  const [ok, retry, handBack, release, stall] = claimed;
  await database.db.transaction((tx) =>
    completeAttempts(
      tx,
      'r1',
      [
        { runId: ok!.id, slot: ok!.slot, attempt: 1, attemptStatus: 'SUCCEEDED', runStatus: 'SUCCESS', runAfter: null, exitCode: 0, httpStatus: null, error: null, stdoutTail: null, stderrTail: null },
        { runId: retry!.id, slot: retry!.slot, attempt: 1, attemptStatus: 'FAILED', runStatus: 'RETRY_PENDING', runAfter: new Date(T0 + 30_000), exitCode: 1, httpStatus: null, error: 'x', stdoutTail: null, stderrTail: null },
      ],
      now,
    ),
  );
  await expectExactCopy(database, 10);

  // Hand back an unstarted claim, release a lease at shutdown (run_after moves), stall one.
  expect(await database.db.transaction((tx) => returnUnstartedRuns(tx, 'r1', [{ runId: handBack!.id, slot: handBack!.slot, attempt: 1 }]))).toBe(1);
  expect(await database.db.transaction((tx) => releaseLeases(tx, 'r1', [{ runId: release!.id, slot: release!.slot }], new Date(T0 + 5_000)))).toBe(1);
  expect(await database.db.transaction((tx) => resolveStalledRuns(tx, [{ runId: stall!.id, attempt: 1, runStatus: 'FAILED', runAfter: null }], now))).toBe(1);
  await expectExactCopy(database, 9);

  // Reconciler: a claimed-but-unstarted run of a dead runner goes back to QUEUED.
  const [again] = await database.db.transaction((tx) =>
    claimRuns(tx, { runnerId: 'r2', now: new Date(T0 + 6_000), leaseMs: 30_000, capacity: 1, startNow: 0, queueLimits: {}, defaultQueueLimit: 100 }),
  );
  await expectExactCopy(database, 9);
  expect(await database.db.transaction((tx) => requeueUnstartedRuns(tx, [{ runId: again!.id, attempt: again!.attempt }], new Date(T0 + 7_000)))).toBe(1);
  await expectExactCopy(database, 9);

  // Operations: retry of the FAILED run (back in), approval (stays in, QUEUED), cancel (out), pause (out).
  const [failed] = await runIds(database, 'FAILED');
  expect(await database.db.transaction((tx) => requeueRuns(tx, [{ id: failed!, expected: 'FAILED', status: 'QUEUED', runAfter: now, maxAttempts: 4, priority: 1 }]))).toEqual([failed]);
  const [manual] = await runIds(database, 'MANUAL_REQUIRED');
  expect(await database.db.transaction((tx) => markRunApproved(tx, manual!, 'QUEUED'))).toBe(true);
  await expectExactCopy(database, 10);
  const [queued] = await runIds(database, 'QUEUED');
  expect(await database.db.transaction((tx) => markRunCancelled(tx, queued!, 'QUEUED', now, 'test'))).toBe(true);
  await expectExactCopy(database, 9);
  const skipped = await database.db.transaction((tx) => skipUnstartedRuns(tx, beta!, now));
  expect(skipped.map((s) => s.previousStatus)).toEqual(['PENDING', 'PENDING']);
  await expectExactCopy(database, 7);

  // QUEUE_NEW promotion: alpha has active runs, so its PENDING stays; once they end, it moves up.
  expect(await database.db.transaction((tx) => promotePendingRuns(tx, [alpha!]))).toBe(0);
  await database.db.execute(sql`update schedule_runs set status = 'SUCCESS', finished_at = now() where schedule_id = ${alpha} and status <> 'PENDING' and status in ('QUEUED', 'RETRY_PENDING', 'RUNNING')`);
  await expectExactCopy(database, 1);
  expect(await database.db.transaction((tx) => promotePendingRuns(tx, 'all'))).toBe(1);
  await expectExactCopy(database, 1);

  // Plain SQL: a field of a queued run changes without a status change; a run is deleted.
  await database.db.execute(sql`update schedule_runs set priority = 3, queue = 'other', run_after = run_after + interval '1 minute' where status = 'QUEUED'`);
  await expectExactCopy(database, 1);
  await database.db.execute(sql`delete from run_attempts where run_id in (select id from schedule_runs where status = 'QUEUED')`);
  await database.db.execute(sql`delete from schedule_runs where status = 'QUEUED'`);
  await expectExactCopy(database, 0);

  // TRUNCATE (an operator clearing history) empties the copy too.
  await database.db.transaction((tx) => insertRuns(tx, [run(alpha!, 30, 'QUEUED'), run(beta!, 30, 'PENDING')], now));
  await expectExactCopy(database, 2);
  await database.db.execute(sql`truncate schedule_runs, run_attempts`);
  await expectExactCopy(database, 0);
}

const { source: _source, ...policy } = DEFAULT_POLICY;
const oncall = { actor: 'oncall', reason: null, gitSha: null };

/** What active_runs holds, by status, for the runs of these ids. */
const copiedStatuses = async (database: Database): Promise<Record<string, string>> =>
  Object.fromEntries((await queryRows<{ run_id: string; status: string }>(database.db, sql`select run_id::text as run_id, status from active_runs`)).map((r) => [r.run_id, r.status]));

/** Every reader of active_runs that means "active", "unfinished" or "claimable", asked at `nowMs`. */
async function activeAsSeenBy(database: Database, scheduleIds: number[], nowMs: number) {
  const now = new Date(nowMs);
  const summaries = await summarizeScheduleStatus(database.db, { statsSince: new Date(nowMs - 86_400_000), dayStart: new Date(nowMs - 86_400_000), dayEnd: now });
  return {
    schedulesWithActiveRuns: [...(await database.db.transaction((tx) => findSchedulesWithActiveRuns(tx, scheduleIds)))],
    queueDepth: await countActiveRunsByQueue(database.db),
    unfinished: (await listUnfinishedRuns(database.db, 10)).total,
    statusActiveRuns: summaries.map((s) => s.activeRuns),
    earliestRunAfter: await findEarliestRunAfter(database.db, new Date(nowMs - 86_400_000 * 7)),
    expiredLeases: (await database.db.transaction((tx) => takeExpiredLeases(tx, new Date(nowMs + 86_400_000), 10, { defaultKillGraceMs: 5_000, stopMarginMs: 1_000 }))).length,
  };
}

/**
 * The runs waiting for a human, created and moved by the real paths (scheduler, trigger, approve,
 * cancel, stall): in the copy while MANUAL_REQUIRED, and never seen as active by its readers.
 */
async function exerciseWaitingRuns(database: Database): Promise<void> {
  await applyManifests(
    database,
    {
      'gated.yaml': scheduleManifest('gated', { cron: '0 13 * * *', approval: 'required' }),
      'late.yaml': scheduleManifest('late', { cron: '30 12 * * *', misfire: 'MANUAL' }),
    },
    T0,
  );
  const [gated, late] = (await queryRows<{ id: string | number }>(database.db, sql`select id from schedules order by name`)).map((r) => Number(r.id));
  const ids = [gated!, late!];
  // 13:00:00.05: gated's slot is on time but needs approval; late's 12:30 slot is 30 minutes late, misfire MANUAL.
  let nowMs = Date.parse('2026-11-29T13:00:00.050Z');
  await runSchedulerTick(database, { nowMs, policy });
  const created = await queryRows<{ id: string | number; schedule_id: string | number; status: string }>(database.db, sql`select id, schedule_id, status from schedule_runs order by scheduled_for`);
  expect(created.map((r) => [Number(r.schedule_id), r.status])).toEqual([[late, 'MANUAL_REQUIRED'], [gated, 'MANUAL_REQUIRED']]);
  const [misfire, approval] = created.map((r) => Number(r.id));
  expect(await copiedStatuses(database)).toEqual({ [approval!]: 'MANUAL_REQUIRED', [misfire!]: 'MANUAL_REQUIRED' });
  await expectExactCopy(database, 2);

  // Waiting runs hold no execution slot: nothing is claimable, active, queued or leased.
  const nothingActive = { schedulesWithActiveRuns: [], queueDepth: [], unfinished: 0, statusActiveRuns: [0, 0], earliestRunAfter: null, expiredLeases: 0 };
  expect(await activeAsSeenBy(database, ids, nowMs)).toEqual(nothingActive);
  expect(await database.db.transaction((tx) => claimRuns(tx, { runnerId: 'r1', now: new Date(nowMs + 86_400_000), leaseMs: 30_000, capacity: 10, queueLimits: {}, defaultQueueLimit: 100 }))).toEqual([]);
  expect(await database.db.transaction((tx) => promotePendingRuns(tx, 'all'))).toBe(0);
  expect(await database.db.transaction((tx) => skipUnstartedRuns(tx, gated!, new Date(nowMs)))).toEqual([]);
  const waiting = await listRunsAwaitingAction(database.db, 1);
  expect({ ids: waiting.runs.map((r) => r.id), total: waiting.total }).toEqual({ ids: [misfire], total: 2 });

  // A manual trigger of an approval schedule is created waiting: a waiting run is no active run
  // blocking it (no --force-new needed).
  nowMs += 1_000;
  const triggered = await triggerRun(database, { name: 'gated', forceNew: false, nowMs, author: oncall });
  expect(triggered.status).toBe('MANUAL_REQUIRED');
  await expectExactCopy(database, 3);

  // Approve: QUEUED, since the other waiting run of gated is not active; then the triggered one
  // waits behind it (PENDING). Both stay in the copy, with their new status.
  expect(await approveRun(database, { runId: approval!, nowMs, author: oncall })).toMatchObject({ status: 'QUEUED', behindRunId: null });
  expect(await approveRun(database, { runId: triggered.runId, nowMs, author: oncall })).toMatchObject({ status: 'PENDING', behindRunId: approval });
  expect(await copiedStatuses(database)).toEqual({ [approval!]: 'QUEUED', [triggered.runId]: 'PENDING', [misfire!]: 'MANUAL_REQUIRED' });
  await expectExactCopy(database, 3);
  const unfinished = await listUnfinishedRuns(database.db, 10);
  expect({ ids: unfinished.runs.map((r) => r.id).sort(), total: unfinished.total }).toEqual({ ids: [approval, triggered.runId].sort(), total: 2 });
  expect((await countActiveRunsByQueue(database.db)).map((d) => [d.status, d.count]).sort()).toEqual([['PENDING', 1], ['QUEUED', 1]]);

  // Reject (cancel): the waiting run leaves the copy.
  await cancelRun(database, { runId: misfire!, nowMs, author: oncall });
  await expectExactCopy(database, 2);
  expect(await listRunsAwaitingAction(database.db, 10)).toEqual({ runs: [], total: 0 });

  // Stall with onStall manual: RUNNING → MANUAL_REQUIRED stays in the copy, and no longer holds
  // the slot: the PENDING run behind it is promoted.
  const [claimed] = await database.db.transaction((tx) => claimRuns(tx, { runnerId: 'r1', now: new Date(nowMs), leaseMs: 30_000, capacity: 10, queueLimits: {}, defaultQueueLimit: 100 }));
  expect(claimed?.id).toBe(approval);
  expect(await database.db.transaction((tx) => resolveStalledRuns(tx, [{ runId: approval!, attempt: 1, runStatus: 'MANUAL_REQUIRED', runAfter: null }], new Date(nowMs)))).toBe(1);
  await expectExactCopy(database, 2);
  expect(await database.db.transaction((tx) => promotePendingRuns(tx, [gated!]))).toBe(1);
  expect(await copiedStatuses(database)).toEqual({ [approval!]: 'MANUAL_REQUIRED', [triggered.runId]: 'QUEUED' });
  expect((await listRunsAwaitingAction(database.db, 10)).runs.map((r) => r.id)).toEqual([approval]);
}

describe('active_runs, the copy of the unfinished and waiting runs', () => {
  let database: Database | undefined;
  let server: TestPostgres | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
    await server?.drop();
    server = undefined;
  });

  it('stays exact through every statement that moves a run (PGlite)', async () => {
    database = await createPgliteDatabase();
    await exerciseEveryTransition(database);
  });

  it.runIf(postgresServerUrl)('stays exact through every statement that moves a run (PostgreSQL)', async () => {
    server = await createPostgresDatabase();
    database = await server.open();
    await migrateDatabase(database);
    await exerciseEveryTransition(database);
  });

  it('holds the runs waiting for a human, which no reader counts as active (PGlite)', async () => {
    database = await createPgliteDatabase();
    await exerciseWaitingRuns(database);
  });

  it.runIf(postgresServerUrl)('holds the runs waiting for a human, which no reader counts as active (PostgreSQL)', async () => {
    server = await createPostgresDatabase();
    database = await server.open();
    await migrateDatabase(database);
    await exerciseWaitingRuns(database);
  });

  it.runIf(postgresServerUrl)('copies a batch in one pass even after a first update of a single run in the session (PostgreSQL)', async () => {
    // A plan cached by the trigger keeps the row counts of its first call: planned for one run,
    // it joined the next batch pairwise (3,000 runs: 9 million comparisons, seconds). The plans
    // of the trigger's statements are read through auto_explain, sent to this client as notices.
    server = await createPostgresDatabase();
    database = await server.open();
    await migrateDatabase(database);
    await applyManifests(database, { 'a.yaml': scheduleManifest('alpha', { cron: '0 0 1 1 *' }) }, T0);
    await database.db.execute(
      sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts)
          select s.id, 1, '2026-11-28T00:00:00Z'::timestamptz + n * interval '1 second', 'MANUAL', 'alpha:' || n, 'QUEUED', 2, 'default', '2026-11-28T00:00:00Z', 1
          from schedules s, generate_series(1, 3000) n`,
    );
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    const plans: Array<{ 'Query Text': string; Plan: Record<string, unknown> }> = [];
    client.on('notice', (notice) => {
      const at = notice.message?.indexOf('{') ?? -1;
      if (at >= 0) plans.push(JSON.parse(notice.message!.slice(at)) as (typeof plans)[number]);
    });
    try {
      for (const setting of ["load 'auto_explain'", 'set auto_explain.log_min_duration = 0', 'set auto_explain.log_analyze = on', 'set auto_explain.log_nested_statements = on', "set auto_explain.log_level = 'notice'", "set auto_explain.log_format = 'json'"]) {
        await client.query(setting);
      }
      await client.query(`update schedule_runs set status = 'RUNNING' where id = (select min(id) from schedule_runs)`);
      await client.query(`update schedule_runs set status = 'RUNNING' where status = 'QUEUED'`);
    } finally {
      await client.end();
    }
    const copies = plans.filter((plan) => plan['Query Text'].includes('WITH moved'));
    expect(copies).toHaveLength(2);
    const removedByJoin = (node: Record<string, unknown>): number =>
      Math.max(Number(node['Rows Removed by Join Filter'] ?? 0), ...((node.Plans as Array<Record<string, unknown>> | undefined) ?? []).map(removedByJoin));
    expect(removedByJoin(copies[1]!.Plan)).toBeLessThanOrEqual(3000);
    await expectExactCopy(database, 3000);
  });

  // 0006 copies the unfinished runs already there, 0009 the waiting ones (an upgrade from 0008).
  it.each(['0006_', '0009_'])('is filled with the runs already there when a database is upgraded to %s', async (tag) => {
    // Migrate a fresh database up to the migration before `tag` only, add runs, then upgrade.
    const folder = mkdtempSync(path.join(tmpdir(), 'cronform-migrations-'));
    try {
      cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
      const journalFile = path.join(folder, 'meta', '_journal.json');
      const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: Array<{ tag: string }> };
      const before = journal.entries.findIndex((entry) => entry.tag.startsWith(tag));
      expect(before).toBeGreaterThan(0);
      writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, before) }));
      database = await openDatabase({ inMemory: true });
      await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder: folder });
      await database.db.execute(sql`insert into schedules (name, version, definition, digest) values ('old', 1, '{}'::jsonb, 'd')`);
      await database.db.execute(
        sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts)
            select s.id, 1, '2026-11-28T00:00:00Z'::timestamptz + n * interval '1 minute', 'SCHEDULED', 'old:' || n,
              (array['QUEUED', 'RUNNING', 'SUCCESS', 'PENDING', 'FAILED', 'MANUAL_REQUIRED'])[1 + n % 6], 2, 'default', '2026-11-28T00:00:00Z', 1
            from schedules s, generate_series(1, 20) n`,
      );
      await migrateDatabase(database);
      expect(await runIds(database, 'MANUAL_REQUIRED')).toHaveLength(3);
      await expectExactCopy(database, 13);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

/**
 * Joins (`spec.after` with several upstreams, docs/workflows.md) on real PostgreSQL: one
 * DEPENDENCY run per business date once every upstream succeeded for it, never two and never zero
 * when the last two upstreams commit their SUCCESS at the same moment in two transactions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { queryRows, type Database } from '../../src/db/client.js';
import { runSchedulerTick } from '../../src/runner/scheduler.js';
import { Worker, type WorkerOptions } from '../../src/runner/worker.js';
import { ManualClock } from '../../src/shared/clock.js';
import { DEFAULT_POLICY } from '../../src/compile/definition.js';
import type { ExecutionOutcome, RunContext } from '../../src/runner/run-types.js';
import { createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../support/databases.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';

const DAY0 = Date.parse('2026-10-01T00:00:00Z');
const DAY_MS = 86_400_000;
const DATES = 20;
const { source: _source, ...policy } = DEFAULT_POLICY;
const wide = { ...policy, queues: { default: { concurrency: 100 } } };

const outcome = (status: ExecutionOutcome['status']): ExecutionOutcome => ({ status, exitCode: status === 'SUCCEEDED' ? 0 : 1, httpStatus: null, error: null, stdoutTail: null, stderrTail: null, durationMs: 0 });

interface JoinRow {
  day: string;
  runs: number;
  slot: string;
  upstream: number;
  upstreams: Record<string, number>;
}

/** The DEPENDENCY runs of `schedule` per business date, with their contexts. */
async function joinRunsOf(database: Database, schedule: string): Promise<JoinRow[]> {
  return queryRows<JoinRow>(
    database.db,
    sql`select r.business_date::text as day, count(*) over (partition by r.business_date)::int as runs, r.scheduled_for::text as slot,
          c.upstream_run_id::int as upstream, c.upstream_run_ids as upstreams
        from schedule_runs r join schedules s on s.id = r.schedule_id and s.name = ${schedule}
        left join run_contexts c on c.run_id = r.id
        where r.trigger_type = 'DEPENDENCY' order by r.business_date, r.id`,
  );
}

/** Upstream runs by schedule and business date. */
async function upstreamRuns(database: Database, names: string[]): Promise<Map<string, { id: number; slot: string }>> {
  const rows = await queryRows<{ id: number; name: string; day: string; slot: string }>(
    database.db,
    sql`select r.id::int as id, s.name, r.business_date::text as day, r.scheduled_for::text as slot from schedule_runs r join schedules s on s.id = r.schedule_id
        where s.name = any(${sql.param(names)}::text[]) and r.trigger_type = 'SCHEDULED'`,
  );
  return new Map(rows.map((row) => [`${row.name}:${row.day}`, { id: row.id, slot: row.slot }]));
}

const dayOf = (index: number) => new Date(DAY0 + index * DAY_MS).toISOString().slice(0, 10);

describe.runIf(postgresServerUrl)('joins on real PostgreSQL (spec.after with several upstreams)', () => {
  let server: TestPostgres;
  let setup: Database;
  beforeAll(async () => {
    server = await createPostgresDatabase();
    setup = await server.open();
    // a and b at different hours: the join takes the later slot.
    await applyManifests(
      setup,
      {
        'a.yaml': scheduleManifest('a', { cron: '0 1 * * *', overlap: 'ALLOW' }),
        'b.yaml': scheduleManifest('b', { cron: '0 2 * * *', overlap: 'ALLOW' }),
        'join.yaml': scheduleManifest('join', { after: [{ schedule: 'a' }, { schedule: 'b' }], overlap: 'ALLOW' }),
      },
      DAY0,
    );
    for (let day = 0; day < DATES; day += 1) {
      await runSchedulerTick(setup, { nowMs: DAY0 + day * DAY_MS + 3_600_000 + 5, policy });
      await runSchedulerTick(setup, { nowMs: DAY0 + day * DAY_MS + 2 * 3_600_000 + 5, policy });
    }
  });
  afterAll(async () => {
    await server?.drop();
  });

  it('the last two upstreams commit at once in two transactions: one run per date, never zero', async () => {
    const runs = await upstreamRuns(setup, ['a', 'b']);
    expect(runs.size).toBe(2 * DATES);
    const first = new pg.Client({ connectionString: server.url });
    const second = new pg.Client({ connectionString: server.url });
    await Promise.all([first.connect(), second.connect()]);
    try {
      const secondPid = ((await second.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!).pid;
      const succeed = (client: pg.Client, runId: number) => client.query(`update schedule_runs set status = 'SUCCESS', finished_at = now() where id = $1`, [runId]);
      const createRuns = (client: pg.Client, runId: number) => client.query('select * from cronform.create_dependency_runs(array[$1]::bigint[], now())', [runId]);
      for (let day = 0; day < DATES; day += 1) {
        // Alternate which upstream commits first.
        const [early, late] = day % 2 === 0 ? ['a', 'b'] : ['b', 'a'];
        const earlyRun = runs.get(`${early}:${dayOf(day)}`)!;
        const lateRun = runs.get(`${late}:${dayOf(day)}`)!;
        // Both write their SUCCESS and look for the other's before either commits: each
        // snapshot misses the other's SUCCESS, which is what the per-dependent lock is for.
        await first.query('begin');
        await succeed(first, earlyRun.id);
        await createRuns(first, earlyRun.id);
        await second.query('begin');
        await succeed(second, lateRun.id);
        let settled = false;
        const lateCreates = createRuns(second, lateRun.id).finally(() => {
          settled = true;
        });
        // The second waits for the first's lock (or, without one, has finished already).
        for (;;) {
          const [activity] = await queryRows<{ waiting: boolean }>(setup.db, sql`select wait_event_type = 'Lock' as waiting from pg_stat_activity where pid = ${secondPid}`);
          if (settled || activity?.waiting) break;
          await new Promise((resolve) => setImmediate(resolve));
        }
        await first.query('commit');
        await lateCreates;
        await second.query('commit');
      }
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
    const joins = await joinRunsOf(setup, 'join');
    expect(joins.map((j) => j.day)).toEqual(Array.from({ length: DATES }, (_, day) => dayOf(day)));
    for (const [day, join] of joins.entries()) {
      const a = runs.get(`a:${join.day}`)!;
      const b = runs.get(`b:${join.day}`)!;
      expect(join.runs).toBe(1);
      // The run that completed the join is the later committer; every upstream is recorded.
      expect(join.upstream).toBe(day % 2 === 0 ? b.id : a.id);
      expect(join.upstreams).toEqual({ a: a.id, b: b.id });
      expect(join.slot).toBe(b.slot);
    }
    const [stored] = await queryRows<{ joins: number }>(setup.db, sql`select count(*)::int as joins from dependency_joins`);
    expect(stored!.joins).toBe(DATES);
  });
});

describe.runIf(postgresServerUrl)('joins with racing runners on real PostgreSQL', () => {
  let server: TestPostgres;
  let setup: Database;
  let replicas: Database[];
  beforeAll(async () => {
    server = await createPostgresDatabase();
    setup = await server.open();
    replicas = await Promise.all(Array.from({ length: 2 }, () => server.open({ maxConnections: 2 })));
  });
  afterAll(async () => {
    await server?.drop();
  });

  it('two runners complete both upstreams of 20 dates at once: one run per date; a failing upstream blocks its join', async () => {
    await applyManifests(
      setup,
      {
        'a.yaml': scheduleManifest('a', { cron: '0 1 * * *', overlap: 'ALLOW' }),
        'b.yaml': scheduleManifest('b', { cron: '0 1 * * *', overlap: 'ALLOW' }),
        'c-fails.yaml': scheduleManifest('c-fails', { cron: '0 1 * * *', overlap: 'ALLOW' }),
        'join.yaml': scheduleManifest('join', { after: [{ schedule: 'a' }, { schedule: 'b' }], overlap: 'ALLOW' }),
        'join-of-failing.yaml': scheduleManifest('join-of-failing', { after: [{ schedule: 'a' }, { schedule: 'c-fails' }], overlap: 'ALLOW' }),
      },
      DAY0,
    );
    const contexts: RunContext[] = [];
    const execute: NonNullable<WorkerOptions['execute']> = async (_job, context) => {
      contexts.push(context);
      return outcome(context.schedule.endsWith('-fails') ? 'FAILED' : 'SUCCEEDED');
    };
    const clock = new ManualClock(DAY0);
    const workers = replicas.map((db, index) => new Worker(db, { runnerId: `runner-${index}`, clock, concurrency: 1, leaseMs: 60_000, killGraceMs: 200, baseDir: process.cwd(), env: process.env, execute }, wide));
    for (let day = 0; day < DATES; day += 1) {
      const nowMs = DAY0 + day * DAY_MS + 3_600_000 + 5;
      clock.set(nowMs);
      await runSchedulerTick(setup, { nowMs, policy });
      // Each runner takes one run at a time: a's and b's SUCCESS are written by the two runners at once.
      for (let round = 0; round < 3; round += 1) {
        await Promise.all(workers.map((w) => w.claimAndStart()));
        await Promise.all(workers.map((w) => w.waitForExecutions(30_000)));
        await Promise.all(workers.map((w) => w.flushCompletions()));
      }
    }
    const runs = await upstreamRuns(setup, ['a', 'b']);
    const joins = await joinRunsOf(setup, 'join');
    expect(joins.map((j) => j.day)).toEqual(Array.from({ length: DATES }, (_, day) => dayOf(day)));
    for (const join of joins) {
      expect(join.runs).toBe(1);
      expect(join.upstreams).toEqual({ a: runs.get(`a:${join.day}`)!.id, b: runs.get(`b:${join.day}`)!.id });
      expect([runs.get(`a:${join.day}`)!.id, runs.get(`b:${join.day}`)!.id]).toContain(join.upstream);
    }
    expect(await joinRunsOf(setup, 'join-of-failing')).toEqual([]);
    // The job got every upstream run.
    const joinContexts = contexts.filter((c) => c.schedule === 'join');
    expect(joinContexts).toHaveLength(DATES);
    for (const context of joinContexts) {
      expect(context.trigger).toBe('DEPENDENCY');
      expect(context.upstreamRunIds).toEqual({ a: runs.get(`a:${context.businessDate}`)!.id, b: runs.get(`b:${context.businessDate}`)!.id });
      expect(Object.values(context.upstreamRunIds!)).toContain(context.upstreamRunId);
    }
  });
});

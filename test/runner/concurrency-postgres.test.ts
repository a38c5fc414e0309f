import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';
import { migrateDatabase } from '../../src/db/migrate.js';
import { runSchedulerTick } from '../../src/runner/scheduler.js';
import { Worker } from '../../src/runner/worker.js';
import { ManualClock } from '../../src/shared/clock.js';
import { DEFAULT_POLICY } from '../../src/compile/definition.js';
import { createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../support/databases.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';

const T0 = Date.parse('2026-11-29T12:00:00Z');
const { source: _source, ...policy } = DEFAULT_POLICY;

describe.runIf(postgresServerUrl)('replicas racing on real PostgreSQL', () => {
  let server: TestPostgres;
  let setup: Database;
  beforeAll(async () => {
    server = await createPostgresDatabase();
    setup = await server.open();
    await migrateDatabase(setup);
  });
  afterAll(async () => {
    await server.drop();
  });

  it('eight schedulers on separate connections create exactly one run per slot', async () => {
    const manifests: Record<string, string> = {};
    for (let i = 0; i < 40; i += 1) manifests[`s${i}.yaml`] = scheduleManifest(`race-${i}`, { cron: '* * * * *', overlap: 'ALLOW' });
    await applyManifests(setup, manifests, T0);
    const schedulers = await Promise.all(Array.from({ length: 8 }, () => server.open({ maxConnections: 2 })));
    // Five minutes of slots, each processed by all eight schedulers at the same moment.
    for (let minute = 1; minute <= 5; minute += 1) {
      await Promise.all(schedulers.map((db) => runSchedulerTick(db, { nowMs: T0 + minute * 60_000 + 5, policy, batchSize: 7 })));
    }
    const [counts] = await queryRows<{ runs: number; slots: number; dupes: number }>(
      setup.db,
      sql`select count(*)::int as runs, count(distinct (schedule_id, scheduled_for))::int as slots,
            (select count(*)::int from (select 1 from schedule_runs group by schedule_id, scheduled_for, trigger_type having count(*) > 1) d) as dupes
          from schedule_runs`,
    );
    expect(counts).toEqual({ runs: 200, slots: 200, dupes: 0 });
  });

  it('the unique slot key is the last line of defence even if next_run_at is rewound', async () => {
    await setup.db.execute(sql`update schedules set next_run_at = '2026-11-29T12:01:00Z' where name like 'race-%'`);
    await runSchedulerTick(setup, { nowMs: T0 + 5 * 60_000 + 10, policy });
    const [row] = await queryRows<{ runs: number }>(setup.db, sql`select count(*)::int as runs from schedule_runs`);
    expect(row?.runs).toBe(200);
  });

  it('workers on four connections claim every run exactly once, never two attempts of one run', async () => {
    const clock = new ManualClock(T0 + 5 * 60_000 + 20);
    const databases = await Promise.all(Array.from({ length: 4 }, () => server.open({ maxConnections: 2 })));
    const workers = databases.map((db, index) => new Worker(db, { runnerId: `worker-${index}`, clock, concurrency: 25, leaseMs: 60_000, killGraceMs: 200, baseDir: process.cwd(), env: process.env }, { ...policy, queues: { default: { concurrency: 100 } } }));
    for (let round = 0; round < 10; round += 1) {
      await Promise.all(workers.map((w) => w.claimAndStart()));
      await Promise.all(workers.map((w) => w.waitForExecutions(30_000)));
      await Promise.all(workers.map((w) => w.flushCompletions()));
    }
    const [summary] = await queryRows<{ success: number; attempts: number; multi: number }>(
      setup.db,
      sql`select (select count(*)::int from schedule_runs where status = 'SUCCESS') as success,
            (select count(*)::int from run_attempts) as attempts,
            (select count(*)::int from schedule_runs where attempts <> 1) as multi`,
    );
    expect(summary).toEqual({ success: 200, attempts: 200, multi: 0 });
  });

  it('per-queue concurrency holds across replicas', async () => {
    const own = await createPostgresDatabase();
    const setup = await own.open();
    await migrateDatabase(setup);
    await applyManifests(setup, { 'q.yaml': scheduleManifest('queue-limited', { cron: '* * * * *', overlap: 'ALLOW', queue: 'reports' }), 'p.yaml': 'apiVersion: cronform/v1\nkind: Policy\nmetadata: { name: default }\nspec:\n  queues: { default: { concurrency: 100 }, reports: { concurrency: 2 } }\n' }, T0 + 10 * 60_000);
    // Create five runnable runs of the limited queue.
    await runSchedulerTick(setup, { nowMs: T0 + 16 * 60_000, policy });
    await setup.db.execute(sql`update schedule_runs set status = 'QUEUED', run_after = '2026-11-29T12:00:00Z' where queue = 'reports'`);
    const limited = { ...policy, queues: { default: { concurrency: 100 }, reports: { concurrency: 2 } } };
    const clock = new ManualClock(T0 + 16 * 60_000 + 100);
    const databases = await Promise.all(Array.from({ length: 3 }, () => own.open({ maxConnections: 2 })));
    // Jobs that take a while, so every claim sees the others running.
    await setup.db.execute(sql`update schedule_versions set definition = jsonb_set(definition, '{job,command}', ${JSON.stringify([process.execPath, '-e', 'setTimeout(() => {}, 1500)'])}::jsonb) where name = 'queue-limited'`);
    const workers = databases.map((db, index) => new Worker(db, { runnerId: `q-${index}`, clock, concurrency: 5, leaseMs: 60_000, killGraceMs: 200, baseDir: process.cwd(), env: process.env }, limited));
    await Promise.all(workers.map((w) => w.claimAndStart()));
    const [running] = await queryRows<{ n: number }>(setup.db, sql`select count(*)::int as n from schedule_runs where queue = 'reports' and status = 'RUNNING'`);
    expect(running?.n).toBe(2);
    await Promise.all(workers.map((w) => w.waitForExecutions(30_000)));
    await Promise.all(workers.map((w) => w.flushCompletions()));
    await own.drop();
  });
});

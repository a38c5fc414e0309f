import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';
import { migrateDatabase } from '../../src/db/migrate.js';
import { runSchedulerTick } from '../../src/runner/scheduler.js';
import { createDependencyRuns } from '../../src/runner/dependency-runs.js';
import { Worker, type WorkerOptions } from '../../src/runner/worker.js';
import { ManualClock } from '../../src/shared/clock.js';
import { DEFAULT_POLICY } from '../../src/compile/definition.js';
import type { ExecutionOutcome, RunContext } from '../../src/runner/run-types.js';
import { createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../support/databases.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';

const T0 = Date.parse('2026-11-29T12:00:00Z');
const { source: _source, ...policy } = DEFAULT_POLICY;
const wide = { ...policy, queues: { default: { concurrency: 100 } } };

const outcome = (status: ExecutionOutcome['status']): ExecutionOutcome => ({ status, exitCode: status === 'SUCCEEDED' ? 0 : 1, httpStatus: null, error: null, stdoutTail: null, stderrTail: null, durationMs: 0 });

/** In-process jobs: schedules named `*-fails` fail, every other succeeds; every context is kept. */
function recordingExecute(contexts: RunContext[]): NonNullable<WorkerOptions['execute']> {
  return async (_job, context) => {
    contexts.push(context);
    return outcome(context.schedule.endsWith('-fails') ? 'FAILED' : 'SUCCEEDED');
  };
}

async function drain(workers: Worker[]): Promise<void> {
  for (let round = 0; round < 8; round += 1) {
    await Promise.all(workers.map((w) => w.claimAndStart()));
    await Promise.all(workers.map((w) => w.waitForExecutions(30_000)));
    await Promise.all(workers.map((w) => w.flushCompletions()));
  }
}

interface LinkRow {
  upstream_id: number;
  upstream_slot: string;
  upstream_date: string;
  downstream_id: number | null;
  downstream_slot: string | null;
  downstream_date: string | null;
  downstream_status: string | null;
  downstream_key: string | null;
}

describe.runIf(postgresServerUrl)('dependencies on real PostgreSQL (spec.after)', () => {
  let server: TestPostgres;
  let setup: Database;
  let replicas: Database[];
  beforeAll(async () => {
    server = await createPostgresDatabase();
    setup = await server.open();
    await migrateDatabase(setup);
    replicas = await Promise.all(Array.from({ length: 4 }, () => server.open({ maxConnections: 2 })));
  });
  afterAll(async () => {
    await server.drop();
  });

  it('one upstream SUCCESS creates exactly one DEPENDENCY run while four runners race; a failure creates none', async () => {
    await applyManifests(
      setup,
      {
        'up.yaml': scheduleManifest('extract', { cron: '* * * * *', overlap: 'ALLOW', businessDate: { offsetDays: -1 } }),
        'down.yaml': scheduleManifest('load', { after: [{ schedule: 'extract' }], overlap: 'ALLOW', inputs: { day: '{{businessDate}}' } }),
        'up-fails.yaml': scheduleManifest('extract-fails', { cron: '* * * * *', overlap: 'ALLOW' }),
        'down-of-failing.yaml': scheduleManifest('load-after-failure', { after: [{ schedule: 'extract-fails' }], overlap: 'ALLOW' }),
      },
      T0,
    );
    // Six minutes of slots for both upstreams; the dependents have none of their own.
    for (let minute = 1; minute <= 6; minute += 1) await runSchedulerTick(setup, { nowMs: T0 + minute * 60_000 + 5, policy });
    const contexts: RunContext[] = [];
    const clock = new ManualClock(T0 + 6 * 60_000 + 10);
    const workers = replicas.map((db, index) => new Worker(db, { runnerId: `runner-${index}`, clock, concurrency: 8, leaseMs: 60_000, killGraceMs: 200, baseDir: process.cwd(), env: process.env, execute: recordingExecute(contexts) }, wide));
    await drain(workers);

    const links = await queryRows<LinkRow>(
      setup.db,
      sql`select u.id::int as upstream_id, u.scheduled_for::text as upstream_slot, u.business_date::text as upstream_date,
            d.id::int as downstream_id, d.scheduled_for::text as downstream_slot, d.business_date::text as downstream_date,
            d.status as downstream_status, d.idempotency_key as downstream_key
          from schedule_runs u join schedules us on us.id = u.schedule_id and us.name = 'extract'
          left join run_contexts c on c.upstream_run_id = u.id
          left join schedule_runs d on d.id = c.run_id
          order by u.id`,
    );
    expect(links).toHaveLength(6);
    for (const link of links) {
      // Exactly one downstream per upstream success, on the upstream's slot and business date.
      expect(link.downstream_id).not.toBeNull();
      expect(link.downstream_slot).toBe(link.upstream_slot);
      expect(link.downstream_date).toBe(link.upstream_date);
      expect(link.downstream_status).toBe('SUCCESS');
      expect(link.downstream_key).toBe(`load:${new Date(link.upstream_slot).toISOString()}:DEPENDENCY`);
    }
    const [counts] = await queryRows<{ load: number; dependency: number; after_failure: number; scheduled_load: number; failed: number }>(
      setup.db,
      sql`select count(*) filter (where s.name = 'load')::int as load,
            count(*) filter (where r.trigger_type = 'DEPENDENCY')::int as dependency,
            count(*) filter (where s.name = 'load-after-failure')::int as after_failure,
            count(*) filter (where s.name = 'load' and r.trigger_type = 'SCHEDULED')::int as scheduled_load,
            count(*) filter (where s.name = 'extract-fails' and r.status = 'FAILED')::int as failed
          from schedule_runs r join schedules s on s.id = r.schedule_id`,
    );
    expect(counts).toEqual({ load: 6, dependency: 6, after_failure: 0, scheduled_load: 0, failed: 6 });

    // Each downstream job was told which upstream run it follows, and got its frozen input.
    const loadContexts = contexts.filter((c) => c.schedule === 'load');
    expect(loadContexts.map((c) => c.upstreamRunId).sort((a, b) => a! - b!)).toEqual(links.map((l) => l.upstream_id));
    for (const context of loadContexts) expect(context.inputs).toEqual({ day: context.businessDate });
    expect(loadContexts.every((c) => c.trigger === 'DEPENDENCY')).toBe(true);

    // Replayed by every replica at once (a batch written again after a lost COMMIT answer): nothing new.
    const upstreamIds = links.map((l) => l.upstream_id);
    const replayed = await Promise.all(replicas.map((db) => db.db.transaction((tx) => createDependencyRuns(tx, upstreamIds, new Date(T0 + 7 * 60_000)))));
    expect(replayed.map((r) => r.created)).toEqual([0, 0, 0, 0]);
    const [after] = await queryRows<{ n: number; contexts: number }>(
      setup.db,
      sql`select (select count(*)::int from schedule_runs where trigger_type = 'DEPENDENCY') as n,
            (select count(*)::int from run_contexts where upstream_run_id is not null) as contexts`,
    );
    expect(after).toEqual({ n: 6, contexts: 6 });
  });
});

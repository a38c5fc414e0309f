/**
 * `cronform.create_dependency_runs` (migration dependency-runs-sql), the one implementation of the
 * spec.after rule: a dependency run is decided like an on-time slot (pause, approval, overlap),
 * takes the dependent's priority, queue and attempts, and a replay creates nothing.
 */
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/compile/definition.js';
import { queryRows, type Database } from '../../src/db/client.js';
import { triggerRun } from '../../src/operations/runs/trigger.js';
import { createDependencyRuns } from '../../src/runner/dependency-runs.js';
import { runSchedulerTick } from '../../src/runner/scheduler.js';
import { runContextEnvironment } from '../../src/runner/executors/job-environment.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';
import { createPgliteDatabase } from '../support/databases.js';

const T0 = Date.parse('2026-11-30T00:00:00Z');
const { source: _source, ...policy } = DEFAULT_POLICY;
const author = { actor: 'test', reason: null, gitSha: null };

describe('create_dependency_runs', () => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('decides each dependent like an on-time slot, and a replay creates nothing', async () => {
    database = await createPgliteDatabase();
    await applyManifests(
      database,
      {
        'up.yaml': scheduleManifest('up', { cron: '0 3 * * *', overlap: 'ALLOW' }),
        'plain.yaml': scheduleManifest('plain', { after: [{ schedule: 'up' }], priority: 'CRITICAL', retry: { maxAttempts: 4 } }),
        'paused.yaml': scheduleManifest('paused', { after: [{ schedule: 'up' }] }),
        'approval.yaml': scheduleManifest('approval', { after: [{ schedule: 'up' }], approval: 'required' }),
        'queue-new.yaml': scheduleManifest('queue-new', { after: [{ schedule: 'up' }], overlap: 'QUEUE_NEW' }),
        'skip-new.yaml': scheduleManifest('skip-new', { after: [{ schedule: 'up' }], overlap: 'SKIP_NEW' }),
        'allow.yaml': scheduleManifest('allow', { after: [{ schedule: 'up' }], overlap: 'ALLOW' }),
        'disabled.yaml': scheduleManifest('disabled', { after: [{ schedule: 'up' }], enabled: false }),
      },
      T0,
    );
    const nowMs = T0 + 3 * 3_600_000 + 5;
    await database.db.execute(sql`update schedules set paused_at = ${new Date(T0).toISOString()}::timestamptz where name = 'paused'`);
    for (const name of ['queue-new', 'skip-new', 'allow']) await triggerRun(database, { name, forceNew: false, nowMs: T0, author });
    await runSchedulerTick(database, { nowMs, policy });
    const [up] = await queryRows<{ id: number; slot: string }>(database.db, sql`select r.id::int as id, r.scheduled_for::text as slot from schedule_runs r join schedules s on s.id = r.schedule_id where s.name = 'up'`);
    await database.db.execute(sql`update schedule_runs set status = 'SUCCESS', finished_at = ${new Date(nowMs).toISOString()}::timestamptz where id = ${up!.id}`);

    const created = await database.db.transaction((tx) => createDependencyRuns(tx, [up!.id], new Date(nowMs + 10)));
    expect(created).toEqual({ created: 6, queued: 2 });
    const rows = await queryRows<{ name: string; status: string; reason: string | null; priority: number; queue: string; max_attempts: number; run_after: string; finished: boolean; key: string }>(
      database.db,
      sql`select s.name, r.status, r.status_reason as reason, r.priority, r.queue, r.max_attempts, r.run_after::text, r.finished_at is not null as finished, r.idempotency_key as key
          from schedule_runs r join schedules s on s.id = r.schedule_id where r.trigger_type = 'DEPENDENCY' order by s.name`,
    );
    const key = (name: string) => `${name}:${new Date(up!.slot).toISOString()}:DEPENDENCY`;
    const runAfter = (await queryRows<{ t: string }>(database.db, sql`select ${new Date(nowMs + 10).toISOString()}::timestamptz::text as t`))[0]!.t;
    const base = { priority: 2, queue: 'default', max_attempts: 1, run_after: runAfter, finished: false };
    expect(rows).toEqual([
      { ...base, name: 'allow', status: 'QUEUED', reason: null, key: key('allow') },
      { ...base, name: 'approval', status: 'MANUAL_REQUIRED', reason: null, key: key('approval') },
      { ...base, name: 'paused', status: 'SKIPPED', reason: 'PAUSED', finished: true, key: key('paused') },
      { ...base, name: 'plain', status: 'QUEUED', reason: null, priority: 0, max_attempts: 4, key: key('plain') },
      { ...base, name: 'queue-new', status: 'PENDING', reason: null, key: key('queue-new') },
      { ...base, name: 'skip-new', status: 'SKIPPED', reason: 'OVERLAP', finished: true, key: key('skip-new') },
    ]);

    // Replayed (a batch written again after a lost COMMIT answer): nothing new.
    expect(await database.db.transaction((tx) => createDependencyRuns(tx, [up!.id], new Date(nowMs + 20)))).toEqual({ created: 0, queued: 0 });

    // A dry run of the upstream changed nothing: its SUCCESS starts no dependent.
    const dry = (await triggerRun(database, { name: 'up', forceNew: true, dryRun: true, nowMs: nowMs + 30_000, author })).runId;
    await database.db.execute(sql`update schedule_runs set status = 'SUCCESS', finished_at = now() where id = ${dry} and trigger_type = 'DRY_RUN'`);
    expect(await database.db.transaction((tx) => createDependencyRuns(tx, [dry], new Date(nowMs + 40_000)))).toEqual({ created: 0, queued: 0 });
  });

  it('hands every upstream run to the job as CRONFORM_UPSTREAM_RUN_IDS', () => {
    const env = runContextEnvironment({ runId: 9, schedule: 'join', scheduledFor: '2026-11-30T03:00:00.000Z', businessDate: '2026-11-30', idempotencyKey: 'k', attempt: 1, trigger: 'DEPENDENCY', payload: {}, upstreamRunId: 7, upstreamRunIds: { a: 5, b: 7 } });
    expect([env.CRONFORM_UPSTREAM_RUN_ID, env.CRONFORM_UPSTREAM_RUN_IDS]).toEqual(['7', '{"a":5,"b":7}']);
  });
});

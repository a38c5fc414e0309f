/**
 * Joins (`spec.after` with several upstreams, docs/workflows.md) driven tick by tick on PGlite: the
 * join waits for a retried upstream, a failed upstream blocks it, a second SUCCESS of one upstream
 * for a date already joined adds nothing, and a join's cron slots are deadlines like one upstream's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';
import { triggerRun } from '../../src/operations/runs/trigger.js';
import { showRun } from '../../src/operations/runs/show-run.js';
import { renderRunDetail } from '../../src/commands/runs/render-run-detail.js';
import { runSchedulerTick } from '../../src/runner/scheduler.js';
import { Worker, type WorkerOptions } from '../../src/runner/worker.js';
import { ManualClock } from '../../src/shared/clock.js';
import { DEFAULT_POLICY } from '../../src/compile/definition.js';
import type { ExecutionOutcome } from '../../src/runner/run-types.js';
import { createPgliteDatabase } from '../support/databases.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';

const DAY1 = Date.parse('2026-11-30T00:00:00Z');
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const { source: _source, ...policy } = DEFAULT_POLICY;
const author = { actor: 'test', reason: null, gitSha: null };

const outcome = (status: ExecutionOutcome['status']): ExecutionOutcome => ({ status, exitCode: status === 'SUCCEEDED' ? 0 : 1, httpStatus: null, error: null, stdoutTail: null, stderrTail: null, durationMs: 0 });

describe('joins (PGlite, manual clock)', () => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('waits for a retried upstream, never joins a failed one, joins a date once, and makes deadlines of its slots', async () => {
    database = await createPgliteDatabase();
    await applyManifests(
      database,
      {
        'a.yaml': scheduleManifest('a', { cron: '0 3 * * *', overlap: 'ALLOW' }),
        'b.yaml': scheduleManifest('b', { cron: '0 3 * * *', retry: { maxAttempts: 2, backoff: 'fixed', initialDelay: '30m' } }),
        'join.yaml': scheduleManifest('join', { after: [{ schedule: 'a' }, { schedule: 'b' }] }),
        'deadline.yaml': scheduleManifest('deadline', { cron: '0 5 * * *', after: [{ schedule: 'a' }, { schedule: 'b' }] }),
      },
      DAY1 - HOUR_MS,
    );
    const clock = new ManualClock(DAY1);
    // b fails its first attempt on day 1 (its retry succeeds) and every attempt on day 2.
    const execute: NonNullable<WorkerOptions['execute']> = async (_job, context) => {
      const fails = context.schedule === 'b' && (context.businessDate === '2026-12-01' || context.attempt === 1);
      return outcome(fails ? 'FAILED' : 'SUCCEEDED');
    };
    const worker = new Worker(database, { runnerId: 'w', clock, concurrency: 4, leaseMs: 60_000, killGraceMs: 200, baseDir: process.cwd(), env: process.env, execute }, policy);
    const at = async (ms: number) => {
      clock.advance(ms - clock.nowMs());
      await runSchedulerTick(database!, { nowMs: ms, policy });
      for (let round = 0; round < 3; round += 1) {
        await worker.claimAndStart();
        await worker.waitForExecutions(10_000);
        await worker.flushCompletions();
      }
    };
    const runsOf = (name: string) =>
      queryRows<{ id: number; trigger: string; status: string; reason: string | null; day: string; upstream: number | null; upstreams: Record<string, number> | null }>(
        database!.db,
        sql`select r.id::int as id, r.trigger_type as trigger, r.status, r.status_reason as reason, r.business_date::text as day,
              c.upstream_run_id::int as upstream, c.upstream_run_ids as upstreams
            from schedule_runs r join schedules s on s.id = r.schedule_id left join run_contexts c on c.run_id = r.id
            where s.name = ${name} order by r.scheduled_for, r.id`,
      );

    await at(DAY1 + 3 * HOUR_MS + 5);
    expect((await runsOf('b')).map((r) => r.status)).toEqual(['RETRY_PENDING']);
    expect(await runsOf('join')).toEqual([]);
    await at(DAY1 + 3.5 * HOUR_MS + 10);
    const [a1] = await runsOf('a');
    const [b1] = await runsOf('b');
    expect([a1!.status, b1!.status]).toEqual(['SUCCESS', 'SUCCESS']);
    // The retried upstream's SUCCESS completed the join.
    expect(await runsOf('join')).toEqual([{ id: expect.any(Number), trigger: 'DEPENDENCY', status: 'SUCCESS', reason: null, day: '2026-11-30', upstream: b1!.id, upstreams: { a: a1!.id, b: b1!.id } }]);
    // runs show: the join names every upstream run; each upstream lists the join among its downstream runs.
    const [joinRun] = await runsOf('join');
    const detail = await showRun(database, joinRun!.id);
    expect(detail).toMatchObject({ upstreamRunId: b1!.id, upstreamRunIds: { a: a1!.id, b: b1!.id } });
    expect(renderRunDetail(detail).filter((line) => /^\s*(after|upstream)\b/.test(line)).map((line) => line.trim().replace(/\s+/g, ' '))).toEqual([
      `after run ${b1!.id} (its SUCCESS created this run)`,
      `upstream run ${a1!.id} of a`,
      `upstream run ${b1!.id} of b`,
    ]);
    for (const upstream of [a1!, b1!]) expect((await showRun(database, upstream.id)).downstreamRuns.filter((d) => d.schedule === 'join')).toEqual([{ runId: joinRun!.id, schedule: 'join', status: 'SUCCESS' }]);

    // A second SUCCESS of a for the date already joined adds nothing.
    await at(DAY1 + 4 * HOUR_MS);
    await triggerRun(database, { name: 'a', forceNew: false, nowMs: clock.nowMs(), author });
    await at(DAY1 + 4 * HOUR_MS + 10);
    expect((await runsOf('a')).map((r) => [r.trigger, r.status, r.day])).toEqual([
      ['SCHEDULED', 'SUCCESS', '2026-11-30'],
      ['MANUAL', 'SUCCESS', '2026-11-30'],
    ]);
    expect(await runsOf('join')).toHaveLength(1);

    await at(DAY1 + 5 * HOUR_MS + 5);
    await at(DAY1 + DAY_MS + 3 * HOUR_MS + 5);
    await at(DAY1 + DAY_MS + 3.5 * HOUR_MS + 10);
    expect((await runsOf('b')).map((r) => r.status)).toEqual(['SUCCESS', 'FAILED']);
    await at(DAY1 + DAY_MS + 5 * HOUR_MS + 5);
    expect(await runsOf('join')).toHaveLength(1);
    expect((await runsOf('deadline')).map(({ trigger, status, reason, day }) => ({ trigger, status, reason, day }))).toEqual([
      { trigger: 'DEPENDENCY', status: 'SUCCESS', reason: null, day: '2026-11-30' },
      { trigger: 'SCHEDULED', status: 'SKIPPED', reason: 'UPSTREAM_SUCCEEDED', day: '2026-11-30' },
      { trigger: 'SCHEDULED', status: 'MISSED', reason: 'UPSTREAM_NOT_READY', day: '2026-12-01' },
    ]);
  });
});

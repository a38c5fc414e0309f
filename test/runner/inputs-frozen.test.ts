import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';
import { runSchedulerTick } from '../../src/runner/scheduler.js';
import { Worker, type WorkerOptions } from '../../src/runner/worker.js';
import { retryRun } from '../../src/operations/runs/retry.js';
import { showRun } from '../../src/operations/runs/show-run.js';
import { triggerRun } from '../../src/operations/runs/trigger.js';
import { runContextEnvironment } from '../../src/runner/executors/job-environment.js';
import { ManualClock } from '../../src/shared/clock.js';
import { DEFAULT_POLICY } from '../../src/compile/definition.js';
import type { ExecutionOutcome, RunContext } from '../../src/runner/run-types.js';
import { createPgliteDatabase } from '../support/databases.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';

// 06:00 in Seoul on 30 November is 21:00 UTC on the 29th.
const T0 = Date.parse('2026-11-29T20:00:00Z');
const SLOT = Date.parse('2026-11-29T21:00:00Z');
const DAY_MS = 86_400_000;
const { source: _source, ...policy } = DEFAULT_POLICY;
const author = { actor: 'ops', reason: null, gitSha: null };

const outcome = (status: ExecutionOutcome['status']): ExecutionOutcome => ({ status, exitCode: status === 'SUCCEEDED' ? 0 : 1, httpStatus: null, error: null, stdoutTail: null, stderrTail: null, durationMs: 0 });

describe('spec.inputs are frozen per run (PGlite, manual clock)', () => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('a retry on the next day keeps the business date and the inputs of the first attempt', async () => {
    database = await createPgliteDatabase();
    await applyManifests(
      database,
      {
        'r.yaml': scheduleManifest('weekly-window', {
          cron: '0 6 * * *',
          timezone: 'Asia/Seoul',
          businessDate: { offsetDays: -1 },
          inputs: { windowStart: '{{businessDate - 7d}}', windowEnd: '{{ businessDate }}', label: 'run of {{schedule}} for {{businessDate + 1w}}' },
        }),
      },
      T0,
    );
    const clock = new ManualClock(SLOT + 100);
    await runSchedulerTick(database, { nowMs: clock.nowMs(), policy });
    const contexts: RunContext[] = [];
    const results: Array<ExecutionOutcome['status']> = ['FAILED', 'SUCCEEDED'];
    const execute: NonNullable<WorkerOptions['execute']> = async (_job, context) => {
      contexts.push(context);
      return outcome(results.shift()!);
    };
    const worker = new Worker(database, { runnerId: 'w', clock, concurrency: 1, leaseMs: 60_000, killGraceMs: 200, baseDir: process.cwd(), env: process.env, execute }, policy);
    const step = async () => {
      await worker.claimAndStart();
      await worker.waitForExecutions(10_000);
      await worker.flushCompletions();
    };
    await step();
    expect(contexts).toHaveLength(1);
    const first = contexts[0]!;
    expect(first.businessDate).toBe('2026-11-29');
    expect(first.inputs).toEqual({ windowStart: '2026-11-22', windowEnd: '2026-11-29', label: 'run of weekly-window for 2026-12-06' });
    expect(runContextEnvironment(first).CRONFORM_INPUTS).toBe(JSON.stringify(first.inputs));

    // The next day the failed run is retried.
    clock.advance(DAY_MS);
    await retryRun(database, { runId: first.runId, nowMs: clock.nowMs(), author });
    await step();
    const retried = contexts.find((c) => c.runId === first.runId && c.attempt === 2);
    expect(retried).toBeDefined();
    expect(retried!.businessDate).toBe('2026-11-29');
    expect(retried!.inputs).toEqual(first.inputs);

    // A run created today gets today's window: what is frozen is per run, not per schedule.
    const triggered = await triggerRun(database, { name: 'weekly-window', nowMs: clock.nowMs(), author, forceNew: false });
    results.push('SUCCEEDED');
    await step();
    const fresh = contexts.find((c) => c.runId === triggered.runId);
    expect(fresh?.inputs?.windowEnd).toBe(fresh?.businessDate);
    expect(fresh?.inputs?.windowEnd).not.toBe('2026-11-29');

    // Stored once, shown by runs show.
    const shown = await showRun(database, first.runId);
    expect(shown.inputs).toEqual(first.inputs);
    const [stored] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from run_contexts where run_id = ${first.runId}`);
    expect(stored?.n).toBe(1);
  });

  it('stored inputs win over a later evaluation: the values are pinned, not recomputed', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'r.yaml': scheduleManifest('pinned', { cron: '0 6 * * *', timezone: 'Asia/Seoul', inputs: { day: '{{businessDate}}' } }) }, T0);
    const clock = new ManualClock(SLOT + 100);
    await runSchedulerTick(database, { nowMs: clock.nowMs(), policy });
    const [run] = await queryRows<{ id: number }>(database.db, sql`select id::int as id from schedule_runs`);
    // As if an earlier attempt (or an earlier release's evaluator) had stored this value.
    await database.db.execute(sql`insert into run_contexts (run_id, inputs) values (${run!.id}, '{"day": "1999-01-01"}'::jsonb)`);
    const contexts: RunContext[] = [];
    const worker = new Worker(database, { runnerId: 'w', clock, concurrency: 1, leaseMs: 60_000, killGraceMs: 200, baseDir: process.cwd(), env: process.env, execute: async (_job, context) => (contexts.push(context), outcome('SUCCEEDED')) }, policy);
    await worker.claimAndStart();
    await worker.waitForExecutions(10_000);
    await worker.flushCompletions();
    expect(contexts[0]?.inputs).toEqual({ day: '1999-01-01' });
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';
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

const outcome = (status: ExecutionOutcome['status']): ExecutionOutcome => ({ status, exitCode: status === 'SUCCEEDED' ? 0 : 1, httpStatus: null, error: null, stdoutTail: null, stderrTail: null, durationMs: 0 });

describe('a dependent with a cron: its slots are deadlines (PGlite, manual clock)', () => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('met deadline → SKIPPED/UPSTREAM_SUCCEEDED; missed → MISSED/UPSTREAM_NOT_READY', async () => {
    database = await createPgliteDatabase();
    await applyManifests(
      database,
      { 'e.yaml': scheduleManifest('extract', { cron: '0 3 * * *' }), 'l.yaml': scheduleManifest('load', { cron: '0 5 * * *', after: [{ schedule: 'extract' }] }) },
      DAY1 - HOUR_MS,
    );
    const clock = new ManualClock(DAY1);
    let extractSucceeds = true;
    const execute: NonNullable<WorkerOptions['execute']> = async (_job, context) => outcome(context.schedule === 'extract' && !extractSucceeds ? 'FAILED' : 'SUCCEEDED');
    const worker = new Worker(database, { runnerId: 'w', clock, concurrency: 2, leaseMs: 60_000, killGraceMs: 200, baseDir: process.cwd(), env: process.env, execute }, policy);
    const at = async (ms: number) => {
      clock.advance(ms - clock.nowMs());
      await runSchedulerTick(database!, { nowMs: ms, policy });
      for (let round = 0; round < 3; round += 1) {
        await worker.claimAndStart();
        await worker.waitForExecutions(10_000);
        await worker.flushCompletions();
      }
    };
    await at(DAY1 + 3 * HOUR_MS + 5);
    await at(DAY1 + 5 * HOUR_MS + 5);
    extractSucceeds = false;
    await at(DAY1 + DAY_MS + 3 * HOUR_MS + 5);
    await at(DAY1 + DAY_MS + 5 * HOUR_MS + 5);
    const rows = await queryRows<{ name: string; trigger: string; status: string; reason: string | null; day: string }>(
      database.db,
      sql`select s.name, r.trigger_type as trigger, r.status, r.status_reason as reason, r.business_date::text as day
          from schedule_runs r join schedules s on s.id = r.schedule_id where s.name = 'load' order by r.scheduled_for, r.id`,
    );
    expect(rows).toEqual([
      { name: 'load', trigger: 'DEPENDENCY', status: 'SUCCESS', reason: null, day: '2026-11-30' },
      { name: 'load', trigger: 'SCHEDULED', status: 'SKIPPED', reason: 'UPSTREAM_SUCCEEDED', day: '2026-11-30' },
      { name: 'load', trigger: 'SCHEDULED', status: 'MISSED', reason: 'UPSTREAM_NOT_READY', day: '2026-12-01' },
    ]);
  });
});

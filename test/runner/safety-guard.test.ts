/**
 * Destructive jobs guarded (SPEC §8a), with real child processes calling the built CLI: a job that
 * asks `cronform guard --affects N` above `safety.maxAffected` is stopped before it acts and its
 * run waits in MANUAL_REQUIRED (reason SAFETY_THRESHOLD); `approve` lets the next attempt affect
 * the reported count; a dry run (`trigger --dry-run`) reports and never acts.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';
import { Runner } from '../../src/runner/runner.js';
import { approveRun } from '../../src/operations/runs/approve.js';
import { triggerRun } from '../../src/operations/runs/trigger.js';
import { ManualClock } from '../../src/shared/clock.js';
import { createPgliteDatabase } from '../support/databases.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';
import { jobsDir, repoRoot } from './executors/executor-fixtures.js';

const T0 = Date.parse('2026-11-29T12:00:00Z');
const SLOT = T0 + 5 * 60_000;
const oncall = { actor: 'oncall', reason: 'checked the 12,000 rows', gitSha: null };

describe('safety.maxAffected with real jobs asking cronform guard', () => {
  let database: Database | undefined;
  let runner: Runner | undefined;
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cronform-safety-'));
  });
  afterEach(async () => {
    await runner?.worker.releaseUnfinished().catch(() => undefined);
    await database?.close();
    runner = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  async function setUp(affects: number, spec: Record<string, unknown>): Promise<ManualClock> {
    database = await createPgliteDatabase();
    const job = {
      type: 'command',
      command: [process.execPath, `${jobsDir}/guarded-delete.js`],
      env: { AFFECTS: String(affects), ACTED_FILE: join(dir, 'acted.txt'), CRONFORM_BIN: `${repoRoot}/bin/run.js` },
    };
    await applyManifests(database, { 'a.yaml': scheduleManifest('purge', { cron: '*/5 * * * *', job, ...spec }) }, T0);
    const clock = new ManualClock(SLOT + 50);
    runner = new Runner(database, { clock, concurrency: 2, leaseMs: 30_000, baseDir: process.cwd(), env: process.env, killGraceMs: 500 });
    return clock;
  }

  async function runDue(): Promise<void> {
    await runner!.tick();
    expect(await runner!.worker.waitForExecutions(30_000)).toBe(true);
    await runner!.tick();
  }

  const acted = (): string[] => (existsSync(join(dir, 'acted.txt')) ? readFileSync(join(dir, 'acted.txt'), 'utf8').trim().split('\n') : []);

  async function state(): Promise<{ status: string; reason: string | null; wouldAffect: number | null; attempts: Array<{ status: string; error: string | null; stdout: Record<string, unknown> }> }> {
    const [run] = await queryRows<{ status: string; status_reason: string | null; would_affect: number | null }>(
      database!.db,
      sql`select r.status, r.status_reason, p.would_affect::int as would_affect from schedule_runs r left join run_progress p on p.run_id = r.id order by r.id desc limit 1`,
    );
    const attempts = await queryRows<{ status: string; error: string | null; stdout_tail: string }>(database!.db, sql`select status, error, stdout_tail from run_attempts where run_id = (select max(id) from schedule_runs) order by attempt`);
    return { status: run!.status, reason: run!.status_reason, wouldAffect: run!.would_affect, attempts: attempts.map((a) => ({ status: a.status, error: a.error, stdout: JSON.parse(a.stdout_tail) as Record<string, unknown> })) };
  }

  it('stops a run above the threshold before it acts; approve lets the next attempt affect the reported count', async () => {
    await setUp(12_000, { safety: { maxAffected: 10_000 } });
    await runDue();
    expect(acted()).toEqual([]);
    expect(await state()).toEqual({
      status: 'MANUAL_REQUIRED',
      reason: 'SAFETY_THRESHOLD',
      wouldAffect: 12_000,
      attempts: [{ status: 'SUCCEEDED', error: 'would affect 12,000 > maxAffected 10,000; approve to let it proceed: cronform approve 1', stdout: { guardExit: 7, dryRun: null, maxAffected: '10000' } }],
    });
    expect(await approveRun(database!, { runId: 1, nowMs: SLOT + 1000, author: oncall })).toMatchObject({ status: 'QUEUED', approvedAffected: 12_000 });
    await runDue();
    expect(acted()).toEqual(['deleted 12000 (attempt 2)']);
    expect(await state()).toMatchObject({ status: 'SUCCESS', attempts: [{}, { status: 'SUCCEEDED', error: null, stdout: { guardExit: 0, maxAffected: '12000' } }] });
  });

  it('runs a job within the threshold at once', async () => {
    await setUp(10_000, { safety: { maxAffected: 10_000 } });
    await runDue();
    expect(acted()).toEqual(['deleted 10000 (attempt 1)']);
    expect(await state()).toMatchObject({ status: 'SUCCESS', reason: null, wouldAffect: 10_000 });
  });

  it('a dry run reports what it would affect and changes nothing, above the threshold or not', async () => {
    await setUp(12_000, { cron: '0 0 1 1 *', safety: { maxAffected: 10_000 }, approval: 'required' });
    const triggered = await triggerRun(database!, { name: 'purge', forceNew: false, dryRun: true, nowMs: SLOT, author: oncall });
    expect(triggered).toMatchObject({ status: 'QUEUED', dryRun: true, idempotencyKey: 'purge:2026-11-29T12:05:00.000Z:DRY_RUN' });
    await runDue();
    expect(acted()).toEqual([]);
    expect(await state()).toEqual({ status: 'SUCCESS', reason: null, wouldAffect: 12_000, attempts: [{ status: 'SUCCEEDED', error: null, stdout: { guardExit: 8, dryRun: '1', maxAffected: '10000' } }] });
  });
});

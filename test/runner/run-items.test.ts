/**
 * Batches and progress (SPEC §8a) with real child processes: a job of 1,000 items, 10 of which
 * fail, reports each item through its progress file; the run ends PARTIAL_SUCCESS within
 * `allowedFailures` and FAILED beyond it, and a retry (by the operator, or the retry policy)
 * re-runs only the failed items.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';
import { Runner } from '../../src/runner/runner.js';
import { retryRun } from '../../src/operations/runs/retry.js';
import { showRun } from '../../src/operations/runs/show-run.js';
import { renderRunDetail } from '../../src/commands/runs/render-run-detail.js';
import { ManualClock } from '../../src/shared/clock.js';
import { createPgliteDatabase } from '../support/databases.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';
import { jobsDir } from './executors/executor-fixtures.js';

const T0 = Date.parse('2026-11-29T12:00:00Z');
const SLOT = T0 + 5 * 60_000;
const author = { actor: 'oncall', reason: 'failed items fixed upstream', gitSha: null };

function batchManifest(spec: Record<string, unknown>, env: Record<string, string> = {}): string {
  return scheduleManifest('batch', {
    cron: '*/5 * * * *',
    job: { type: 'command', command: [process.execPath, `${jobsDir}/batch-items.js`], env: { ITEMS: '1000', FAIL_EVERY: '100', ...env } },
    ...spec,
  });
}

async function runRow(database: Database): Promise<{ status: string; status_reason: string | null; attempts: number }> {
  const [row] = await queryRows<{ status: string; status_reason: string | null; attempts: number }>(database.db, sql`select status, status_reason, attempts from schedule_runs order by id limit 1`);
  return row!;
}

async function progressRow(database: Database): Promise<Record<string, unknown>> {
  const [row] = await queryRows<Record<string, unknown>>(
    database.db,
    sql`select total::int, done::int, failed::int, attempt, complete_report, (select count(*)::int from run_items) as items,
          (select count(*)::int from run_items where status = 'FAILED') as failed_items from run_progress`,
  );
  return row!;
}

async function lastAttempt(database: Database): Promise<{ status: string; error: string | null; stdout: { processed: number; first: string; retry: boolean } }> {
  const [row] = await queryRows<{ status: string; error: string | null; stdout_tail: string }>(database.db, sql`select status, error, stdout_tail from run_attempts order by attempt desc limit 1`);
  return { status: row!.status, error: row!.error, stdout: JSON.parse(row!.stdout_tail) as { processed: number; first: string; retry: boolean } };
}

describe('runs with items, on embedded PGlite with real jobs', () => {
  let database: Database | undefined;
  let runner: Runner | undefined;
  afterEach(async () => {
    await runner?.worker.releaseUnfinished().catch(() => undefined);
    await database?.close();
    runner = undefined;
  });

  async function runOnce(clock: ManualClock): Promise<void> {
    runner ??= new Runner(database!, { clock, concurrency: 2, leaseMs: 30_000, baseDir: process.cwd(), env: process.env, killGraceMs: 500 });
    await runner.tick();
    expect(await runner.worker.waitForExecutions(20_000)).toBe(true);
    await runner.tick();
  }

  it('ends PARTIAL_SUCCESS with 10 of 1,000 items failed within allowedFailures 10; retry re-runs only those 10', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': batchManifest({ allowedFailures: 10 }, { FAIL_UNTIL_ATTEMPT: '1' }) }, T0);
    const clock = new ManualClock(SLOT + 50);
    await runOnce(clock);
    expect(await runRow(database)).toMatchObject({ status: 'PARTIAL_SUCCESS', attempts: 1 });
    expect(await progressRow(database)).toEqual({ total: 1000, done: 990, failed: 10, attempt: 1, complete_report: true, items: 1000, failed_items: 10 });
    expect(await lastAttempt(database)).toMatchObject({ status: 'SUCCEEDED', error: null, stdout: { processed: 1000, retry: false } });
    const shown = await showRun(database, 1);
    expect(shown.progress).toMatchObject({ total: 1000, done: 990, failed: 10, wouldAffect: null, itemsTruncated: false });
    expect(shown.progress?.items.slice(0, 2)).toEqual([
      { key: 'item-0', status: 'FAILED', attempt: 1, error: 'item 0 rejected' },
      { key: 'item-100', status: 'FAILED', attempt: 1, error: 'item 100 rejected' },
    ]);
    expect(shown.progress?.items).toHaveLength(20);
    const text = renderRunDetail(shown);
    expect(text[0]).toBe('Run 1 of batch  PARTIAL_SUCCESS');
    expect(text).toContain('Progress  990 of 1,000 done, 10 failed  (reported 2026-11-29T12:05:00.050Z)');
    expect(text).toContain('    FAILED item-0  attempt 1: item 0 rejected');

    await retryRun(database, { runId: 1, nowMs: clock.nowMs(), author });
    clock.advance(1000);
    await runOnce(clock);
    expect(await lastAttempt(database)).toMatchObject({ status: 'SUCCEEDED', stdout: { processed: 10, first: 'item-0', retry: true } });
    expect(await runRow(database)).toMatchObject({ status: 'SUCCESS', attempts: 2 });
    expect(await progressRow(database)).toEqual({ total: 1000, done: 1000, failed: 0, attempt: 2, complete_report: true, items: 1000, failed_items: 0 });
  });

  it('ends FAILED beyond the allowance (9, or 0.9%), and its automatic retry re-runs only the failed items', async () => {
    database = await createPgliteDatabase();
    await applyManifests(
      database,
      { 'a.yaml': batchManifest({ allowedFailures: '0.9%', retry: { maxAttempts: 2, backoff: 'fixed', initialDelay: '10s' } }, { FAIL_UNTIL_ATTEMPT: '1' }) },
      T0,
    );
    const clock = new ManualClock(SLOT + 50);
    await runOnce(clock);
    expect(await runRow(database)).toMatchObject({ status: 'RETRY_PENDING', attempts: 1 });
    expect(await lastAttempt(database)).toMatchObject({ status: 'FAILED', error: '10 of 1,000 items failed, more than allowedFailures 0.9%' });
    clock.advance(11_000);
    await runOnce(clock);
    expect(await lastAttempt(database)).toMatchObject({ status: 'SUCCEEDED', stdout: { processed: 10, retry: true } });
    expect(await runRow(database)).toMatchObject({ status: 'SUCCESS', attempts: 2 });
  });

  it('ends FAILED when the items keep failing past the last attempt; 1% of 1,000 still allows 10', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': batchManifest({ allowedFailures: 9 }), 'b.yaml': batchManifest({ allowedFailures: '1%' }).replace('name: batch', 'name: batch-percent') }, T0);
    const clock = new ManualClock(SLOT + 50);
    await runOnce(clock);
    const rows = await queryRows<{ name: string; status: string }>(database.db, sql`select s.name, r.status from schedule_runs r join schedules s on s.id = r.schedule_id order by s.name`);
    expect(rows).toEqual([
      { name: 'batch', status: 'FAILED' },
      { name: 'batch-percent', status: 'PARTIAL_SUCCESS' },
    ]);
  });

  it('without allowedFailures a single failed item fails the run, though the job exited 0', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': batchManifest({}, { ITEMS: '50', FAIL_EVERY: '49' }) }, T0);
    const clock = new ManualClock(SLOT + 50);
    await runOnce(clock);
    expect(await runRow(database)).toMatchObject({ status: 'FAILED' });
    expect(await lastAttempt(database)).toMatchObject({ status: 'FAILED', error: '2 of 50 items failed, more than no allowedFailures' });
  });

  it('writes live counts at heartbeats while the job runs, before its outcome', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cronform-hold-'));
    try {
      database = await createPgliteDatabase();
      await applyManifests(database, { 'a.yaml': batchManifest({ allowedFailures: 10 }, { HOLD_FILE: join(dir, 'go') }) }, T0);
      const clock = new ManualClock(SLOT + 50);
      runner = new Runner(database, { clock, concurrency: 2, leaseMs: 30_000, baseDir: process.cwd(), env: process.env, killGraceMs: 500 });
      await runner.tick();
      // The job reports all 1,000 items, then holds; each tick a heartbeat later writes what was read by then.
      let live: Record<string, unknown> | undefined;
      for (let tries = 0; tries < 200 && live?.done !== 990; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        clock.advance(10_001);
        await runner.tick();
        [live] = await queryRows<Record<string, unknown>>(database.db, sql`select total::int, done::int, failed::int, complete_report from run_progress`);
      }
      expect(live).toEqual({ total: 1000, done: 990, failed: 10, complete_report: false });
      expect(await runRow(database)).toMatchObject({ status: 'RUNNING' });
      expect(await queryRows(database.db, sql`select 1 from run_items`)).toEqual([]);
      writeFileSync(join(dir, 'go'), '');
      expect(await runner.worker.waitForExecutions(20_000)).toBe(true);
      await runner.tick();
      expect(await runRow(database)).toMatchObject({ status: 'PARTIAL_SUCCESS' });
      expect(await progressRow(database)).toMatchObject({ done: 990, failed: 10, items: 1000, complete_report: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

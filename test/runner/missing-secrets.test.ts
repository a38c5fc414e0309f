/**
 * A job that needs a `{ fromEnv }` variable that is not set (src/runner/claimed-run.ts): a real
 * runner fails its run, retries and all (a misconfiguration that must alert); `cronform dev`
 * (missingSecrets 'skip') ends it SKIPPED, reason MISSING_SECRET, naming the variable, without
 * starting the job. Driven tick by tick on PGlite with a manual clock; the jobs are real processes.
 */
import { afterEach, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';
import { Runner } from '../../src/runner/runner.js';
import { ManualClock } from '../../src/shared/clock.js';
import { createPgliteDatabase } from '../support/databases.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';

const T0 = Date.parse('2026-11-29T12:00:00Z');
const SLOT_MS = T0 + 3_600_000;
const MESSAGE = 'environment variable CF_TEST_TOKEN is not set on this runner: set CF_TEST_TOKEN to enable this job';
// The job fails if its token did not reach it: SUCCESS below means it ran with the secret.
const job = { type: 'command', command: [process.execPath, '-e', 'process.exit(process.env.TOKEN === "t0ken-value" ? 0 : 3)'], env: { TOKEN: { fromEnv: 'CF_TEST_TOKEN' } } };

let database: Database | undefined;
let runner: Runner | undefined;
afterEach(async () => {
  await runner?.worker.releaseUnfinished().catch(() => undefined);
  await database?.close();
  runner = undefined;
  database = undefined;
});

const RETRIES = { maxAttempts: 3, backoff: 'fixed', initialDelay: '30s' };

/** One hourly slot of the schedule, run to its first outcome under `missingSecrets`. */
async function runOneSlot(missingSecrets: 'skip' | undefined, env: NodeJS.ProcessEnv, retry: Record<string, unknown> = RETRIES) {
  database = await createPgliteDatabase();
  await applyManifests(database, { 'a.yaml': scheduleManifest('needs-token', { cron: '0 * * * *', job, retry }) }, T0);
  const clock = new ManualClock(SLOT_MS + 120);
  runner = new Runner(database, { clock, concurrency: 1, leaseMs: 30_000, baseDir: process.cwd(), env: { PATH: process.env.PATH, ...env }, killGraceMs: 500, alerts: false, ...(missingSecrets ? { missingSecrets } : {}) });
  await runner.tick();
  expect(await runner.worker.waitForExecutions(10_000)).toBe(true);
  await runner.tick();
  const runs = await queryRows<{ status: string; status_reason: string | null; attempts: number; finished: boolean }>(
    database.db,
    sql`select status, status_reason, attempts, finished_at is not null as finished from schedule_runs`,
  );
  const attempts = await queryRows<{ attempt: number; status: string; error: string | null }>(database.db, sql`select attempt, status, error from run_attempts order by attempt`);
  return { runs, attempts };
}

it('runner (the default): a missing secret fails the run, an alert for its on-call', async () => {
  const { runs, attempts } = await runOneSlot(undefined, {}, { maxAttempts: 1 });
  expect(runs).toEqual([{ status: 'FAILED', status_reason: null, attempts: 1, finished: true }]);
  expect(attempts).toEqual([{ attempt: 1, status: 'FAILED', error: MESSAGE }]);
});

it("dev ('skip'): a missing secret ends the run SKIPPED with reason MISSING_SECRET, naming the variable, retries left unused", async () => {
  const { runs, attempts } = await runOneSlot('skip', {});
  expect(runs).toEqual([{ status: 'SKIPPED', status_reason: 'MISSING_SECRET', attempts: 1, finished: true }]);
  expect(attempts).toEqual([{ attempt: 1, status: 'FAILED', error: MESSAGE }]);
});

it("dev ('skip'): with the variable set, the job runs with it", async () => {
  const { runs, attempts } = await runOneSlot('skip', { CF_TEST_TOKEN: 't0ken-value' });
  expect(runs).toEqual([{ status: 'SUCCESS', status_reason: null, attempts: 1, finished: true }]);
  expect(attempts).toEqual([{ attempt: 1, status: 'SUCCEEDED', error: null }]);
});

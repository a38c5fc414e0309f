/**
 * A runner process killed with SIGKILL in the middle of an attempt (real processes, real
 * PostgreSQL): its job is stopped by the reaper, and another replica recovers the run per
 * onStall once the lease expires — never two attempts of one run at the same time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';
import { migrateDatabase } from '../../src/db/migrate.js';
import { createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../support/databases.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const cli = path.join(repoRoot, 'bin', 'run.js');
const built = existsSync(path.join(repoRoot, 'dist', 'commands', 'index.js'));

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A killed orphan may linger as a zombie where PID 1 does not reap: that is dead too.
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.runIf(postgresServerUrl && built)('runner killed with SIGKILL mid-attempt', () => {
  let server: TestPostgres;
  let database: Database;
  let scratch: string;
  const runners: ChildProcess[] = [];
  beforeAll(async () => {
    server = await createPostgresDatabase();
    database = await server.open();
    await migrateDatabase(database);
    scratch = mkdtempSync(path.join(tmpdir(), 'cronform-sigkill-'));
  });
  afterAll(async () => {
    for (const runner of runners) runner.kill('SIGKILL');
    await server.drop();
    rmSync(scratch, { recursive: true, force: true });
  });

  function startRunner(): ChildProcess {
    const child = spawn(process.execPath, [cli, 'runner', '--database-url', server.url, '--lease', '2s', '--concurrency', '2', '--kill-grace', '1s', '--base-dir', scratch], { stdio: 'ignore', env: { ...process.env, CRONFORM_LOG_LEVEL: 'error' } });
    runners.push(child);
    return child;
  }

  it('stops the orphaned job and recovers the run on another replica', async () => {
    // Attempt 1 records its pid and hangs; attempt 2 succeeds at once.
    const script = `require('fs').writeFileSync('attempt-' + process.env.CRONFORM_ATTEMPT + '.pid', String(process.pid)); if (process.env.CRONFORM_ATTEMPT === '1') setInterval(() => {}, 1000);`;
    await applyManifests(database, { 'a.yaml': scheduleManifest('hangs', { cron: '0 0 1 1 *', onStall: 'retry', retry: { maxAttempts: 2, backoff: 'fixed', initialDelay: '1s' }, timeout: '10m', job: { type: 'command', command: [process.execPath, '-e', script] } }) }, Date.now());
    await database.db.execute(
      sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts)
          select id, version, now(), 'MANUAL', 'hangs:manual', 'QUEUED', 2, 'default', now(), 2 from schedules`,
    );
    const first = startRunner();
    const jobPid = await waitFor('attempt 1 to start', async () => {
      const file = path.join(scratch, 'attempt-1.pid');
      return existsSync(file) && readFileSync(file, 'utf8') ? Number(readFileSync(file, 'utf8')) : undefined;
    });
    expect(isAlive(jobPid)).toBe(true);
    first.kill('SIGKILL');
    // The reaper stops the orphan well before the 2 s lease expires and a retry could start.
    await waitFor('the orphaned job to be stopped', async () => (isAlive(jobPid) ? undefined : true), 10_000);
    startRunner();
    const run = await waitFor('the run to be recovered', async () => {
      const [row] = await queryRows<{ status: string; attempts: number }>(database.db, sql`select status, attempts from schedule_runs`);
      return row?.status === 'SUCCESS' ? row : undefined;
    });
    expect(run).toEqual({ status: 'SUCCESS', attempts: 2 });
    const attempts = await queryRows<{ attempt: number; status: string; started: string; finished: string | null }>(
      database.db,
      sql`select attempt, status, started_at::text as started, finished_at::text as finished from run_attempts order by attempt`,
    );
    expect(attempts.map((a) => [a.attempt, a.status])).toEqual([
      [1, 'STALLED'],
      [2, 'SUCCEEDED'],
    ]);
  }, 60_000);
});

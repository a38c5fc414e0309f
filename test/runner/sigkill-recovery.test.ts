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
import { runReconcileTick } from '../../src/runner/reconciler.js';
import { isAlive, waitFor } from '../support/processes.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const cli = path.join(repoRoot, 'bin', 'run.js');
const built = existsSync(path.join(repoRoot, 'dist', 'commands', 'index.js'));

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

  function startRunner(killGrace = '1s'): ChildProcess {
    const child = spawn(process.execPath, [cli, 'runner', '--database-url', server.url, '--lease', '2s', '--concurrency', '2', '--kill-grace', killGrace, '--base-dir', scratch], { stdio: 'ignore', env: { ...process.env, CRONFORM_LOG_LEVEL: 'error' } });
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
  }, 150_000);

  it('does not retry the run of a runner killed late in its lease before its job, which ignores SIGTERM, is dead', async () => {
    // The job ignores SIGTERM, so it dies only of the reaper's SIGKILL, a kill grace (1.5 s)
    // after the runner's death; the runner is frozen first (SIGSTOP: no heartbeat, no fence) and
    // killed 300 ms before its lease expires. Attempt 2 records whether attempt 1 still lived.
    const dir = mkdtempSync(path.join(scratch, 'late-'));
    const script = `const fs = require('fs');
      if (process.env.CRONFORM_ATTEMPT === '1') { process.on('SIGTERM', () => {}); fs.writeFileSync('attempt-1.pid', String(process.pid)); setInterval(() => {}, 1000); }
      else { let alive = true; try { process.kill(Number(fs.readFileSync('attempt-1.pid', 'utf8')), 0); alive = !/^\\S+ \\(.*\\) Z/.test(fs.readFileSync('/proc/' + fs.readFileSync('attempt-1.pid', 'utf8') + '/stat', 'utf8')); } catch { alive = false; } fs.writeFileSync('attempt-2.saw', alive ? 'attempt 1 alive' : 'attempt 1 dead'); }`;
    // The previous test's runners are done: none may take this run.
    for (const runner of runners.splice(0)) {
      runner.kill('SIGKILL');
      if (runner.exitCode === null && runner.signalCode === null) await new Promise((resolve) => runner.once('exit', resolve));
    }
    await applyManifests(database, { 'a.yaml': scheduleManifest('stubborn', { cron: '0 0 1 1 *', onStall: 'retry', retry: { maxAttempts: 2, backoff: 'fixed', initialDelay: '1s' }, timeout: '10m', job: { type: 'command', command: [process.execPath, '-e', script], cwd: path.basename(dir) } }) }, Date.now());
    await database.db.execute(
      sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts)
          select id, version, now(), 'MANUAL', 'stubborn:manual', 'QUEUED', 2, 'default', now(), 2 from schedules where name = 'stubborn'`,
    );
    const first = startRunner('1500ms');
    const jobPid = await waitFor('attempt 1 to start', async () => {
      const file = path.join(dir, 'attempt-1.pid');
      return existsSync(file) && readFileSync(file, 'utf8') ? Number(readFileSync(file, 'utf8')) : undefined;
    });
    first.kill('SIGSTOP');
    await new Promise((resolve) => setTimeout(resolve, 300)); // a heartbeat in flight lands
    const [lease] = await queryRows<{ expires_ms: number }>(database.db, sql`select extract(epoch from lease_expires_at) * 1000 as expires_ms from schedule_runs`);
    const expiresMs = Number(lease!.expires_ms);
    await new Promise((resolve) => setTimeout(resolve, expiresMs - 300 - Date.now()));
    first.kill('SIGKILL');
    // Reconcile like another replica, every 50 ms, until the run is retryable: at that instant
    // the job of attempt 1 must be dead.
    let aliveWhenRetryable: boolean | undefined;
    await waitFor('the stalled run to be resolved', async () => {
      const alive = isAlive(jobPid);
      const { stalled } = await runReconcileTick(database, { nowMs: Date.now(), runnerSilenceMs: 60_000 });
      if (stalled === 0) return undefined;
      aliveWhenRetryable = alive || isAlive(jobPid);
      return true;
    }, 20_000);
    expect(aliveWhenRetryable).toBe(false);
    expect(Date.now()).toBeGreaterThan(expiresMs + 1_500);
    startRunner();
    const saw = await waitFor('attempt 2 to run', async () => {
      const file = path.join(dir, 'attempt-2.saw');
      // Read until written: writeFileSync creates the file empty before it writes.
      return existsSync(file) ? readFileSync(file, 'utf8') || undefined : undefined;
    });
    expect(saw).toBe('attempt 1 dead');
  }, 150_000);

  it('stops a job the reaper spawned for its runner when the runner is killed', async () => {
    // The real JobReaper and executor of the build: once the reaper's process spawns the jobs
    // (launch), a job that hangs is started through it, and the runner process dies of SIGKILL.
    const pidsFile = path.join(scratch, 'launched.pids');
    const parent = `
      const fs = require('node:fs');
      const dist = ${JSON.stringify(path.join(repoRoot, 'dist', 'runner'))};
      Promise.all([import(dist + '/job-reaper.js'), import(dist + '/executors/execute-job.js')]).then(([{ JobReaper }, { executeJob }]) => {
        const reaper = new JobReaper();
        reaper.start(500);
        reaper.markJob();
        const ready = setInterval(() => {
          if (!reaper.launchesJobs) return;
          clearInterval(ready);
          const script = 'require("node:fs").writeFileSync(process.argv[1], process.pid + " " + process.ppid); setInterval(() => {}, 1000)';
          const job = { type: 'command', command: [process.execPath, '-e', script, ${JSON.stringify(pidsFile)}], cwd: '.', env: {} };
          const context = { runId: 1, schedule: 's', scheduledFor: new Date().toISOString(), businessDate: null, idempotencyKey: 'k', attempt: 1, trigger: 'MANUAL', payload: null };
          void executeJob(job, context, { timeoutMs: 600_000, env: { PATH: process.env.PATH }, baseDir: ${JSON.stringify(scratch)}, processGroups: reaper });
          const started = setInterval(() => {
            if (!fs.existsSync(${JSON.stringify(pidsFile)}) || fs.readFileSync(${JSON.stringify(pidsFile)}, 'utf8') === '') return;
            clearInterval(started);
            fs.appendFileSync(${JSON.stringify(pidsFile)}, ' ' + reaper.pid);
            process.kill(process.pid, 'SIGKILL');
          }, 10);
        }, 10);
      });`;
    const child = spawn(process.execPath, ['-e', parent], { stdio: 'ignore' });
    await new Promise((resolve) => child.once('exit', resolve));
    const [job, jobParent, reaperPid] = readFileSync(pidsFile, 'utf8').split(' ').map(Number) as [number, number, number];
    try {
      expect(jobParent).toBe(reaperPid);
      await waitFor('the launched job to be stopped', async () => (isAlive(job) ? undefined : true), 10_000);
    } finally {
      try {
        process.kill(-job, 'SIGKILL');
      } catch {
        // gone
      }
    }
  }, 30_000);

  it('stops a job its runner was killed while spawning (never reported to the reaper)', async () => {
    // The real JobReaper of the build, in a process that starts a marked job without reporting
    // its group (as when SIGKILL lands inside spawn()), and an unmarked one, then dies.
    const pidsFile = path.join(scratch, 'spawn-window.pids');
    const parent = `
      const { spawn } = require('node:child_process');
      import(${JSON.stringify(path.join(repoRoot, 'dist', 'runner', 'job-reaper.js'))}).then(({ JobReaper }) => {
        const reaper = new JobReaper();
        reaper.start(500);
        setTimeout(() => {
          const env = { PATH: process.env.PATH };
          const marked = spawn('/bin/sh', ['-c', 'sleep 600 & wait'], { detached: true, stdio: 'ignore', env: { ...env, ...reaper.markJob() } });
          const other = spawn('/bin/sh', ['-c', 'sleep 600'], { detached: true, stdio: 'ignore', env });
          require('node:fs').writeFileSync(${JSON.stringify(pidsFile)}, marked.pid + ' ' + other.pid);
          process.kill(process.pid, 'SIGKILL');
        }, 500);
      });`;
    const child = spawn(process.execPath, ['-e', parent], { stdio: 'ignore' });
    await new Promise((resolve) => child.once('exit', resolve));
    const [marked, other] = readFileSync(pidsFile, 'utf8').split(' ').map(Number) as [number, number];
    try {
      await waitFor('the unreported job to be stopped', async () => (isAlive(marked) ? undefined : true), 10_000);
      // Only this runner's jobs: a process without its marker is left alone.
      expect(isAlive(other)).toBe(true);
    } finally {
      for (const group of [marked, other]) {
        try {
          process.kill(-group, 'SIGKILL');
        } catch {
          // gone
        }
      }
    }
  }, 30_000);
});

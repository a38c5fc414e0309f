/**
 * cronform behind a real PgBouncer, in session mode and in transaction mode (docs/postgres.md):
 * migrate (two at once), apply, plan, trigger and a runner process executing the run, all through
 * the pooler; in transaction mode the runner LISTENs on a direct connection (`--listen-url`),
 * because notifications through the pooler are lost, which `checkNotificationsArrive` detects.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { checkNotificationsArrive, openDatabase, queryRows, type Database } from '../../src/db/client.js';
import { migrateDatabase, readSchemaStatus } from '../../src/db/migrate.js';
import { createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../support/databases.js';
import { startPgbouncer, type Pgbouncer, type PoolMode } from '../support/pgbouncer.js';
import { repoRoot } from '../support/run-command.js';
import { scheduleManifest } from '../support/apply-manifests.js';
import { waitFor } from '../support/processes.js';

const cli = path.join(repoRoot, 'bin', 'run.js');

function runCli(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd, env: { ...process.env, DATABASE_URL: '', NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.runIf(postgresServerUrl).each<PoolMode>(['session', 'transaction'])('behind PgBouncer in %s mode', (poolMode) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  }, 60_000);

  it('migrates, applies, plans, triggers and runs a job through the pooler', async () => {
    const server: TestPostgres = await createPostgresDatabase({ migrated: false });
    cleanups.push(() => server.drop());
    const bouncer: Pgbouncer = await startPgbouncer(server.url, poolMode);
    cleanups.push(() => bouncer.stop());
    const pooledUrl = bouncer.urlFor(server.url);
    const open = async (options: { listenUrl?: string } = {}): Promise<Database> => {
      const database = await openDatabase({ url: pooledUrl, maxConnections: 3, ...options });
      cleanups.push(() => database.close());
      return database;
    };

    // Two migrations at once through the pooler: one applies everything, the other finds nothing.
    const [first, second] = await Promise.all([open(), open()]);
    const results = await Promise.all([migrateDatabase(first), migrateDatabase(second)]);
    const status = await readSchemaStatus(first);
    expect(status.upToDate).toBe(true);
    expect(results.map((result) => result.appliedNow.length).sort((a, b) => a - b)).toEqual([0, status.expected]);
    const [locks] = await queryRows<{ held: number }>(first.db, sql`select count(*)::int as held from pg_locks where locktype = 'advisory'`);
    expect(locks?.held).toBe(0);

    // Notifications: through a transaction-mode pooler they are lost, and the probe says so.
    expect(await checkNotificationsArrive(first, 2_000)).toBe(poolMode === 'session');
    expect(await checkNotificationsArrive(await open({ listenUrl: server.url }), 5_000)).toBe(true);

    const repo = mkdtempSync(path.join(tmpdir(), 'cronform-pgbouncer-repo-'));
    cleanups.push(async () => rmSync(repo, { recursive: true, force: true }));
    mkdirSync(path.join(repo, 'schedules'));
    const marker = path.join(repo, 'ran.txt');
    const script = `require('fs').writeFileSync(${JSON.stringify(marker)}, process.env.CRONFORM_RUN_ID)`;
    writeFileSync(path.join(repo, 'schedules', 'pooled.yaml'), scheduleManifest('pooled', { cron: '0 0 1 1 *', job: { type: 'command', command: [process.execPath, '-e', script] } }));

    const apply = await runCli(['apply', '--auto-approve', '--dir', 'schedules', '--database-url', pooledUrl, '--actor', 'test'], repo);
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    const plan = await runCli(['plan', '--dir', 'schedules', '--database-url', pooledUrl, '--detailed-exitcode'], repo);
    expect(plan.code).toBe(0);

    const listenArgs = poolMode === 'transaction' ? ['--listen-url', server.url] : [];
    const runner: ChildProcess = spawn(process.execPath, [cli, 'runner', '--database-url', pooledUrl, ...listenArgs, '--lease', '5s', '--base-dir', repo], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CRONFORM_LOG_LEVEL: 'warn' } });
    let runnerLog = '';
    runner.stderr?.on('data', (chunk: Buffer) => (runnerLog += chunk.toString()));
    cleanups.push(async () => {
      if (runner.exitCode !== null) return;
      const exited = new Promise((resolve) => runner.once('exit', resolve));
      runner.kill('SIGTERM');
      await exited;
    });

    const trigger = await runCli(['trigger', 'pooled', '--database-url', pooledUrl, '--json'], repo);
    expect(trigger.code).toBe(0);
    const runId = String((JSON.parse(trigger.stdout) as { runId: number }).runId);
    await waitFor('the triggered run to succeed', async () => {
      const [row] = await queryRows<{ status: string }>(first.db, sql`select status from schedule_runs where id = ${Number(runId)}`);
      return row?.status === 'SUCCESS' ? row : undefined;
    });
    expect(existsSync(marker) && readFileSync(marker, 'utf8')).toBe(runId);
    expect(runnerLog).not.toMatch(/NOTIFY/);

    // Without --listen-url behind a transaction-mode pooler, a runner says what to do.
    if (poolMode === 'transaction') {
      const deaf: ChildProcess = spawn(process.execPath, [cli, 'runner', '--database-url', pooledUrl, '--lease', '5s', '--base-dir', repo], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CRONFORM_LOG_LEVEL: 'warn' } });
      let deafLog = '';
      deaf.stderr?.on('data', (chunk: Buffer) => (deafLog += chunk.toString()));
      cleanups.push(async () => {
        if (deaf.exitCode !== null) return;
        const exited = new Promise((resolve) => deaf.once('exit', resolve));
        deaf.kill('SIGTERM');
        await exited;
      });
      await waitFor('the runner to warn that notifications are lost', () => (/--listen-url/.test(deafLog) ? true : undefined), 30_000);
      expect(deafLog).toMatch(/PgBouncer pool_mode=transaction/);
      // The runner with a direct LISTEN connection never warned (its probe ended long since).
      expect(runnerLog).not.toMatch(/NOTIFY/);
    }
  }, 120_000);
});

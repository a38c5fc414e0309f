/**
 * plan reads the database on a worker thread (stored-state-reader.ts), which also tallies the
 * stored totals and finds the herds, and runs compiled JavaScript: this runs the built CLI's plan
 * (`npm run build` first) against embedded PGlite and against PostgreSQL and checks that its plan
 * is the one planAgainstDatabase makes in-process, from the same database at the same instant, byte
 * for byte. The database under it starts from the run's migrated image or template and is filled by
 * an in-process apply: only the plan is the built CLI's.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isDistStale } from '../../bench/shared/built-dist.js';
import ApplyCommand from '../../src/commands/apply.js';
import { DEFAULT_DATA_DIR } from '../../src/db/client.js';
import { withDatabase } from '../../src/operations/database.js';
import { loadDesired, planAgainstDatabase } from '../../src/operations/plan.js';
import { parsePlanJson, renderPlanJson } from '../../src/plan/render-json.js';
import { scheduleSource } from './plan-apply-manifests.js';
import { createPostgresDatabase, postgresServerUrl, seedEmbeddedDatabase, type TestPostgres } from '../support/databases.js';
import { inWorkingDirectory, runCommand } from '../support/run-command.js';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'run.js');

function runCli(cwd: string, args: string[], databaseUrl?: string): { status: number | null; stdout: string; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  return spawnSync(process.execPath, [CLI, ...args], { cwd, env, encoding: 'utf8' });
}

/** Applies a few schedules (a herd of twelve among them), changes some, and compares the CLI's plan with the in-process one. */
async function expectSamePlanAsInProcess(workspace: string, write: (name: string, spec?: Record<string, unknown>) => void, databaseUrl?: string): Promise<void> {
  const herd = Array.from({ length: 12 }, (_, i) => `herd-${i}`);
  for (const name of ['billing-sync', 'nightly-report', 'old-cleanup', 'hourly-probe', ...herd]) write(name, name.startsWith('herd-') ? { cron: '0 4 * * *' } : {});
  if (!databaseUrl) await seedEmbeddedDatabase(path.join(workspace, DEFAULT_DATA_DIR));
  const applied = await inWorkingDirectory(workspace, () => runCommand(ApplyCommand, ['--auto-approve', ...(databaseUrl ? ['--database-url', databaseUrl] : [])]));
  expect(applied.exitCode, applied.message).toBe(0);
  write('nightly-report', { cron: '30 4 * * *', timezone: 'Europe/Berlin' });
  write('hourly-probe', { cron: '0 * * * *', timeout: '2h' });
  write('new-export', { cron: '*/15 * * * *' });
  write('herd-3', { cron: '0 4 * * *', timeout: '5m' });
  unlinkSync(path.join(workspace, 'schedules', 'old-cleanup.yaml'));

  const result = runCli(workspace, ['plan', '--format', 'json', '--detailed-exitcode'], databaseUrl);
  expect(result.status, result.stderr).toBe(2);
  const fromCli = parsePlanJson(result.stdout);
  expect(fromCli.changes.map((c) => `${c.action} ${c.name}`).sort()).toEqual(['archive old-cleanup', 'create new-export', 'update herd-3', 'update hourly-probe', 'update nightly-report']);
  expect(fromCli.changes.find((c) => c.name === 'herd-3')!.findings.map((f) => f.code)).toContain('CF105');
  expect(fromCli.against).toEqual({ kind: 'database', engine: databaseUrl ? 'postgres' : 'pglite' });

  const nowMs = Date.parse(fromCli.createdAt);
  const choice = { cwd: workspace, env: databaseUrl ? { DATABASE_URL: databaseUrl } : {} };
  const desired = await loadDesired({ dir: 'schedules', cwd: workspace, nowMs });
  const inProcess = await withDatabase(choice, (database) => planAgainstDatabase(database, desired, { nowMs }));
  expect(renderPlanJson(fromCli)).toBe(renderPlanJson(inProcess));
}

describe('plan on embedded PGlite and on PostgreSQL, built CLI', () => {
  beforeAll(() => {
    const entry = path.join(path.dirname(CLI), '..', 'dist', 'operations', 'stored-state-worker.js');
    if (!existsSync(entry) || isDistStale(path.resolve(path.dirname(CLI), '..'), entry)) throw new Error('dist/ is missing or older than src/: run `npm run build` (this test runs the built CLI and its worker)');
  });

  let workspace = '';
  const write = (name: string, spec: Record<string, unknown> = {}) => writeFileSync(path.join(workspace, 'schedules', `${name}.yaml`), scheduleSource(name, { spec }).text);

  beforeEach(() => {
    workspace = mkdtempSync(path.join(tmpdir(), 'cronform-plan-cli-'));
    mkdirSync(path.join(workspace, 'schedules'));
  });
  afterEach(() => rmSync(workspace, { recursive: true, force: true }));

  it('makes the plan planAgainstDatabase makes in-process', async () => {
    await expectSamePlanAsInProcess(workspace, write);
  }, 60_000);

  it('reports a database it cannot open after the compile, as before', () => {
    write('billing-sync');
    writeFileSync(path.join(workspace, '.cronform'), 'a file where the data directory should be');
    const result = runCli(workspace, ['plan']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/EEXIST|ENOTDIR|not a directory|file already exists/i);
  }, 60_000);

  it('reports a PostgreSQL server it cannot reach with the driver\'s error code', () => {
    write('billing-sync');
    const result = runCli(workspace, ['plan'], 'postgres://postgres@127.0.0.1:1/nowhere');
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/connect ECONNREFUSED/);
    expect(result.stderr).toMatch(/Code: ECONNREFUSED/);
  }, 60_000);

  describe.runIf(postgresServerUrl)('against PostgreSQL', () => {
    let postgres: TestPostgres | undefined;
    afterEach(async () => {
      await postgres?.drop();
      postgres = undefined;
    });

    it('makes the plan planAgainstDatabase makes in-process', async () => {
      postgres = await createPostgresDatabase();
      await expectSamePlanAsInProcess(workspace, write, postgres.url);
    }, 60_000);

    it('reports a missing database as the server does (SQLSTATE and the driver\'s error name)', () => {
      write('billing-sync');
      const url = new URL(postgresServerUrl!);
      url.pathname = '/cronform_no_such_database';
      const result = runCli(workspace, ['plan'], url.toString());
      expect(result.status).not.toBe(0);
      expect(result.stderr).toMatch(/error: database "cronform_no_such_database" does not exist/);
      expect(result.stderr).toMatch(/Code: 3D000/);
    }, 60_000);
  });
});

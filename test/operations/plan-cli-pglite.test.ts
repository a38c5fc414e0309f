/**
 * plan against embedded PGlite reads the database on a worker thread (stored-state-reader.ts),
 * which runs compiled JavaScript: this runs the built CLI (`npm run build` first) and checks that
 * its plan is the one planAgainstDatabase makes in-process, from the same database at the same
 * instant, byte for byte.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withDatabase } from '../../src/operations/database.js';
import { loadDesired, planAgainstDatabase } from '../../src/operations/plan.js';
import { parsePlanJson, renderPlanJson } from '../../src/plan/render-json.js';
import { scheduleSource } from './plan-apply-manifests.js';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'run.js');

function runCli(cwd: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.DATABASE_URL;
  return spawnSync(process.execPath, [CLI, ...args], { cwd, env, encoding: 'utf8' });
}

describe('plan on embedded PGlite, built CLI', () => {
  let workspace = '';
  const write = (name: string, spec: Record<string, unknown> = {}) => writeFileSync(path.join(workspace, 'schedules', `${name}.yaml`), scheduleSource(name, { spec }).text);

  beforeEach(() => {
    workspace = mkdtempSync(path.join(tmpdir(), 'cronform-plan-cli-'));
    mkdirSync(path.join(workspace, 'schedules'));
  });
  afterEach(() => rmSync(workspace, { recursive: true, force: true }));

  it('makes the plan planAgainstDatabase makes in-process', async () => {
    for (const name of ['billing-sync', 'nightly-report', 'old-cleanup', 'hourly-probe']) write(name);
    expect(runCli(workspace, ['apply', '--auto-approve']).status).toBe(0);
    write('nightly-report', { cron: '30 4 * * *', timezone: 'Europe/Berlin' });
    write('hourly-probe', { cron: '0 * * * *', timeout: '2h' });
    write('new-export', { cron: '*/15 * * * *' });
    unlinkSync(path.join(workspace, 'schedules', 'old-cleanup.yaml'));

    const result = runCli(workspace, ['plan', '--format', 'json', '--detailed-exitcode']);
    expect(result.status, result.stderr).toBe(2);
    const fromCli = parsePlanJson(result.stdout);
    expect(fromCli.changes.map((c) => `${c.action} ${c.name}`).sort()).toEqual(['archive old-cleanup', 'create new-export', 'update hourly-probe', 'update nightly-report']);

    const nowMs = Date.parse(fromCli.createdAt);
    const choice = { cwd: workspace, env: {} };
    const desired = await loadDesired({ dir: 'schedules', cwd: workspace, nowMs });
    const inProcess = await withDatabase(choice, (database) => planAgainstDatabase(database, desired, { nowMs }));
    expect(renderPlanJson(fromCli)).toBe(renderPlanJson(inProcess));
  }, 60_000);

  it('reports a database it cannot open after the compile, as before', () => {
    write('billing-sync');
    writeFileSync(path.join(workspace, '.cronform'), 'a file where the data directory should be');
    const result = runCli(workspace, ['plan']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/EEXIST|ENOTDIR|not a directory|file already exists/i);
  }, 60_000);
});

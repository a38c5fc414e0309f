/**
 * The exit codes of the built CLI (`npm run build` first), as CI sees them. A usage error (an
 * unknown flag, a value not among a flag's options, a missing argument, an unknown command) exits
 * 1: oclif's default, 2, is what `plan --detailed-exitcode` means by "changes present", so a typo
 * in a CI flag would read as changes. Plan's own 2 and 3 stay as they are.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDistStale } from '../../bench/shared/built-dist.js';
import { DEFAULT_DATA_DIR } from '../../src/db/client.js';
import { parsePlanJson } from '../../src/plan/render-json.js';
import { scheduleSource } from '../operations/plan-apply-manifests.js';
import { seedEmbeddedDatabase } from '../support/databases.js';
import { repoRoot } from '../support/run-command.js';

const CLI = path.join(repoRoot, 'bin', 'run.js');

function runCli(cwd: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.DATABASE_URL;
  return spawnSync(process.execPath, [CLI, ...args], { cwd, env, encoding: 'utf8' });
}

let workspace = '';

beforeAll(async () => {
  const entry = path.join(repoRoot, 'dist', 'commands', 'cronform-command.js');
  if (!existsSync(entry) || isDistStale(repoRoot, entry)) throw new Error('dist/ is missing or older than src/: run `npm run build` (this test runs the built CLI)');
  workspace = mkdtempSync(path.join(tmpdir(), 'cronform-exit-codes-'));
  mkdirSync(path.join(workspace, 'schedules'));
  // The plan runs below need a migrated embedded database, not the first-use migration.
  await seedEmbeddedDatabase(path.join(workspace, DEFAULT_DATA_DIR));
  // A new schedule whose timeout outlasts its interval while runs may overlap: a change, and a HIGH finding (CF501).
  writeFileSync(path.join(workspace, 'schedules', 'probe.yaml'), scheduleSource('probe', { spec: { cron: '*/5 * * * *', timeout: '10m', overlap: 'ALLOW' } }).text);
});
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

describe('usage errors exit 1 with oclif\'s message', () => {
  it.each([
    { name: 'a value not among the options', args: ['plan', '--fail-on', 'hihg', '--detailed-exitcode'], message: 'Expected --fail-on=hihg to be one of: medium, high' },
    { name: 'an unknown flag', args: ['plan', '--nope', '--detailed-exitcode'], message: 'Nonexistent flag: --nope' },
    { name: 'a missing argument', args: ['trigger'], message: 'Missing 1 required arg' },
    { name: 'an argument too many', args: ['trigger', 'probe', 'extra'], message: 'Unexpected argument: extra' },
    { name: 'a flag value that does not parse', args: ['preview', 'probe', '--count', 'many'], message: 'Expected an integer but received: many' },
    { name: 'flags that exclude each other', args: ['github', 'comment', '--plan', 'a.json', '--body-file', 'b.md'], message: '--body-file=b.md cannot also be provided when using --plan' },
    { name: 'an unknown command', args: ['nosuchcommand'], message: 'command nosuchcommand not found' },
    { name: 'an unknown command of a topic', args: ['github', 'nosuch'], message: 'command github:nosuch not found' },
  ])('$name: $args', ({ args, message }) => {
    const result = runCli(workspace, args);
    expect(result.stderr).toContain(message);
    expect(result.status).toBe(1);
  }, 30_000);
});

describe('plan keeps its own exit codes', () => {
  it('exits 2 with changes and --detailed-exitcode, and prints the plan under --json', () => {
    const result = runCli(workspace, ['plan', '--detailed-exitcode', '--json']);
    expect(result.status, result.stderr).toBe(2);
    // A plan file as --format json writes it: apply could read it back.
    expect(parsePlanJson(result.stdout).changes.map((c) => `${c.action} ${c.name}`)).toEqual(['create probe']);
  }, 60_000);

  it('exits 3 with --fail-on high when a finding is HIGH, risk before changes', () => {
    const result = runCli(workspace, ['plan', '--fail-on', 'high', '--detailed-exitcode']);
    expect(result.stdout).toContain('[HIGH] CF501');
    expect(result.status, result.stderr).toBe(3);
  }, 60_000);
});

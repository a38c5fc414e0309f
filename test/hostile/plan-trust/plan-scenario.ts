/**
 * One plan scenario through the real `plan` command, in-process: base manifests committed in a
 * scratch git repository, head manifests in its working tree, planned with `--against-ref HEAD`
 * (no database needed: the attacks are in what the plan shows and how it judges).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import PlanCommand from '../../../src/commands/plan.js';
import { inWorkingDirectory, runCommand } from '../../support/run-command.js';

export type Manifests = Record<string, Record<string, unknown>>;

/** A Schedule manifest: metadata.name, and spec with test defaults under `spec`. */
export function schedule(name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'cronform/v1',
    kind: 'Schedule',
    metadata: { name, ...metadata },
    spec: { cron: '0 3 * * *', timezone: 'UTC', job: { type: 'command', command: ['node', 'jobs/report.js'] }, ...spec },
  };
}

function writeManifests(dir: string, manifests: Manifests): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [name, manifest] of Object.entries(manifests)) writeFileSync(path.join(dir, `${name}.yaml`), stringify(manifest));
}

export interface PlanRun {
  exitCode: number;
  stdout: string;
  message: string;
}

/** Plans `head` against `base` once per argv; each argv gets `--against-ref HEAD`. */
export async function planScenario(base: Manifests, head: Manifests, argvs: string[][]): Promise<PlanRun[]> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'cronform-plan-trust-'));
  try {
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: scratch, stdio: 'pipe' });
    git('init', '-q');
    writeManifests(path.join(scratch, 'schedules'), base);
    // An empty base still needs a commit for HEAD to exist.
    writeFileSync(path.join(scratch, '.keep'), '');
    git('add', '-A');
    git('commit', '-q', '-m', 'base');
    writeManifests(path.join(scratch, 'schedules'), head);
    const runs: PlanRun[] = [];
    for (const argv of argvs) {
      const result = await inWorkingDirectory(scratch, () => runCommand(PlanCommand, ['--against-ref', 'HEAD', ...argv]));
      runs.push({ exitCode: result.exitCode, stdout: result.stdout, message: result.message });
    }
    return runs;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

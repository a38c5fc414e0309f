/**
 * A scratch repository for the plan-trust attacks: manifests under `schedules/`, an embedded
 * PGlite seeded from the run's migrated image, and the real `apply` and `plan` commands run
 * in-process in it (runCommand), as CI would run them.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ApplyCommand from '../../../src/commands/apply.js';
import PlanCommand from '../../../src/commands/plan.js';
import { DEFAULT_DATA_DIR } from '../../../src/db/client.js';
import { seedEmbeddedDatabase } from '../../support/databases.js';
import { inWorkingDirectory, runCommand } from '../../support/run-command.js';

export class PlanTrustWorkspace {
  private constructor(readonly dir: string) {}

  static async create(): Promise<PlanTrustWorkspace> {
    const dir = mkdtempSync(path.join(tmpdir(), 'cronform-plan-trust-'));
    mkdirSync(path.join(dir, 'schedules'));
    await seedEmbeddedDatabase(path.join(dir, DEFAULT_DATA_DIR));
    return new PlanTrustWorkspace(dir);
  }

  write(file: string, text: string): void {
    writeFileSync(path.join(this.dir, 'schedules', file), text);
  }

  /** The reviewed state of main: applied as the apply workflow would. */
  async apply(): Promise<void> {
    const result = await inWorkingDirectory(this.dir, () => runCommand(ApplyCommand, ['--auto-approve', '--actor', 'ci', '--reason', 'reviewed']));
    if (result.exitCode !== 0) throw new Error(`apply failed (${result.exitCode}): ${result.message}${result.stderr}`);
  }

  plan(args: string[]) {
    return inWorkingDirectory(this.dir, () => runCommand(PlanCommand, ['--dir', 'schedules', ...args]));
  }

  /** `apply <file>` as an operator would run it on a saved plan. */
  applyFile(file: string) {
    return inWorkingDirectory(this.dir, () => runCommand(ApplyCommand, [file, '--auto-approve', '--actor', 'ops', '--reason', 'saved plan']));
  }

  path(file: string): string {
    return path.join(this.dir, file);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export function schedule(name: string, spec: string, metadata = ''): string {
  return `apiVersion: cronform/v1\nkind: Schedule\nmetadata:\n  name: ${name}\n${metadata}spec:\n${spec}`;
}

export function policy(spec: string): string {
  return `apiVersion: cronform/v1\nkind: Policy\nmetadata:\n  name: default\nspec:\n${spec}`;
}

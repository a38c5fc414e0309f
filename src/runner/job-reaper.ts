/**
 * Starts `bin/job-reaper.js` beside the runner (see that file for why) and reports job process
 * groups to it. If the reaper cannot start, jobs still run; the risk (orphans after a SIGKILL of
 * the runner) is logged once, never hidden.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProcessGroupRegistry } from './executors/execute-options.js';

/** Both `src/runner` and `dist/runner` sit two levels below the package root. */
const REAPER_SCRIPT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'job-reaper.js');

export class JobReaper implements ProcessGroupRegistry {
  private child: ChildProcess | undefined;

  start(killGraceMs: number): void {
    if (process.platform === 'win32') return;
    // Detached: Ctrl-C in a terminal signals the runner's group, not the reaper.
    this.child = spawn(process.execPath, [REAPER_SCRIPT, String(killGraceMs)], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
    this.child.on('error', () => {
      this.child = undefined;
    });
    this.child.stdin?.on('error', () => undefined);
    this.child.unref();
    (this.child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  add(groupId: number): void {
    this.child?.stdin?.write(`+${groupId}\n`);
  }

  remove(groupId: number): void {
    this.child?.stdin?.write(`-${groupId}\n`);
  }

  /** A clean stop: nothing is left to kill, so the reaper just exits. */
  stop(): void {
    this.child?.stdin?.end();
    this.child = undefined;
  }
}

/**
 * Starts `bin/job-reaper.js` beside the runner (see that file for why) and reports job process
 * groups to it. The reaper is what stops the jobs of a runner killed with SIGKILL before the
 * reconciler of another replica may retry them (policy/lease.ts, stallResolvableAtMs), so it is
 * watched: a reaper that could not start or that exits while the runner runs is reported and
 * started again, with every group still running re-registered. If it cannot run at all, jobs
 * still run; the risk (orphans after a SIGKILL of the runner) is logged, never hidden.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProcessGroupRegistry } from './executors/execute-options.js';

/** Both `src/runner` and `dist/runner` sit two levels below the package root. */
const REAPER_SCRIPT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'job-reaper.js');
/** A reaper that keeps dying is restarted at most this often. */
const RESTART_AFTER_MS = 1_000;

/** The variable that marks a job as started by one runner process (see ProcessGroupRegistry.jobMarker). */
export const RUNNER_MARKER_ENV = 'CRONFORM_RUNNER_TOKEN';

export class JobReaper implements ProcessGroupRegistry {
  private child: ChildProcess | undefined;
  /** Unique to this runner process, so a reaper never touches another runner's jobs. */
  private readonly token = randomUUID();
  private readonly jobMarker: Readonly<Record<string, string>> = { [RUNNER_MARKER_ENV]: this.token };
  /** The groups of the jobs running now: re-registered with a restarted reaper. */
  private readonly groups = new Set<number>();
  private killGraceMs = 0;
  private report: (problem: string) => void = () => {};
  private stopped = true;
  private lastStartMs = Number.NEGATIVE_INFINITY;
  private restartTimer: NodeJS.Timeout | undefined;
  /** Lines for the reaper, written at the next turn of the event loop (tell). */
  private pendingLines = '';
  private flushScheduled: NodeJS.Immediate | undefined;

  /**
   * Arms the reaper; its process starts with the first command job (markJob), not here: a runner
   * that runs only http or queue jobs never needs one, and a process per runner start was ~0.1 s
   * of CPU in the window where a new replica should be taking work (bench/README.md, "Runners
   * that add up"). The job is spawned after the reaper, so the guarantee is the same: a reaper
   * still starting reads the end of its input when the runner dies, whenever it gets to it.
   */
  start(killGraceMs: number, report?: (problem: string) => void): void {
    if (process.platform === 'win32') return;
    this.killGraceMs = killGraceMs;
    if (report) this.report = report;
    this.stopped = false;
  }

  markJob(): Readonly<Record<string, string>> {
    // A restart after the reaper was lost is the restart timer's; a job started meanwhile is
    // still marked, and registered with the reaper when it comes back.
    if (!this.stopped && this.child === undefined && this.restartTimer === undefined) this.spawnReaper();
    return this.jobMarker;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  add(groupId: number): void {
    this.groups.add(groupId);
    this.tell(`+${groupId}\n`);
  }

  remove(groupId: number): void {
    this.groups.delete(groupId);
    this.tell(`-${groupId}\n`);
  }

  /**
   * Lines go out together once per turn of the event loop: a write per line is a system call and
   * a wake-up of the reaper per job start and end. A job the reaper has not been told of yet is
   * still found by its marker (jobMarker), as one whose runner died inside spawn() is.
   */
  private tell(line: string): void {
    this.pendingLines += line;
    this.flushScheduled ??= setImmediate(() => {
      this.flushScheduled = undefined;
      const lines = this.pendingLines;
      this.pendingLines = '';
      if (lines !== '') this.child?.stdin?.write(lines);
    });
  }

  /** A clean stop: nothing is left to kill, so the reaper just exits (it stops any group still listed). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    clearImmediate(this.flushScheduled);
    this.flushScheduled = undefined;
    const lines = this.pendingLines;
    this.pendingLines = '';
    this.child?.stdin?.end(lines);
    this.child = undefined;
  }

  private spawnReaper(): void {
    this.lastStartMs = Date.now();
    // Detached: Ctrl-C in a terminal signals the runner's group, not the reaper.
    const child = spawn(process.execPath, [REAPER_SCRIPT, String(this.killGraceMs), `${RUNNER_MARKER_ENV}=${this.token}`], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
    this.child = child;
    const lost = (why: string): void => {
      if (this.child !== child) return;
      this.child = undefined;
      if (this.stopped) return;
      this.report(`job reaper ${why}: the jobs of this runner would outlive a SIGKILL of it; starting it again`);
      // Real time: this watches a real process (the runner's clock may be a test's manual one).
      this.restartTimer = setTimeout(() => {
        this.restartTimer = undefined;
        if (!this.stopped && this.child === undefined) this.spawnReaper();
      }, Math.max(0, this.lastStartMs + RESTART_AFTER_MS - Date.now()));
      this.restartTimer.unref();
    };
    child.on('error', (error) => lost(`could not start (${(error as NodeJS.ErrnoException).code ?? error.message})`));
    child.on('exit', (code, signal) => lost(`exited (${signal ?? `code ${code}`})`));
    child.stdin?.on('error', () => undefined);
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    // Registered before any new job can be: groups of jobs that started while no reaper ran.
    if (this.groups.size > 0) child.stdin?.write([...this.groups].map((group) => `+${group}\n`).join(''));
  }
}

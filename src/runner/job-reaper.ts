/**
 * Starts `bin/job-reaper.js` beside the runner (see that file for why) and reports job process
 * groups to it. The reaper is what stops the jobs of a runner killed with SIGKILL before the
 * reconciler of another replica may retry them (policy/lease.ts, stallResolvableAtMs), so it is
 * watched: a reaper that could not start or that exits while the runner runs is reported and
 * started again, with every group still running re-registered. If it cannot run at all, jobs
 * still run; the risk (orphans after a SIGKILL of the runner) is logged, never hidden.
 *
 * The reaper's process also spawns the command jobs (launch). Node forks the whole process to
 * spawn one, and the fork of the runner, its heap written between forks, cost more than the job
 * itself; the reaper's process is small and writes little. The runner still times, signals and
 * watches each job's group itself; the reaper reports the pid, the leader's exit and the last
 * bytes of each output stream. While no reaper runs, jobs are spawned by the runner as before.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { ProcessGroupRegistry } from './executors/execute-options.js';
import { launchInProcess, type JobLauncher, type LaunchHandlers } from './executors/job-launch.js';
import type { OutputTail } from './executors/output-tail.js';
import { findMarkedProcessGroups, signalProcessGroup } from './executors/process-group.js';

/** Both `src/runner` and `dist/runner` sit two levels below the package root. */
const REAPER_SCRIPT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'job-reaper.js');
/** A reaper that keeps dying is restarted at most this often. */
const RESTART_AFTER_MS = 1_000;

/** The variable that marks a job as started by one runner process (see ProcessGroupRegistry.jobMarker). */
export const RUNNER_MARKER_ENV = 'CRONFORM_RUNNER_TOKEN';

/** A job launched through the reaper's process, until its exit and its output have both been reported. */
interface Launch {
  tails: { stdout: OutputTail; stderr: OutputTail };
  handlers: LaunchHandlers;
  started: boolean;
  exited: boolean;
  outputClosed: boolean;
}

/** What the reaper's process reports of a job (bin/job-reaper.js), one JSON object a line. */
interface LaunchReport {
  /** The first line: the process is up and reads spawn requests (id 0). */
  ready?: true;
  id: number;
  pid?: number;
  error?: string;
  code?: number | null;
  signal?: NodeJS.Signals | null;
  /** Per stream: the bytes not kept, and the kept last bytes in base64. */
  out?: [number, string];
  err?: [number, string];
}

export class JobReaper implements ProcessGroupRegistry {
  private child: ChildProcess | undefined;
  /** The jobs launched through `child` and not yet done with; each process of the reaper has its own. */
  private launches = new Map<number, Launch>();
  /** The groups `child` spawned: it lists them itself, so they are not reported to it again (add). */
  private listedByChild = new Set<number>();
  /** Whether `child` has said it is ready: until then (Node's start-up, tens of ms) jobs are spawned here. */
  private launcherReady = false;
  private nextLaunchId = 0;
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

  /** Whether jobs are spawned by the reaper's process now (launch), not by this one. */
  get launchesJobs(): boolean {
    return !this.stopped && this.launcherReady && this.child !== undefined;
  }

  /**
   * Spawns the job from the reaper's process when it runs (markJob has started it), from this
   * process otherwise (no reaper on Windows, or while a lost one waits to be started again).
   */
  launch: JobLauncher = (command, tails, handlers) => {
    const child = this.child;
    if (this.stopped || !this.launcherReady || child?.pid === undefined || !child.stdin?.writable) return launchInProcess(command, tails, handlers);
    this.nextLaunchId += 1;
    const id = this.nextLaunchId;
    const launches = this.launches;
    launches.set(id, { tails, handlers, started: false, exited: false, outputClosed: false });
    // The reply keeps the runner alive while a job runs (the pipe is unref'd while none does).
    if (launches.size === 1) holdsRunner(child.stdout, true);
    const keep = [tails.stdout.ringBytes, tails.stderr.ringBytes];
    this.tell(`s${JSON.stringify({ id, argv: command.argv, cwd: command.cwd, env: command.env, keep })}\n`);
    return {
      closeOutput: () => {
        if (launches.get(id)?.outputClosed === false) this.tell(`c${id}\n`);
      },
    };
  };

  add(groupId: number): void {
    this.groups.add(groupId);
    if (!this.listedByChild.has(groupId)) this.tell(`+${groupId}\n`);
  }

  remove(groupId: number): void {
    this.groups.delete(groupId);
    this.listedByChild.delete(groupId);
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
    const child = spawn(process.execPath, [REAPER_SCRIPT, String(this.killGraceMs), `${RUNNER_MARKER_ENV}=${this.token}`], { stdio: ['pipe', 'pipe', 'ignore'], detached: true });
    this.child = child;
    const launches = new Map<number, Launch>();
    this.launches = launches;
    const listed = new Set<number>();
    this.listedByChild = listed;
    this.launcherReady = false;
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
    this.readReports(child, launches, listed);
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    holdsRunner(child.stdout, false);
    // Registered before any new job can be: groups of jobs that started while no reaper ran.
    if (this.groups.size > 0) child.stdin?.write([...this.groups].map((group) => `+${group}\n`).join(''));
  }

  /** SIGKILL to the groups that carry this runner's marker and that it never heard of. */
  private stopUnknownJobs(): void {
    for (const group of findMarkedProcessGroups(`${RUNNER_MARKER_ENV}=${this.token}`)) {
      if (!this.groups.has(group)) signalProcessGroup(group, 'SIGKILL');
    }
  }

  private readReports(child: ChildProcess, launches: Map<number, Launch>, listed: Set<number>): void {
    let pending = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('error', () => undefined);
    // The end of its reports (it exited, however): the exits and output of the jobs it launched
    // can no longer come, and their supervisors stop what is left of them.
    child.stdout?.once('close', () => {
      if (this.child === child) this.launcherReady = false;
      const unreported = [...launches.values()].some((launch) => !launch.started);
      for (const launch of launches.values()) launch.handlers.lost('job launcher exited');
      launches.clear();
      // A job it spawned but had not reported yet is failed above; if it runs, nobody would stop
      // it and a retry could overlap it. It carries this runner's marker and is the only marked
      // group this runner does not know (its own spawns are known once spawn() returns).
      if (unreported) this.stopUnknownJobs();
    });
    child.stdout?.on('data', (chunk: string) => {
      pending += chunk;
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 1);
        const report = JSON.parse(line) as LaunchReport;
        if (report.ready && this.child === child) this.launcherReady = true;
        else this.onReport(report, launches, listed);
      }
      if (launches.size === 0) holdsRunner(child.stdout, false);
    });
  }

  private onReport(report: LaunchReport, launches: Map<number, Launch>, listed: Set<number>): void {
    const launch = launches.get(report.id);
    if (launch === undefined) return;
    if (report.error !== undefined) {
      launches.delete(report.id);
      launch.handlers.failed(Object.assign(new Error(report.error), { code: report.error }));
      return;
    }
    if (report.pid !== undefined) {
      listed.add(report.pid);
      launch.started = true;
      launch.handlers.started(report.pid);
    }
    if (report.code !== undefined) {
      launch.exited = true;
      launch.handlers.exited(report.code, report.signal ?? null);
    }
    if (report.out !== undefined && report.err !== undefined) {
      for (const [tail, [skipped, kept]] of [[launch.tails.stdout, report.out], [launch.tails.stderr, report.err]] as const) {
        tail.skip(skipped);
        if (kept !== '') tail.write(Buffer.from(kept, 'base64'));
      }
      launch.outputClosed = true;
      launch.handlers.outputClosed();
    }
    if (launch.exited && launch.outputClosed) launches.delete(report.id);
  }
}

/** A child's pipes are sockets: ref'd, an open one keeps the event loop (the runner) alive. */
function holdsRunner(pipe: Readable | null, hold: boolean): void {
  const socket = pipe as unknown as Socket | null;
  if (hold) socket?.ref();
  else socket?.unref();
}

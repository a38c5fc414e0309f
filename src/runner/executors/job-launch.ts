import { spawn, type ChildProcess } from 'node:child_process';
import type { OutputTail } from './output-tail.js';

/** What starts a command job: argv without a shell, in its own process group (the group id is its pid). */
export interface JobCommand {
  argv: [string, ...string[]];
  cwd: string;
  env: Record<string, string>;
}

/**
 * What the supervisor of a job hears about its process, in this order: `started` or `failed`
 * (once), then `exited` (once) and `outputClosed` (once, after both streams ended and their
 * bytes were written to the tails), the last two in either order. `lost`, instead of what is
 * still missing, when whatever ran the process can no longer tell (the launcher process died).
 */
export interface LaunchHandlers {
  started(pid: number): void;
  failed(error: unknown): void;
  exited(code: number | null, signal: NodeJS.Signals | null): void;
  outputClosed(): void;
  lost(why: string): void;
}

export interface LaunchedJob {
  /** Stops reading the output (a process that left the group holds the pipes); outputClosed follows. */
  closeOutput(): void;
}

/** Starts `command`, its stdout and stderr going to the tails. */
export type JobLauncher = (command: JobCommand, tails: { stdout: OutputTail; stderr: OutputTail }, handlers: LaunchHandlers) => LaunchedJob;

/**
 * Spawns the job from this process. Node forks the whole process to spawn (libuv has no vfork on
 * Linux), which costs more the more memory the process has written: a runner hands its jobs to a
 * small launcher process instead when it has one (job-reaper.ts), and uses this when it has not.
 */
export const launchInProcess: JobLauncher = (command, tails, handlers) => {
  const [program, ...args] = command.argv;
  let child: ChildProcess;
  try {
    child = spawn(program, args, { cwd: command.cwd, env: command.env, shell: false, detached: true, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
  } catch (error) {
    queueMicrotask(() => handlers.failed(error));
    return { closeOutput: () => {} };
  }
  const stdoutPipe = child.stdout!;
  const stderrPipe = child.stderr!;
  // Output is best effort and a failed kill is followed by SIGKILL or the give-up timer: neither
  // may surface as an unhandled 'error' event, which would crash the runner.
  const ignoreError = (): void => {};
  stdoutPipe.on('error', ignoreError);
  stderrPipe.on('error', ignoreError);
  if (child.pid === undefined) {
    // The spawn failed; Node reports why on the next tick.
    child.once('error', (error) => {
      stdoutPipe.destroy();
      stderrPipe.destroy();
      handlers.failed(error);
    });
    return { closeOutput: () => {} };
  }
  child.on('error', ignoreError);
  let openPipes = 2;
  const onPipeClosed = (): void => {
    openPipes -= 1;
    if (openPipes === 0) handlers.outputClosed();
  };
  stdoutPipe.on('data', (chunk: Buffer) => tails.stdout.write(chunk));
  stderrPipe.on('data', (chunk: Buffer) => tails.stderr.write(chunk));
  stdoutPipe.once('close', onPipeClosed);
  stderrPipe.once('close', onPipeClosed);
  child.once('exit', (code, signal) => handlers.exited(code, signal));
  handlers.started(child.pid);
  return {
    closeOutput: () => {
      stdoutPipe.destroy();
      stderrPipe.destroy();
    },
  };
};

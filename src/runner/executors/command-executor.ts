import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CommandJobDefinition } from '../../compile/definition.js';
import type { ExecutionOutcome, RunContext } from '../run-types.js';
import type { ExecutorSettings } from './execute-options.js';
import { composeJobEnvironment } from './job-environment.js';
import { launchInProcess, type JobCommand } from './job-launch.js';
import { failedOutcome, stoppedError, stoppedStatus, type StopReason } from './job-outcome.js';
import { startTimer } from './long-timer.js';
import { OutputTail } from './output-tail.js';
import { PROGRESS_POLL_MS, ProgressChannel } from './progress-channel.js';
import { placeholderValues, substitutePlaceholders, type Prepared } from './placeholders.js';
import { hasProcessExited, isProcessGroupAlive, signalProcessGroup } from './process-group.js';
import { resolveValues } from './resolve-values.js';

/** How often the group is checked while waiting for its last members to die. */
const GROUP_POLL_MS = 25;
/** After SIGKILL a process dies at once unless stuck in the kernel (uninterruptible I/O); stop waiting then. */
const AFTER_KILL_WAIT_MS = 1000;
/** A process that left the group (setsid) may keep the output pipes open; stop reading after this. */
const OUTPUT_DRAIN_MS = 500;

/**
 * Runs argv without a shell as the leader of a new process group. The attempt ends when the
 * leader has exited and no process of its group is left: leftovers of a finished job are stopped
 * like a timed-out job (SIGTERM, SIGKILL after the grace), so nothing a job started outlives it.
 */
export async function runCommandJob(job: CommandJobDefinition, context: RunContext, settings: ExecutorSettings): Promise<ExecutionOutcome> {
  const startedMs = settings.clock.nowMs();
  const elapsedMs = (): number => settings.clock.nowMs() - startedMs;
  const prepared = prepareCommand(job, context, settings);
  if (!prepared.ok) return failedOutcome(prepared.error, elapsedMs());
  if (settings.signal?.aborted) {
    return { ...failedOutcome(stoppedError('abort', settings.timeoutMs, settings.signal), elapsedMs()), status: 'CANCELLED' };
  }
  if (!settings.progress) return superviseCommand(prepared.value, settings, elapsedMs);
  let channel: ProgressChannel;
  try {
    channel = await ProgressChannel.open(settings.progress);
  } catch (error) {
    return failedOutcome(`could not create the progress file: ${(error as NodeJS.ErrnoException).code ?? 'unknown error'}`, elapsedMs());
  }
  // Real time, like the group poll: it watches a real file grow.
  const pollTimer = setInterval(() => void channel.poll().catch(() => undefined), PROGRESS_POLL_MS);
  try {
    return await superviseCommand({ ...prepared.value, env: { ...prepared.value.env, ...channel.env } }, settings, elapsedMs);
  } finally {
    clearInterval(pollTimer);
    // The outcome is read after this: every line the job wrote before it ended is in the report.
    await channel.close().catch(() => undefined);
  }
}

function prepareCommand(job: CommandJobDefinition, context: RunContext, settings: ExecutorSettings): Prepared<JobCommand> {
  if (job.command.length === 0) return { ok: false, error: 'command is empty' };
  const placeholders = placeholderValues(context);
  const argv: string[] = [];
  for (const [index, argument] of job.command.entries()) {
    const substituted = substitutePlaceholders(argument, placeholders, `command[${index}]`);
    if (!substituted.ok) return substituted;
    if (substituted.value.includes('\0')) return { ok: false, error: `command[${index}] contains a NUL byte` };
    argv.push(substituted.value);
  }
  const jobEnv = resolveValues(job.env, 'env', placeholders, settings.env);
  if (!jobEnv.ok) return jobEnv;
  for (const [name, value] of Object.entries(jobEnv.value)) {
    // Checked here because spawn's own error message would quote the (possibly secret) value.
    if (name === '' || /[=\0]/.test(name)) return { ok: false, error: `env name ${JSON.stringify(name)} is not a valid variable name` };
    if (value.includes('\0')) return { ok: false, error: `env.${name} contains a NUL byte` };
  }
  // The working directory is checked only when the spawn fails (describeStartFailure): on the hot
  // path a stat is one more round trip to libuv's thread pool per job.
  const cwd = resolve(settings.baseDir, job.cwd);
  const [program, ...args] = argv as [string, ...string[]];
  return { ok: true, value: { argv: [program, ...args], cwd, env: { ...composeJobEnvironment(settings.env, jobEnv.value, context), ...settings.processGroups?.markJob?.() } } };
}

function superviseCommand(command: JobCommand, settings: ExecutorSettings, elapsedMs: () => number): Promise<ExecutionOutcome> {
  const launch = settings.processGroups?.launch ?? launchInProcess;
  return new Promise((resolveOutcome) => {
    const stdoutTail = new OutputTail(settings.maxOutputBytes, settings.redactor);
    const stderrTail = new OutputTail(settings.maxOutputBytes, settings.redactor);
    let pid: number | undefined;
    let outputClosed = false;
    let leaderExit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    /** Why the leader's exit status will never be known (its launcher process died), or null. */
    let exitLost: string | null = null;
    let stopReason: StopReason | null = null;
    let terminating = false;
    let groupGone = false;
    let settled = false;
    let pollTimer: NodeJS.Timeout | undefined;
    let cancelTimeout = (): void => {};
    let cancelKillTimer = (): void => {};
    let cancelGiveUpTimer = (): void => {};
    let cancelDrainTimer = (): void => {};
    let cancelExitReportWait = (): void => {};

    const signalJob = (signal: NodeJS.Signals): void => {
      if (process.platform === 'win32') process.kill(pid!, signal);
      else signalProcessGroup(pid!, signal);
    };
    const isJobAlive = (): boolean => (process.platform === 'win32' ? leaderExit === null : isProcessGroupAlive(pid!));

    const terminate = (): void => {
      if (terminating) return;
      terminating = true;
      try {
        signalJob('SIGTERM');
      } catch {
        // already gone (win32: the leader); SIGKILL or the give-up timer follows
      }
      cancelKillTimer = startTimer(settings.killGraceMs, () => {
        try {
          signalJob('SIGKILL');
        } catch {
          // as above
        }
        cancelGiveUpTimer = startTimer(AFTER_KILL_WAIT_MS, onGroupGone);
      });
    };

    const stop = (reason: StopReason): void => {
      // Once the leader has exited its own result stands; leftovers are being cleaned up already.
      if (leaderExit !== null || stopReason !== null) return;
      // A loaded event loop runs due timers before it reads the exits the kernel has reported, so
      // a job that exited before its deadline could be seen alive at it, reported TIMED_OUT and
      // run again (the chaos suite found TIMED_OUT attempts with exit code 0). One turn later
      // those exits have been read.
      setImmediate(() => {
        if (leaderExit !== null || stopReason !== null) return;
        // The job reaper reports exits over a pipe, and a loaded reaper reports them late: a leader
        // already gone (or a zombie not yet reaped) ended on its own before this stop, and its exit
        // is on its way. Its own result then stands, as for a job whose exit was read (the chaos
        // suite found TIMED_OUT attempts that had exited 0 up to ~750 ms before their stop). What
        // is left of its group is stopped now all the same, at the deadline: a fenced job's
        // leftovers must not outlive its lease. Should the report not come within what a stop
        // takes anyway, the attempt ends as stopped.
        if (process.platform !== 'win32' && hasProcessExited(pid!)) {
          terminate();
          cancelExitReportWait = startTimer(settings.killGraceMs + AFTER_KILL_WAIT_MS, () => {
            if (leaderExit === null && stopReason === null) stopReason = reason;
          });
          return;
        }
        stopReason = reason;
        terminate();
      });
    };
    const onAbort = (): void => stop('abort');

    const checkGroup = (): void => {
      if (groupGone) return;
      if (!isJobAlive()) {
        onGroupGone();
        return;
      }
      terminate();
      // Real time, not the runner's clock: it watches real processes die (see long-timer.ts).
      pollTimer ??= setInterval(checkGroup, GROUP_POLL_MS);
    };

    function onGroupGone(): void {
      if (groupGone) return;
      groupGone = true;
      clearInterval(pollTimer);
      cancelKillTimer();
      cancelGiveUpTimer();
      if (outputClosed) {
        finish();
        return;
      }
      // outputClosed follows, from the launcher.
      cancelDrainTimer = startTimer(OUTPUT_DRAIN_MS, () => launched.closeOutput());
    }

    const launched = launch(command, { stdout: stdoutTail, stderr: stderrTail }, {
      failed: (error) => {
        settled = true;
        resolveOutcome(failedOutcome(describeStartFailure(command, error), elapsedMs()));
      },
      started: (startedPid) => {
        pid = startedPid;
        settings.processGroups?.add(startedPid);
        cancelTimeout = startTimer(settings.timeoutMs, () => stop('timeout'));
        // The launch may have taken a turn of the event loop or more: an abort meanwhile counts.
        if (settings.signal?.aborted) stop('abort');
        else settings.signal?.addEventListener('abort', onAbort, { once: true });
      },
      exited: (code, signal) => {
        leaderExit = { code, signal };
        cancelTimeout();
        cancelExitReportWait();
        checkGroup();
      },
      outputClosed: () => {
        outputClosed = true;
        if (groupGone) finish();
      },
      lost: (why) => {
        outputClosed = true;
        if (pid === undefined) {
          settled = true;
          resolveOutcome(failedOutcome(`${why} before it reported the job started`, elapsedMs()));
          return;
        }
        // The exit status is gone with the launcher: what is left of the group is stopped, so
        // that nothing of this attempt outlives it, and the attempt fails.
        if (leaderExit === null) {
          exitLost = why;
          leaderExit = { code: null, signal: null };
          cancelTimeout();
        }
        if (groupGone) finish();
        else checkGroup();
      },
    });

    function finish(): void {
      if (settled) return;
      settled = true;
      cancelTimeout();
      clearInterval(pollTimer);
      cancelKillTimer();
      cancelGiveUpTimer();
      cancelDrainTimer();
      cancelExitReportWait();
      settings.signal?.removeEventListener('abort', onAbort);
      settings.processGroups?.remove(pid!);
      const base = { exitCode: leaderExit?.code ?? null, httpStatus: null, stdoutTail: stdoutTail.toText(), stderrTail: stderrTail.toText(), durationMs: elapsedMs() };
      if (stopReason !== null) {
        resolveOutcome({ ...base, status: stoppedStatus(stopReason), error: stoppedError(stopReason, settings.timeoutMs, settings.signal) });
      } else if (exitLost !== null) {
        resolveOutcome({ ...base, status: 'FAILED', error: `${exitLost}: the job's exit status is unknown; it was stopped` });
      } else if (leaderExit?.code === 0) {
        resolveOutcome({ ...base, status: 'SUCCEEDED', error: null });
      } else {
        resolveOutcome({ ...base, status: 'FAILED', error: describeExit(leaderExit) });
      }
    }
  });
}

function describeExit(exit: { code: number | null; signal: NodeJS.Signals | null } | null): string {
  if (exit?.signal) return `killed by ${exit.signal}`;
  if (exit?.code !== null && exit?.code !== undefined) return `exited with code ${exit.code}`;
  return 'did not exit after SIGKILL';
}

/**
 * Only the error code is shown: Node's messages for bad arguments quote values that may be secret.
 * A missing working directory fails the spawn with the same codes as a missing program: told apart here.
 */
function describeStartFailure(command: JobCommand, error: unknown): string {
  const [program] = command.argv;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    const cwdProblem = describeWorkingDirectoryProblem(command.cwd);
    if (cwdProblem !== null) return cwdProblem;
  }
  if (code === 'ENOENT') return `command not found: ${program}`;
  if (code === 'EACCES') return `command is not executable: ${program}`;
  return `could not start ${program}: ${code ?? 'unknown error'}`;
}

/** Synchronous: only ever called after a failed spawn. */
function describeWorkingDirectoryProblem(cwd: string): string | null {
  try {
    return statSync(cwd).isDirectory() ? null : `working directory ${cwd} is not a directory`;
  } catch {
    return `working directory ${cwd} does not exist`;
  }
}

import { isAbsolute } from 'node:path';
import { systemClock, type Clock } from '../../shared/clock.js';
import type { JobLauncher } from './job-launch.js';
import type { ProgressChannelOptions } from './progress-channel.js';
import type { SecretRedactor } from './secret-redaction.js';

export interface ExecuteOptions {
  /** The attempt's maximum runtime (the schedule's `timeout`). */
  timeoutMs: number;
  /** Delay between SIGTERM and SIGKILL of the job's process group. Default 5000. */
  killGraceMs?: number;
  /** Cancel or shutdown: the job is stopped like a timeout but reported CANCELLED. */
  signal?: AbortSignal;
  /** The runner's environment: source of `fromEnv` values and of the few inherited variables. */
  env: NodeJS.ProcessEnv;
  /** Absolute directory that a command job's `cwd` is resolved against. */
  baseDir: string;
  /** Bytes kept from the end of each output stream. Default 16 KiB. */
  maxOutputBytes?: number;
  clock?: Clock;
  /** Told about each job's process group while it lives, so it can be killed if the runner dies. */
  processGroups?: ProcessGroupRegistry;
  /** A command job reports progress and items here (CRONFORM_PROGRESS_FILE); http jobs cannot. */
  progress?: ProgressChannelOptions;
}

export interface ProcessGroupRegistry {
  add(groupId: number): void;
  remove(groupId: number): void;
  /**
   * Called before each command job is spawned. Returns the variables set in its environment
   * (after the job's own, so it cannot replace them) that mark the job as this runner's: the
   * reaper finds by them a job whose group it was never told about, because the runner died while
   * spawning it (bin/job-reaper.js). The registry makes sure its reaper runs before returning, so
   * a reaper may be started at the first job instead of with the runner.
   */
  markJob?(): Readonly<Record<string, string>>;
  /**
   * Starts a command job instead of the executor's own spawn (launchInProcess), e.g. from a small
   * process of the registry's, whose fork costs less than the runner's. Called after markJob.
   */
  launch?: JobLauncher;
}

/** ExecuteOptions with defaults applied; what the executors receive. */
export interface ExecutorSettings {
  timeoutMs: number;
  killGraceMs: number;
  signal: AbortSignal | undefined;
  env: NodeJS.ProcessEnv;
  baseDir: string;
  maxOutputBytes: number;
  clock: Clock;
  processGroups: ProcessGroupRegistry | undefined;
  /** The job's `fromEnv` values, redacted from its output tails and errors. */
  redactor: SecretRedactor;
  progress: ProgressChannelOptions | undefined;
}

export const DEFAULT_KILL_GRACE_MS = 5000;
export const DEFAULT_MAX_OUTPUT_BYTES = 16 * 1024;

/** Bad options are the caller's bug, not the job's: they throw. */
export function settleExecuteOptions(options: ExecuteOptions, redactor: SecretRedactor): ExecutorSettings {
  const killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  if (!Number.isFinite(options.timeoutMs) || options.timeoutMs <= 0) throw new RangeError(`timeoutMs must be a positive number (got ${options.timeoutMs})`);
  if (!Number.isFinite(killGraceMs) || killGraceMs < 0) throw new RangeError(`killGraceMs must be a non-negative number (got ${killGraceMs})`);
  if (!Number.isInteger(maxOutputBytes) || maxOutputBytes < 0) throw new RangeError(`maxOutputBytes must be a non-negative integer (got ${maxOutputBytes})`);
  if (!isAbsolute(options.baseDir)) throw new RangeError(`baseDir must be an absolute path (got ${options.baseDir})`);
  return {
    timeoutMs: options.timeoutMs,
    killGraceMs,
    signal: options.signal,
    env: options.env,
    baseDir: options.baseDir,
    maxOutputBytes,
    clock: options.clock ?? systemClock,
    processGroups: options.processGroups,
    redactor,
    progress: options.progress,
  };
}

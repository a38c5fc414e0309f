import { Flags } from '@oclif/core';
import { parseDurationMs } from '../compile/duration.js';
import { openChosenDatabaseWhenReachable } from '../operations/database.js';
import { Runner } from '../runner/runner.js';
import { systemClock } from '../shared/clock.js';
import { createJsonLogger } from '../shared/logger.js';
import { waitForShutdownSignal } from '../shared/shutdown-signal.js';
import { CronformCommand } from './cronform-command.js';
import { databaseFlags } from './database-flags.js';

export const runnerFlags = {
  concurrency: Flags.integer({ description: 'attempts this runner executes at once', default: 10, min: 1 }),
  prefetch: Flags.integer({ description: 'most runs claimed ahead of free slots, sized by recent job durations to ~100 ms of waiting (0: claim only free slots)', default: 1000, min: 0 }),
  lease: Flags.string({ description: 'lease length; heartbeats extend it every third of it', default: '30s' }),
  'drain-timeout': Flags.string({ description: 'on SIGTERM/SIGINT, how long running attempts may finish before they are stopped and released', default: '30s' }),
  'kill-grace': Flags.string({ description: 'SIGTERM → SIGKILL delay when an attempt is stopped', default: '5s' }),
  'base-dir': Flags.string({ description: 'directory that command jobs\' cwd is relative to (default: current directory)' }),
};

export default class RunnerCommand extends CronformCommand {
  static override summary = 'Run the scheduler, workers and reconciler (any number of replicas per database).';
  // Runs until stopped and returns nothing (its log lines are JSON already): no value for --json to print.
  static override enableJsonFlag = false;
  static override flags = { ...runnerFlags, ...databaseFlags };

  async run(): Promise<void> {
    const { flags } = await this.parse(RunnerCommand);
    const logger = createJsonLogger({ base: { component: 'runner' } });
    const startedMs = systemClock.nowMs();
    // Listening from the start: a SIGTERM while the database is still unreachable ends the
    // start-up with exit 0 (nothing runs yet, nothing to drain), instead of Node's default death.
    const shutdown = waitForShutdownSignal();
    let stopped = false;
    void shutdown.then(() => (stopped = true));
    const database = await openChosenDatabaseWhenReachable({ databaseUrl: flags['database-url'], cwd: process.cwd() }, logger, sleepUntil(shutdown)).catch((error: unknown) => {
      if (error === STOPPED) return undefined;
      throw error;
    });
    if (!database) return;
    const runner = new Runner(database, {
      clock: systemClock,
      concurrency: flags.concurrency,
      prefetch: flags.prefetch,
      leaseMs: parseDurationMs(flags.lease),
      drainTimeoutMs: parseDurationMs(flags['drain-timeout']),
      killGraceMs: parseDurationMs(flags['kill-grace']),
      baseDir: flags['base-dir'] ?? process.cwd(),
      env: process.env,
      logger,
      version: this.config.version,
      reachingDatabaseSinceMs: startedMs,
    });
    // The database may fail between the open and the start (an outage beginning): try again.
    for (let attempt = 1; ; attempt += 1) {
      const started = await runner.start().then(
        () => true,
        (error: unknown) => {
          logger.error('runner start failed; retrying', { error: (error as Error).message, attempt });
          return false;
        },
      );
      if (started) break;
      if (stopped || !(await sleepUntil(shutdown)(Math.min(30_000, 500 * 2 ** Math.min(attempt, 6))).then(() => true, () => false))) {
        await database.close();
        return;
      }
    }
    await shutdown;
    await runner.stop();
    await database.close();
  }
}

/** Thrown by a start-up sleep interrupted by SIGTERM/SIGINT. */
const STOPPED = new Error('stopped by a signal during start-up');

/** A start-up sleep that rejects with STOPPED (its timer cleared) once `signal` resolves. */
function sleepUntil(signal: Promise<unknown>): (ms: number) => Promise<void> {
  return (ms) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      void signal.then(() => {
        clearTimeout(timer);
        reject(STOPPED);
      });
    });
}

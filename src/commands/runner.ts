import { Flags } from '@oclif/core';
import { parseDurationMs } from '../compile/duration.js';
import { openChosenDatabaseWhenReachable } from '../operations/database.js';
import { Runner } from '../runner/runner.js';
import { systemClock } from '../shared/clock.js';
import { createJsonLogger } from '../shared/logger.js';
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
    const database = await openChosenDatabaseWhenReachable({ databaseUrl: flags['database-url'], cwd: process.cwd() }, logger);
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
    });
    await runner.start();
    await waitForShutdownSignal();
    await runner.stop();
    await database.close();
  }
}

/** Resolves on the first SIGTERM or SIGINT; a second one exits at once. */
export function waitForShutdownSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.removeListener('SIGTERM', onSignal);
      process.removeListener('SIGINT', onSignal);
      process.once('SIGTERM', () => process.exit(130));
      process.once('SIGINT', () => process.exit(130));
      resolve(signal);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}

import path from 'node:path';
import { Flags } from '@oclif/core';
import { parseDurationMs } from '../compile/duration.js';
import { DEFAULT_DATA_DIR } from '../db/client.js';
import { DevSession, openDevDatabase } from '../operations/dev-session.js';
import { renderPlanText } from '../plan/render-text.js';
import { systemClock } from '../shared/clock.js';
import { createJsonLogger, type LogLevel } from '../shared/logger.js';
import { createRunnerMetrics } from '../http/runner-http.js';
import { createPalette } from '../shared/terminal.js';
import { CronformCommand } from './cronform-command.js';
import { checkHttpAddress, runnerFlags, startHttpForRunner } from './runner.js';
import { waitForShutdownSignal } from '../shared/shutdown-signal.js';

export default class Dev extends CronformCommand {
  static override summary = 'Run everything locally: embedded database, apply schedules/, runner, re-apply on change.';
  // Runs until stopped and returns nothing: there is no value for --json to print.
  static override enableJsonFlag = false;
  static override examples = ['<%= config.bin %> dev', '<%= config.bin %> dev --dir schedules --concurrency 4'];
  static override flags = {
    dir: Flags.string({ description: 'manifest directory to apply and watch', default: 'schedules' }),
    // The same flag and variable as every other command's (database-flags.ts), so they find it.
    'data-dir': Flags.string({ description: 'embedded database directory (other commands take the same --data-dir or $CRONFORM_DATA_DIR)', env: 'CRONFORM_DATA_DIR', default: DEFAULT_DATA_DIR }),
    ...runnerFlags,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Dev);
    const dashboard = checkHttpAddress(flags.http, (message) => this.fail(message), flags['allow-actions'] ?? false, flags['http-allowed-hosts']);
    const cwd = process.cwd();
    const print = (line: string) => this.log(line);
    const dataDir = path.relative(cwd, path.resolve(cwd, flags['data-dir'])) || '.';
    const database = await openDevDatabase(dataDir, { clock: systemClock, print });
    // Other commands look in .cronform/db unless told: say how, when it is elsewhere.
    if (path.resolve(cwd, dataDir) !== path.resolve(cwd, DEFAULT_DATA_DIR) && process.env.CRONFORM_DATA_DIR === undefined) print(`other commands in this directory use this database with --data-dir ${dataDir} (or export CRONFORM_DATA_DIR=${dataDir})`);
    const color = createPalette().level > 0;
    const logger = createJsonLogger({ base: { component: 'dev' }, level: flags['log-level'] as LogLevel | undefined });
    const leaseMs = parseDurationMs(flags.lease);
    const metrics = flags.http ? createRunnerMetrics({ database, clock: systemClock, logger, leaseMs }) : undefined;
    const session = new DevSession(database, {
      dir: flags.dir,
      cwd,
      clock: systemClock,
      concurrency: flags.concurrency,
      prefetch: flags.prefetch,
      leaseMs,
      drainTimeoutMs: parseDurationMs(flags['drain-timeout']),
      killGraceMs: parseDurationMs(flags['kill-grace']),
      baseDir: flags['base-dir'] ?? cwd,
      env: process.env,
      logger,
      ...(metrics ? { observer: metrics } : {}),
      version: this.config.version,
      print,
      showPlan: (plan) => this.log(renderPlanText(plan, { color })),
    });
    await session.start();
    const runner = session.currentRunner;
    const server = flags.http && metrics && runner ? await startHttpForRunner(flags.http, { runner, metrics, database, logger, leaseMs, dashboard }, (message) => this.fail(message), () => session.stop().then(() => database.close())) : undefined;
    await waitForShutdownSignal();
    await session.stop();
    await server?.close();
    await database.close();
  }
}

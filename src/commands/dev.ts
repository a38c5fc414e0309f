import path from 'node:path';
import { Flags } from '@oclif/core';
import { parseDurationMs } from '../compile/duration.js';
import { DEFAULT_DATA_DIR, openDatabase } from '../db/client.js';
import { ensureSchema } from '../db/migrate.js';
import { DevSession } from '../operations/dev-session.js';
import { renderPlanText } from '../plan/render-text.js';
import { systemClock } from '../shared/clock.js';
import { createJsonLogger } from '../shared/logger.js';
import { createPalette } from '../shared/terminal.js';
import { CronformCommand } from './cronform-command.js';
import { runnerFlags } from './runner.js';
import { waitForShutdownSignal } from '../shared/shutdown-signal.js';

export default class Dev extends CronformCommand {
  static override summary = 'Run everything locally: embedded database, apply schedules/, runner, re-apply on change.';
  // Runs until stopped and returns nothing: there is no value for --json to print.
  static override enableJsonFlag = false;
  static override examples = ['<%= config.bin %> dev', '<%= config.bin %> dev --dir schedules --concurrency 4'];
  static override flags = {
    dir: Flags.string({ description: 'manifest directory to apply and watch', default: 'schedules' }),
    'data-dir': Flags.string({ description: 'embedded database directory', default: DEFAULT_DATA_DIR }),
    ...runnerFlags,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Dev);
    const cwd = process.cwd();
    const database = await openDatabase({ dataDir: path.resolve(cwd, flags['data-dir']) });
    await ensureSchema(database);
    const color = createPalette().level > 0;
    const session = new DevSession(database, {
      dir: flags.dir,
      cwd,
      clock: systemClock,
      concurrency: flags.concurrency,
      prefetch: flags.prefetch,
      leaseMs: parseDurationMs(flags.lease),
      drainTimeoutMs: parseDurationMs(flags['drain-timeout']),
      killGraceMs: parseDurationMs(flags['kill-grace']),
      baseDir: flags['base-dir'] ?? cwd,
      env: process.env,
      logger: createJsonLogger({ base: { component: 'dev' } }),
      version: this.config.version,
      showPlan: (plan) => this.log(renderPlanText(plan, { color })),
    });
    await session.start();
    this.log(`cronform dev: ${database.label}; watching ${flags.dir}/ — Ctrl-C to stop`);
    await waitForShutdownSignal();
    await session.stop();
    await database.close();
  }
}

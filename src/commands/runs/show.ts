import { Args } from '@oclif/core';
import { withDatabase } from '../../operations/database.js';
import { showRun, type RunDetail } from '../../operations/runs/show-run.js';
import { CronformCommand } from '../cronform-command.js';
import { databaseFlags } from '../database-flags.js';
import { renderRunDetail } from './render-run-detail.js';

export default class RunsShow extends CronformCommand {
  static override summary = 'Show one run: slot, trigger, status and reason, and every attempt with its exit code, error and output tails.';
  static override examples = ['<%= config.bin %> runs show 42', '<%= config.bin %> runs show 42 --json'];
  static override args = { runId: Args.integer({ description: 'run id (see cronform runs)', required: true, min: 1 }) };
  static override flags = { ...databaseFlags };

  async run(): Promise<RunDetail> {
    const { args, flags } = await this.parse(RunsShow);
    const run = await withDatabase({ databaseUrl: flags['database-url'], dataDir: flags['data-dir'], cwd: process.cwd() }, (database) => showRun(database, args.runId));
    for (const line of renderRunDetail(run)) this.log(line);
    return run;
  }
}

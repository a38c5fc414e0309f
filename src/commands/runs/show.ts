import { Args } from '@oclif/core';
import { makeVisible } from '../../shared/visible-text.js';
import { withDatabase } from '../../operations/database.js';
import { showRun, type RunDetail } from '../../operations/runs/show-run.js';
import { CronformCommand } from '../cronform-command.js';
import { databaseFlags } from '../database-flags.js';
import { renderRunDetail } from './render-run-detail.js';

/**
 * A run id, with oclif's integer messages. `runs show <word>` is never a schedule's runs (argv
 * `runs show` always names this command): an argument that is not an id says where those are.
 */
const runId = Args.custom<number>({
  parse: async (input) => {
    const visible = makeVisible(input);
    if (!/^-?\d+$/.test(input)) throw new Error(`Expected an integer but received: ${visible}. For the runs of a schedule named "${visible}": cronform runs --schedule ${visible}`);
    const id = Number(input);
    if (id < 1 || !Number.isSafeInteger(id)) throw new Error(`Expected an integer greater than or equal to 1 but received: ${visible}`);
    return id;
  },
});

export default class RunsShow extends CronformCommand {
  static override summary = 'Show one run: slot, trigger, status and reason, and every attempt with its exit code, error and output tails.';
  static override examples = ['<%= config.bin %> runs show 42', '<%= config.bin %> runs show 42 --json'];
  static override args = { runId: runId({ description: 'run id (see cronform runs)', required: true }) };
  static override flags = { ...databaseFlags };

  async run(): Promise<RunDetail> {
    const { args, flags } = await this.parse(RunsShow);
    const run = await withDatabase({ databaseUrl: flags['database-url'], dataDir: flags['data-dir'], cwd: process.cwd() }, (database) => showRun(database, args.runId));
    for (const line of renderRunDetail(run)) this.log(line);
    return run;
  }
}

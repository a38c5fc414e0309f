import { Args, Flags } from '@oclif/core';
import { triggerRun, type TriggerResult } from '../operations/runs/trigger.js';
import { CronformCommand } from './cronform-command.js';
import { changeFlags, performRunChange } from './run-change.js';

export default class Trigger extends CronformCommand {
  static override summary = 'Run a schedule now: a MANUAL run for the current second.';
  static override examples = ['<%= config.bin %> trigger daily-report', '<%= config.bin %> trigger daily-report --force-new --reason "re-run after fix"'];
  static override args = { name: Args.string({ description: 'schedule name', required: true }) };
  static override flags = {
    'force-new': Flags.boolean({ description: 'create the run even if the schedule already has an active run' }),
    'dry-run': Flags.boolean({ description: 'a DRY_RUN run: the job gets CRONFORM_DRY_RUN=1, changes nothing and reports what it would (cronform progress --would-affect N)' }),
    ...changeFlags('triggers'),
  };

  async run(): Promise<TriggerResult> {
    const { args, flags } = await this.parse(Trigger);
    const result: TriggerResult = await performRunChange(flags, (database, context) => triggerRun(database, { name: args.name, forceNew: flags['force-new'], dryRun: flags['dry-run'], ...context }));
    const waiting = result.status === 'MANUAL_REQUIRED' ? `; it waits for approval: cronform approve ${result.runId}` : '';
    const kind = result.dryRun ? 'a dry run of ' : '';
    this.log(`Triggered ${kind}${result.schedule}: run ${result.runId} for ${result.scheduledFor} (${result.status}, business date ${result.businessDate})${waiting}`);
    if (result.paused) this.log(`Note: ${result.schedule} is paused; this manual run runs anyway.`);
    return result;
  }
}

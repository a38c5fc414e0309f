import { Args } from '@oclif/core';
import { cancelRun, type CancelResult } from '../operations/runs/cancel.js';
import { CronformCommand } from './cronform-command.js';
import { changeFlags, performRunChange } from './run-change.js';

export default class Cancel extends CronformCommand {
  static override summary = 'Cancel a run; a running one is stopped (its runner kills the process group).';
  static override args = { runId: Args.integer({ description: 'run id (see cronform runs)', required: true, min: 1 }) };
  static override flags = { ...changeFlags('cancels') };

  async run(): Promise<CancelResult> {
    const { args, flags } = await this.parse(Cancel);
    const result: CancelResult = await performRunChange(flags, (database, context) => cancelRun(database, { runId: args.runId, ...context }));
    const stopped = result.stopped ? '; its runner stops the attempt' : '';
    const promoted = result.promoted > 0 ? `; the next PENDING run of ${result.schedule} is QUEUED` : '';
    this.log(`Cancelled run ${result.runId} of ${result.schedule} (${result.scheduledFor}, was ${result.previousStatus})${stopped}${promoted}.`);
    return result;
  }
}

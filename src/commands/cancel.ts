import { Args, Command, Flags } from '@oclif/core';
import { cancelRun, type CancelResult } from '../operations/runs/cancel.js';
import { databaseFlags } from './database-flags.js';
import { performRunChange } from './run-change.js';

export default class Cancel extends Command {
  static override summary = 'Cancel a run; a running one is stopped (its runner kills the process group).';
  static override args = { runId: Args.integer({ description: 'run id (see cronform runs)', required: true, min: 1 }) };
  static override flags = {
    actor: Flags.string({ description: 'who cancels (default: CI environment, then git user)' }),
    reason: Flags.string({ description: 'why, recorded in the audit log' }),
    json: Flags.boolean({ description: 'print as JSON' }),
    ...databaseFlags,
  };

  async run(): Promise<CancelResult> {
    const { args, flags } = await this.parse(Cancel);
    const result: CancelResult = await performRunChange(this, flags, (database, context) => cancelRun(database, { runId: args.runId, ...context }));
    if (flags.json) {
      this.log(JSON.stringify(result, null, 2));
    } else {
      const stopped = result.stopped ? '; its runner stops the attempt' : '';
      const promoted = result.promoted > 0 ? `; the next PENDING run of ${result.schedule} is QUEUED` : '';
      this.log(`Cancelled run ${result.runId} of ${result.schedule} (${result.scheduledFor}, was ${result.previousStatus})${stopped}${promoted}.`);
    }
    return result;
  }
}

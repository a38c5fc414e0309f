import { Args, Command, Flags } from '@oclif/core';
import { resolveAuthor } from '../operations/actor.js';
import { withDatabase } from '../operations/database.js';
import { cancelRun, type CancelResult } from '../operations/runs/cancel.js';
import { RunOperationError } from '../operations/runs/run-operation-error.js';
import { systemClock } from '../shared/clock.js';
import { ExitCodes } from '../shared/exit-codes.js';
import { databaseFlags } from './database-flags.js';

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
    const cwd = process.cwd();
    const author = resolveAuthor({ actor: flags.actor, reason: flags.reason }, process.env, cwd);
    let result: CancelResult;
    try {
      result = await withDatabase({ databaseUrl: flags['database-url'], cwd }, (database) => cancelRun(database, { runId: args.runId, nowMs: systemClock.nowMs(), author }));
    } catch (error) {
      if (error instanceof RunOperationError) this.error(error.message, { exit: ExitCodes.ERROR });
      throw error;
    }
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

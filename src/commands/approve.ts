import { Args, Command, Flags } from '@oclif/core';
import { resolveAuthor } from '../operations/actor.js';
import { withDatabase } from '../operations/database.js';
import { approveRun, type ApproveResult } from '../operations/runs/approve.js';
import { RunOperationError } from '../operations/runs/run-operation-error.js';
import { systemClock } from '../shared/clock.js';
import { ExitCodes } from '../shared/exit-codes.js';
import { databaseFlags } from './database-flags.js';

export default class Approve extends Command {
  static override summary = 'Approve a run waiting in MANUAL_REQUIRED so that it runs.';
  static override args = { runId: Args.integer({ description: 'run id (see cronform runs --status MANUAL_REQUIRED)', required: true, min: 1 }) };
  static override flags = {
    actor: Flags.string({ description: 'who approves (default: CI environment, then git user)' }),
    reason: Flags.string({ description: 'why, recorded in the audit log' }),
    json: Flags.boolean({ description: 'print as JSON' }),
    ...databaseFlags,
  };

  async run(): Promise<ApproveResult> {
    const { args, flags } = await this.parse(Approve);
    const cwd = process.cwd();
    const author = resolveAuthor({ actor: flags.actor, reason: flags.reason }, process.env, cwd);
    let result: ApproveResult;
    try {
      result = await withDatabase({ databaseUrl: flags['database-url'], cwd }, (database) => approveRun(database, { runId: args.runId, nowMs: systemClock.nowMs(), author }));
    } catch (error) {
      if (error instanceof RunOperationError) this.error(error.message, { exit: ExitCodes.ERROR });
      throw error;
    }
    const behind = result.behindRunId === null ? '' : `, behind active run ${result.behindRunId}`;
    this.log(flags.json ? JSON.stringify(result, null, 2) : `Approved run ${result.runId} of ${result.schedule} (${result.scheduledFor}): ${result.status}${behind}.`);
    return result;
  }
}

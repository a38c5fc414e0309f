import { Args, Command, Flags } from '@oclif/core';
import { approveRun, type ApproveResult } from '../operations/runs/approve.js';
import { databaseFlags } from './database-flags.js';
import { performRunChange } from './run-change.js';

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
    const result: ApproveResult = await performRunChange(this, flags, (database, context) => approveRun(database, { runId: args.runId, ...context }));
    const behind = result.behindRunId === null ? '' : `, behind active run ${result.behindRunId}`;
    this.log(flags.json ? JSON.stringify(result, null, 2) : `Approved run ${result.runId} of ${result.schedule} (${result.scheduledFor}): ${result.status}${behind}.`);
    return result;
  }
}

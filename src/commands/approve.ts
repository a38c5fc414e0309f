import { Args } from '@oclif/core';
import { approveRun, type ApproveResult } from '../operations/runs/approve.js';
import { CronformCommand } from './cronform-command.js';
import { changeFlags, performRunChange } from './run-change.js';

export default class Approve extends CronformCommand {
  static override summary = 'Approve a run waiting in MANUAL_REQUIRED so that it runs.';
  static override args = { runId: Args.integer({ description: 'run id (see cronform runs --status MANUAL_REQUIRED)', required: true, min: 1 }) };
  static override flags = { ...changeFlags('approves') };

  async run(): Promise<ApproveResult> {
    const { args, flags } = await this.parse(Approve);
    const result: ApproveResult = await performRunChange(flags, (database, context) => approveRun(database, { runId: args.runId, ...context }));
    const behind = result.behindRunId === null ? '' : `, behind active run ${result.behindRunId}`;
    const affected = result.approvedAffected === null ? '' : `; it may affect up to ${result.approvedAffected}`;
    this.log(`Approved run ${result.runId} of ${result.schedule} (${result.scheduledFor}): ${result.status}${behind}${affected}.`);
    return result;
  }
}

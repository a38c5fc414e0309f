import { Args, Command, Flags } from '@oclif/core';
import { retryRun, type RetryResult } from '../operations/runs/retry.js';
import { databaseFlags } from './database-flags.js';
import { performRunChange } from './run-change.js';

export default class Retry extends Command {
  static override summary = 'Run a FAILED, CANCELLED, MISSED or SKIPPED run again: a new attempt of the same run (same idempotency key and business date).';
  static override args = { runId: Args.integer({ description: 'run id (see cronform runs)', required: true, min: 1 }) };
  static override flags = {
    actor: Flags.string({ description: 'who retries (default: CI environment, then git user)' }),
    reason: Flags.string({ description: 'why, recorded in the audit log' }),
    json: Flags.boolean({ description: 'print as JSON' }),
    ...databaseFlags,
  };

  async run(): Promise<RetryResult> {
    const { args, flags } = await this.parse(Retry);
    const result: RetryResult = await performRunChange(this, flags, (database, context) => retryRun(database, { runId: args.runId, ...context }));
    this.log(flags.json ? JSON.stringify(result, null, 2) : `Run ${result.runId} of ${result.schedule} (${result.scheduledFor}) is QUEUED again (was ${result.previousStatus}); it will be attempt ${result.attempt}.`);
    return result;
  }
}

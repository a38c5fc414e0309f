import { Args, Flags } from '@oclif/core';
import { retryRun, type RetryResult } from '../operations/runs/retry.js';
import { CronformCommand } from './cronform-command.js';
import { changeFlags, performRunChange } from './run-change.js';

export default class Retry extends CronformCommand {
  static override summary = 'Run a FAILED, CANCELLED, MISSED or SKIPPED run again: a new attempt of the same run (same idempotency key and business date).';
  static override args = { runId: Args.integer({ description: 'run id (see cronform runs)', required: true, min: 1 }) };
  static override flags = {
    'from-step': Flags.string({ description: "a workflow's step to run again from, and every step after it (default: the first step that did not succeed)" }),
    ...changeFlags('retries'),
  };

  async run(): Promise<RetryResult> {
    const { args, flags } = await this.parse(Retry);
    const result: RetryResult = await performRunChange(flags, (database, context) => retryRun(database, { runId: args.runId, fromStep: flags['from-step'], ...context }));
    const from = result.fromStep === null ? '' : ` from step ${result.fromStep}`;
    this.log(`Run ${result.runId} of ${result.schedule} (${result.scheduledFor}) is QUEUED again (was ${result.previousStatus}); it will be attempt ${result.attempt}${from}.`);
    return result;
  }
}

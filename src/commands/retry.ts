import { Args, Command, Flags } from '@oclif/core';
import { resolveAuthor } from '../operations/actor.js';
import { withDatabase } from '../operations/database.js';
import { retryRun, type RetryResult } from '../operations/runs/retry.js';
import { RunOperationError } from '../operations/runs/run-operation-error.js';
import { systemClock } from '../shared/clock.js';
import { ExitCodes } from '../shared/exit-codes.js';
import { databaseFlags } from './database-flags.js';

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
    const cwd = process.cwd();
    const author = resolveAuthor({ actor: flags.actor, reason: flags.reason }, process.env, cwd);
    let result: RetryResult;
    try {
      result = await withDatabase({ databaseUrl: flags['database-url'], cwd }, (database) => retryRun(database, { runId: args.runId, nowMs: systemClock.nowMs(), author }));
    } catch (error) {
      if (error instanceof RunOperationError) this.error(error.message, { exit: ExitCodes.ERROR });
      throw error;
    }
    this.log(flags.json ? JSON.stringify(result, null, 2) : `Run ${result.runId} of ${result.schedule} (${result.scheduledFor}) is QUEUED again (was ${result.previousStatus}); it will be attempt ${result.attempt}.`);
    return result;
  }
}

import type { JobDefinition } from '../../compile/definition.js';
import type { ExecutionOutcome, RunContext } from '../run-types.js';
import { runCommandJob } from './command-executor.js';
import { settleExecuteOptions, type ExecuteOptions } from './execute-options.js';
import { runHttpJob } from './http-executor.js';

export type { ExecuteOptions } from './execute-options.js';

/**
 * Executes one attempt of a job. A job that fails, times out, is cancelled or cannot even start
 * (missing secret, unknown placeholder, command not found) is an outcome, never an exception;
 * only invalid options (a caller's bug) throw. Errors name variables and fields, never secret values.
 */
export async function executeJob(job: JobDefinition, context: RunContext, options: ExecuteOptions): Promise<ExecutionOutcome> {
  const settings = settleExecuteOptions(options);
  switch (job.type) {
    case 'command':
      return runCommandJob(job, context, settings);
    case 'http':
      return runHttpJob(job, context, settings);
    default:
      throw new Error(`unknown job type ${JSON.stringify((job as { type: unknown }).type)}`);
  }
}

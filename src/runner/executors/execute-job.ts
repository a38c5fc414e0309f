import type { JobDefinition } from '../../compile/definition.js';
import type { ExecutionOutcome, RunContext } from '../run-types.js';
import { runCommandJob } from './command-executor.js';
import { settleExecuteOptions, type ExecuteOptions, type ExecutorSettings } from './execute-options.js';
import { runHttpJob } from './http-executor.js';
import { createJobRedactor } from './secret-redaction.js';

export type { ExecuteOptions } from './execute-options.js';

/**
 * Executes one attempt of a job. A job that fails, times out, is cancelled or cannot even start
 * (missing secret, unknown placeholder, command not found) is an outcome, never an exception;
 * only invalid options (a caller's bug) throw. Errors name variables and fields, never secret values;
 * the values of the job's `fromEnv` references are redacted from its output tails (by the tails
 * themselves, see output-tail.ts) and from the error text (which may quote a socket error).
 */
export async function executeJob(job: JobDefinition, context: RunContext, options: ExecuteOptions): Promise<ExecutionOutcome> {
  const settings = settleExecuteOptions(options, createJobRedactor(job, options.env));
  const outcome = await runJob(job, context, settings);
  return outcome.error === null ? outcome : { ...outcome, error: settings.redactor.redactText(outcome.error) };
}

function runJob(job: JobDefinition, context: RunContext, settings: ExecutorSettings): Promise<ExecutionOutcome> {
  switch (job.type) {
    case 'command':
      return runCommandJob(job, context, settings);
    case 'http':
      return runHttpJob(job, context, settings);
    default:
      throw new Error(`unknown job type ${JSON.stringify((job as { type: unknown }).type)}`);
  }
}

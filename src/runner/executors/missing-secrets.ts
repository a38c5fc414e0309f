import type { EnvValue, RunJobDefinition } from '../../compile/definition.js';

/** The job's `{ fromEnv }` references (command env, http headers; every step's): the runner's variable names, in manifest order. */
export function fromEnvReferencesOf(job: RunJobDefinition): string[] {
  // Optional at run time: an embedding application's `execute` may be handed a hand-built job.
  const jobs = job.type === 'steps' ? job.steps : [job];
  // A queue job has no secrets: nothing of the runner's environment reaches a queue row.
  const values: Array<[string, EnvValue]> = jobs.flatMap((one) => Object.entries((one.type === 'command' ? one.env : one.type === 'http' ? one.headers : undefined) ?? {}));
  const names: string[] = [];
  for (const [, value] of values) {
    if (typeof value !== 'string' && !names.includes(value.fromEnv)) names.push(value.fromEnv);
  }
  return names;
}

/** The variables the job references with `{ fromEnv }` that are not set in `runnerEnv`. */
export function listMissingSecrets(job: RunJobDefinition, runnerEnv: NodeJS.ProcessEnv): string[] {
  return fromEnvReferencesOf(job).filter((name) => runnerEnv[name] === undefined);
}

/**
 * The fix is on the runner's side, so the message says what to do there: set it, then the job can
 * run. Every missing variable is named at once, so one fix makes the job runnable.
 */
export function describeMissingSecrets(names: readonly string[]): string {
  if (names.length === 1) return `environment variable ${names[0]} is not set on this runner: set ${names[0]} to enable this job`;
  return `environment variables ${names.join(', ')} are not set on this runner: set them to enable this job`;
}

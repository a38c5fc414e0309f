import { DRY_RUN_ENV, SAFETY_MAX_AFFECTED_ENV } from '../../shared/progress-line.js';
import type { RunContext } from '../run-types.js';

/**
 * What a command job inherits from the runner's environment: only operating-system plumbing that
 * programs need to start and behave (search path, home, user, locale, zone, temp dir; on Windows
 * the system paths). Nothing else: the runner's DATABASE_URL, cloud credentials and every other
 * secret stay out of jobs unless a job asks for one by name with `{ fromEnv }`. Proxy variables
 * are not inherited either, because they often embed credentials; a job that needs one declares
 * `HTTPS_PROXY: { fromEnv: HTTPS_PROXY }`.
 */
export const INHERITED_ENV_NAMES = [
  'PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LANGUAGE', 'TZ', 'TMPDIR',
  'SYSTEMROOT', 'WINDIR', 'COMSPEC', 'PATHEXT', 'TEMP', 'TMP',
] as const;
/** Plus every locale category variable (POSIX's and glibc's). */
export const INHERITED_LOCALE_NAMES = [
  'LC_ALL', 'LC_ADDRESS', 'LC_COLLATE', 'LC_CTYPE', 'LC_IDENTIFICATION', 'LC_MEASUREMENT', 'LC_MESSAGES',
  'LC_MONETARY', 'LC_NAME', 'LC_NUMERIC', 'LC_PAPER', 'LC_TELEPHONE', 'LC_TIME',
] as const;
const INHERITED = [...INHERITED_ENV_NAMES, ...INHERITED_LOCALE_NAMES];

/**
 * Read by name, once per job: enumerating `process.env` (every variable of the runner, each a call
 * into the C++ side) cost several times as much, on the hot path of every command job.
 */
export function inheritedEnvironment(runnerEnv: NodeJS.ProcessEnv): Record<string, string> {
  const inherited: Record<string, string> = {};
  for (const name of INHERITED) {
    const value = runnerEnv[name];
    if (value !== undefined) inherited[name] = value;
  }
  return inherited;
}

/** SPEC §7 run context. CRONFORM_BUSINESS_DATE is absent (not empty) when the run has none. */
export function runContextEnvironment(context: RunContext): Record<string, string> {
  const env: Record<string, string> = {
    CRONFORM_RUN_ID: String(context.runId),
    CRONFORM_SCHEDULE: context.schedule,
    CRONFORM_SCHEDULED_FOR: context.scheduledFor,
    CRONFORM_IDEMPOTENCY_KEY: context.idempotencyKey,
    CRONFORM_ATTEMPT: String(context.attempt),
    CRONFORM_TRIGGER: context.trigger,
    CRONFORM_PAYLOAD: JSON.stringify(context.payload),
  };
  if (context.businessDate !== null) env.CRONFORM_BUSINESS_DATE = context.businessDate;
  // SPEC §8a. Absent (not "0") outside a dry run, so `[ -n "$CRONFORM_DRY_RUN" ]` reads naturally.
  if (context.trigger === 'DRY_RUN') env[DRY_RUN_ENV] = '1';
  if (context.maxAffected !== undefined && context.maxAffected !== null) env[SAFETY_MAX_AFFECTED_ENV] = String(context.maxAffected);
  if (context.step) {
    env.CRONFORM_STEP = context.step.name;
    env.CRONFORM_STEP_OUTPUT = context.step.outputFile;
    env.CRONFORM_STEPS_DIR = context.step.stepsDir;
  }
  if (context.inputs !== undefined) env.CRONFORM_INPUTS = JSON.stringify(context.inputs);
  if (context.upstreamRunId !== undefined) env.CRONFORM_UPSTREAM_RUN_ID = String(context.upstreamRunId);
  if (context.upstreamRunIds !== undefined) env.CRONFORM_UPSTREAM_RUN_IDS = JSON.stringify(context.upstreamRunIds);
  return env;
}

/**
 * Later layers win: inherited plumbing < the job's own env < the run context, which a job cannot
 * fake (nor the progress channel's files, added last by the command executor).
 */
export function composeJobEnvironment(runnerEnv: NodeJS.ProcessEnv, jobEnv: Record<string, string>, context: RunContext): Record<string, string> {
  return { ...inheritedEnvironment(runnerEnv), ...jobEnv, ...runContextEnvironment(context) };
}

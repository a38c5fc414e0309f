import type { EnvValue } from '../../compile/definition.js';
import { substitutePlaceholders, type PlaceholderName, type Prepared } from './placeholders.js';

/**
 * Resolves a record of literal-or-`fromEnv` values (job env, http headers). Literals get placeholder
 * substitution; `fromEnv` values are taken verbatim from the runner's environment and never appear in
 * an error. Every missing variable is named at once, so one fix makes the job runnable.
 */
export function resolveValues(
  values: Record<string, EnvValue>,
  field: string,
  placeholders: Record<PlaceholderName, string | null>,
  runnerEnv: NodeJS.ProcessEnv,
): Prepared<Record<string, string>> {
  const resolved: Record<string, string> = {};
  const missing: string[] = [];
  for (const [key, value] of Object.entries(values)) {
    if (typeof value === 'string') {
      const substituted = substitutePlaceholders(value, placeholders, `${field}.${key}`);
      if (!substituted.ok) return substituted;
      resolved[key] = substituted.value;
    } else {
      const secret = runnerEnv[value.fromEnv];
      if (secret === undefined) missing.push(value.fromEnv);
      else resolved[key] = secret;
    }
  }
  // The fix is on the runner's side, so the message says what to do there: set it, then the job can run.
  if (missing.length === 1) return { ok: false, error: `environment variable ${missing[0]} is not set on this runner: set ${missing[0]} to enable this job` };
  if (missing.length > 1) return { ok: false, error: `environment variables ${missing.join(', ')} are not set on this runner: set them to enable this job` };
  return { ok: true, value: resolved };
}

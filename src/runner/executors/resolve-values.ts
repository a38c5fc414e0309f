import type { EnvValue } from '../../compile/definition.js';
import { describeMissingSecrets } from './missing-secrets.js';
import { substitutePlaceholders, type PlaceholderValues, type Prepared } from './placeholders.js';

/**
 * Resolves a record of literal-or-`fromEnv` values (job env, http headers). Literals get placeholder
 * substitution; `fromEnv` values are taken verbatim from the runner's environment and never appear in
 * an error. Every missing variable is named at once, so one fix makes the job runnable.
 */
export function resolveValues(
  values: Record<string, EnvValue>,
  field: string,
  placeholders: PlaceholderValues,
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
  if (missing.length > 0) return { ok: false, error: describeMissingSecrets(missing) };
  return { ok: true, value: resolved };
}

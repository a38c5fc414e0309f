/** Compile the repository's Policy document (or the defaults when there is none). */
import type { PolicyManifest } from '../manifest/schema-types.js';
import { DEFAULT_POLICY, type PolicyDefinition, type SourceLocation } from './definition.js';
import { parseDurationMs } from './duration.js';
import { compileRetention } from './compile-retention.js';

export function compilePolicy(manifest: PolicyManifest | undefined, source: SourceLocation | null): PolicyDefinition {
  if (!manifest) return DEFAULT_POLICY;
  const spec = manifest.spec ?? {};
  return {
    minIntervalMs: spec.minInterval ? parseDurationMs(spec.minInterval) : DEFAULT_POLICY.minIntervalMs,
    maxRunsPerDay: spec.maxRunsPerDay ?? DEFAULT_POLICY.maxRunsPerDay,
    risk: {
      runsPerDayIncreaseHigh: spec.risk?.runsPerDayIncreaseHigh ?? DEFAULT_POLICY.risk.runsPerDayIncreaseHigh,
      ...(spec.risk?.acceptanceMaxDays === undefined ? {} : { acceptanceMaxDays: spec.risk.acceptanceMaxDays }),
    },
    misfireThresholdMs: spec.misfireThreshold ? parseDurationMs(spec.misfireThreshold) : DEFAULT_POLICY.misfireThresholdMs,
    // The default queue always exists; a Policy may override its limit.
    queues: { ...DEFAULT_POLICY.queues, ...(spec.queues ?? {}) },
    backfill: {
      concurrency: spec.backfill?.concurrency ?? DEFAULT_POLICY.backfill.concurrency,
      priority: spec.backfill?.priority ?? DEFAULT_POLICY.backfill.priority,
    },
    ...(spec.alerts ? { alerts: { targets: spec.alerts.targets.map((t) => ({ name: t.name, type: t.type, url: typeof t.url === 'string' ? t.url : { fromEnv: t.url.fromEnv } })) } } : {}),
    ...(spec.retention ? { retention: compileRetention(spec.retention) } : {}),
    source,
  };
}

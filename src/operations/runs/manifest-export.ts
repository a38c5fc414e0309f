/**
 * Stored definitions back to manifests (`export`, SPEC §7): the inverse of `compileSchedule`.
 * Fields equal to their defaults are left out (the timeout and grace period defaults depend on the
 * cron's shortest interval, computed the same way as at compile time), durations are written the
 * shortest exact way, and secrets stay `{ fromEnv }` references. Compiling the output gives the
 * stored digest again, so `plan` on an exported directory shows no change.
 * Not stored, so not exported: `previousName` and `riskAccepted`.
 */
import { schemaModeline } from '../schema-location.js';
import { stringify } from 'yaml';
import { defaultGracePeriodMs, defaultTimeoutMs } from '../../compile/compile-schedule.js';
import { DEFAULT_POLICY, type Definition, type JobDefinition, type PolicyDefinition, type RetryDefinition, type RunJobDefinition } from '../../compile/definition.js';
import { formatDurationMs } from '../../compile/duration.js';
import { parseCron } from '../../time/cron-parse.js';
import { minIntervalSeconds } from '../../time/interval.js';

export const POLICY_FILE = '_policy.yaml';

type Fields = Record<string, unknown>;

/** Keeps the entries whose value differs from the default (deep-equal by JSON). */
function withoutDefaults(entries: Array<[string, unknown, unknown?]>): Fields {
  const fields: Fields = {};
  for (const [key, value, fallback] of entries) {
    if (value === undefined || value === null) continue;
    if (fallback !== undefined && JSON.stringify(value) === JSON.stringify(fallback)) continue;
    if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) continue;
    fields[key] = value;
  }
  return fields;
}

const isEmpty = (fields: Fields): boolean => Object.keys(fields).length === 0;

function exportRunJob(job: RunJobDefinition): Fields {
  if (job.type !== 'steps') return exportJob(job);
  return {
    steps: job.steps.map(({ name, timeoutMs, retry, ...step }) => ({
      name,
      ...exportJob(step),
      ...(timeoutMs !== undefined ? { timeout: formatDurationMs(timeoutMs) } : {}),
      ...(retry !== undefined ? { retry: exportRetry(retry) } : {}),
    })),
  };
}

function exportRetry(retry: RetryDefinition): Fields {
  return withoutDefaults([
    ['maxAttempts', retry.maxAttempts, 1],
    ['backoff', retry.backoff, 'exponential'],
    ['initialDelay', formatDurationMs(retry.initialDelayMs), '30s'],
    ['maxDelay', formatDurationMs(retry.maxDelayMs), '10m'],
  ]);
}

function exportJob(job: JobDefinition): Fields {
  if (job.type === 'command') {
    return { type: 'command', command: job.command, ...withoutDefaults([['cwd', job.cwd, '.'], ['env', job.env]]) };
  }
  if (job.type === 'queue') {
    // The compiled defaults that turn the queue's own retries off are the manifest's defaults too.
    if (job.system === 'graphile-worker') {
      return { type: 'queue', system: 'graphile-worker', task: job.task, ...withoutDefaults([['queueName', job.queueName], ['priority', job.priority], ['maxAttempts', job.maxAttempts, 1]]) };
    }
    if (job.system === 'pg-boss') return { type: 'queue', system: 'pg-boss', name: job.name, ...withoutDefaults([['options', job.options, { retryLimit: 0 }]]) };
    return { type: 'queue', system: 'sql', function: job.function, ...withoutDefaults([['arguments', job.arguments]]) };
  }
  const expectStatus = job.expectStatus.map(([low, high]) => (low === high ? low : `${low}-${high}`));
  return {
    type: 'http',
    url: job.url,
    ...withoutDefaults([['method', job.method, 'POST'], ['headers', job.headers]]),
    ...('body' in job && job.body !== undefined ? { body: job.body } : {}),
    ...withoutDefaults([['expectStatus', expectStatus, ['200-299']]]),
  };
}

function minIntervalMsOf(definition: Definition): number {
  if (definition.cron === null) return 86_400_000;
  const parsed = parseCron(definition.cron);
  if (!parsed.ok) throw new Error(`stored definition ${definition.name} has an invalid cron: ${parsed.error.message}`);
  return (minIntervalSeconds(parsed.cron, definition.dayMatch ?? undefined) ?? 86_400) * 1000;
}

export function scheduleManifestOf(definition: Definition): Fields {
  const minIntervalMs = minIntervalMsOf(definition);
  const duration = (ms: number) => formatDurationMs(ms);
  const retry = exportRetry(definition.retry);
  const dst = withoutDefaults([['gap', definition.dst.gap, 'shift'], ['fold', definition.dst.fold, 'first']]);
  const businessDate = withoutDefaults([['offsetDays', definition.businessDate.offsetDays, 0]]);
  const spec: Fields = {
    // A dependent without slots of its own has no cron; its spec.after is written below.
    ...withoutDefaults([['cron', definition.cron]]),
    timezone: definition.timezone,
    ...withoutDefaults([['enabled', definition.enabled, true], ['dayMatch', definition.dayMatch]]),
    job: exportRunJob(definition.job),
    ...withoutDefaults([
      ['timeout', duration(definition.timeoutMs), duration(defaultTimeoutMs(minIntervalMs))],
      ['overlap', definition.overlap, 'SKIP_NEW'],
      ['misfire', definition.misfire, 'RUN_ONCE'],
      ['maxCatchUp', definition.maxCatchUp, 100],
      ['gracePeriod', duration(definition.gracePeriodMs), duration(defaultGracePeriodMs(minIntervalMs))],
      ['freshness', definition.freshnessMs === undefined ? undefined : duration(definition.freshnessMs)],
      ['retry', isEmpty(retry) ? undefined : retry],
      ['onStall', definition.onStall, 'retry'],
      ['priority', definition.priority, 'NORMAL'],
      ['criticality', definition.criticality, 'MEDIUM'],
      ['queue', definition.queue, 'default'],
      ['jitter', duration(definition.jitterMs), '0ms'],
      ['dst', isEmpty(dst) ? undefined : dst],
      ['businessDate', isEmpty(businessDate) ? undefined : businessDate],
      ['approval', definition.approval, 'none'],
      ['payload', definition.payload],
      ['after', definition.after?.map((entry) => ({ schedule: entry.schedule, status: entry.status }))],
      ['inputs', definition.inputs],
    ]),
  };
  const metadata: Fields = { name: definition.name, ...withoutDefaults([['description', definition.description], ['owner', definition.owner], ['labels', definition.labels]]) };
  return { apiVersion: 'cronform/v1', kind: 'Schedule', metadata, spec };
}

/** Null when every field is the default: no Policy document is needed then. */
export function policyManifestOf(policy: Omit<PolicyDefinition, 'source'>): Fields | null {
  const { default: defaultQueue, ...otherQueues } = policy.queues;
  const queues: Fields = { ...otherQueues };
  // The default queue always exists after compile; only a changed limit is written.
  if (defaultQueue && JSON.stringify(defaultQueue) !== JSON.stringify(DEFAULT_POLICY.queues.default)) queues.default = defaultQueue;
  const backfill = withoutDefaults([['concurrency', policy.backfill.concurrency, DEFAULT_POLICY.backfill.concurrency], ['priority', policy.backfill.priority, DEFAULT_POLICY.backfill.priority]]);
  // acceptanceMaxDays is stored only when the Policy sets it, so an absent one is the default.
  const risk = withoutDefaults([['runsPerDayIncreaseHigh', policy.risk.runsPerDayIncreaseHigh, DEFAULT_POLICY.risk.runsPerDayIncreaseHigh], ['acceptanceMaxDays', policy.risk.acceptanceMaxDays, undefined]]);
  const spec = withoutDefaults([
    ['minInterval', formatDurationMs(policy.minIntervalMs), formatDurationMs(DEFAULT_POLICY.minIntervalMs)],
    ['maxRunsPerDay', policy.maxRunsPerDay, DEFAULT_POLICY.maxRunsPerDay],
    ['risk', isEmpty(risk) ? undefined : risk],
    ['misfireThreshold', formatDurationMs(policy.misfireThresholdMs), formatDurationMs(DEFAULT_POLICY.misfireThresholdMs)],
    ['queues', isEmpty(queues) ? undefined : queues],
    ['backfill', isEmpty(backfill) ? undefined : backfill],
    ['alerts', policy.alerts],
  ]);
  return isEmpty(spec) ? null : { apiVersion: 'cronform/v1', kind: 'Policy', metadata: { name: 'default' }, spec };
}

/** One file: the schema modeline (when a schema resolves, schema-location.ts), then the documents separated by `---`. */
export function renderManifestFile(documents: Fields[], schemaPath?: string): string {
  const body = documents.map((document) => stringify(document, { lineWidth: 0 })).join('---\n');
  return `${schemaModeline(schemaPath)}${body}`;
}

/** A file name for an owner: lowercase letters, digits and '-' (e.g. "Platform Team" → platform-team). */
export function ownerFileName(owner: string | null): string {
  const slug = (owner ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${slug || 'unowned'}.yaml`;
}

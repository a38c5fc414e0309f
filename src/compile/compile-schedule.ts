/**
 * Compile a schema-valid Schedule document into a normalized Definition (defaults applied,
 * durations in ms). Pure: it assumes validation already passed for this document.
 */
import type { GraphileWorkerQueueJob, Job, PgBossQueueJob, RetryPolicy, ScheduleManifest, SqlQueueJob, Step } from '../manifest/schema-types.js';
import type { CronExpression } from '../time/cron-parse.js';
import { minIntervalSeconds } from '../time/interval.js';
import { isStepsJob } from './step-rules.js';
import type { AllowedFailures, CompiledSchedule, Definition, EnvValue, JobDefinition, QueueArgumentSource, QueueJobDefinition, RetryDefinition, RunJobDefinition, SourceLocation, StepDefinition } from './definition.js';
import { digestOf } from './digest.js';
import { parseDurationMs } from './duration.js';
import { compileRetention } from './compile-retention.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/**
 * Default `timeout`: 90% of the schedule's shortest interval, at most 1 hour, at least 1 second.
 * A run still going when its next slot is due is almost always stuck, and a default below the
 * interval keeps the overlap policy (and plan's CF501) for schedules that really ask for it.
 */
export function defaultTimeoutMs(minIntervalMs: number): number {
  return Math.max(1000, Math.min(Math.floor((minIntervalMs * 0.9) / 1000) * 1000, HOUR_MS));
}

/** Default `gracePeriod` (SPEC §3.1): one period, at least 1 minute. */
export function defaultGracePeriodMs(minIntervalMs: number): number {
  return Math.max(minIntervalMs, MINUTE_MS);
}

function compileEnv(env: Record<string, EnvValue> | undefined): Record<string, EnvValue> {
  return { ...(env ?? {}) };
}

/** "200-299" → [200, 299]; 204 → [204, 204]. */
export function parseStatusRange(entry: string | number): [number, number] {
  if (typeof entry === 'number') return [entry, entry];
  const [low, high] = entry.split('-').map(Number) as [number, number | undefined];
  return [low, high ?? low];
}

function compileRunJob(job: ScheduleManifest['spec']['job']): RunJobDefinition {
  if (!isStepsJob(job)) return compileJob(job);
  return { type: 'steps', steps: job.steps.map(compileStep) };
}

function compileStep(step: Step): StepDefinition {
  const { name, timeout, retry, ...job } = step;
  const compiled = compileJob(job);
  // The schema's steps are command or http jobs: a queue here is a bug, not a manifest error.
  if (compiled.type === 'queue') throw new Error(`step ${JSON.stringify(name)}: a step is a command or http job`);
  return {
    name,
    ...compiled,
    ...(timeout ? { timeoutMs: parseDurationMs(timeout) } : {}),
    ...(retry ? { retry: compileRetry(retry) } : {}),
  };
}

function compileRetry(retry: RetryPolicy | undefined): RetryDefinition {
  return {
    maxAttempts: retry?.maxAttempts ?? 1,
    backoff: retry?.backoff ?? 'exponential',
    initialDelayMs: parseDurationMs(retry?.initialDelay ?? '30s'),
    maxDelayMs: parseDurationMs(retry?.maxDelay ?? '10m'),
  };
}

function compileJob(job: Job): JobDefinition {
  if (job.type === 'command') {
    return { type: 'command', command: [...job.command], cwd: job.cwd ?? '.', env: compileEnv(job.env as Record<string, EnvValue> | undefined) };
  }
  if (job.type === 'queue') return compileQueueJob(job as QueueJobManifest);
  return {
    type: 'http',
    url: job.url,
    method: job.method ?? 'POST',
    headers: compileEnv(job.headers as Record<string, EnvValue> | undefined),
    ...(job.body !== undefined ? { body: job.body } : {}),
    expectStatus: (job.expectStatus ?? ['200-299']).map(parseStatusRange),
  };
}

type QueueJobManifest = GraphileWorkerQueueJob | PgBossQueueJob | SqlQueueJob;

/** Defaults that make the queue's own retries off: cronform's `retry` decides (docs/queue-handoff.md). */
function compileQueueJob(job: QueueJobManifest): QueueJobDefinition {
  // A literal url is rejected by validation (CF040) before anything is compiled.
  const url = typeof job.url === 'object' ? { url: { fromEnv: job.url.fromEnv } } : {};
  return { ...compileQueueTarget(job), ...url };
}

function compileQueueTarget(job: QueueJobManifest): QueueJobDefinition {
  switch (job.system) {
    case 'graphile-worker':
      return {
        type: 'queue',
        system: 'graphile-worker',
        task: job.task,
        ...(job.queueName !== undefined ? { queueName: job.queueName } : {}),
        ...(job.priority !== undefined ? { priority: job.priority } : {}),
        maxAttempts: job.maxAttempts ?? 1,
      };
    case 'pg-boss':
      return { type: 'queue', system: 'pg-boss', name: job.name, options: { ...(job.options ?? {}), retryLimit: job.options?.retryLimit ?? 0 } };
    case 'sql':
      return { type: 'queue', system: 'sql', function: job.function, arguments: { ...((job.arguments ?? {}) as Record<string, QueueArgumentSource>) } };
  }
}

const METADATA_FIELDS = new Set(['name', 'description', 'owner', 'labels']);
const RENAMED_FIELDS: Record<string, string> = { timeoutMs: 'timeout', gracePeriodMs: 'gracePeriod', freshnessMs: 'freshness', jitterMs: 'jitter', initialDelayMs: 'initialDelay', maxDelayMs: 'maxDelay', runsMs: 'runs' };

/** Definition path → manifest path: `timeoutMs` → spec.timeout, `name` → metadata.name. */
export function manifestPathOf(definitionPath: string): string[] {
  const segments = definitionPath.split('.').map((segment) => RENAMED_FIELDS[segment] ?? segment);
  return METADATA_FIELDS.has(segments[0]!) ? ['metadata', ...segments] : ['spec', ...segments];
}

export interface FieldLocator {
  file: string;
  locate(path: ReadonlyArray<string | number>): { line: number; column: number };
}

/**
 * `cron` is null for a dependent without slots of its own (`spec.after` and no cron): its figures
 * (default timeout and grace period) are those of a daily schedule, the cadence most upstreams have.
 */
export function compileSchedule(manifest: ScheduleManifest, cron: CronExpression | null, doc: FieldLocator): CompiledSchedule {
  const source: SourceLocation = { file: doc.file, ...doc.locate([]) };
  const { metadata, spec } = manifest;
  const minIntervalMs = ((cron && minIntervalSeconds(cron, spec.dayMatch)) ?? 86_400) * 1000;
  const definition: Definition = {
    name: metadata.name,
    description: metadata.description ?? null,
    owner: metadata.owner ?? null,
    labels: { ...(metadata.labels ?? {}) },
    cron: spec.cron ?? null,
    timezone: spec.timezone,
    enabled: spec.enabled ?? true,
    dayMatch: spec.dayMatch ?? null,
    job: compileRunJob(spec.job),
    timeoutMs: spec.timeout ? parseDurationMs(spec.timeout) : defaultTimeoutMs(minIntervalMs),
    overlap: spec.overlap ?? 'SKIP_NEW',
    misfire: spec.misfire ?? 'RUN_ONCE',
    maxCatchUp: spec.maxCatchUp ?? 100,
    gracePeriodMs: spec.gracePeriod ? parseDurationMs(spec.gracePeriod) : defaultGracePeriodMs(minIntervalMs),
    ...(spec.freshness ? { freshnessMs: parseDurationMs(spec.freshness) } : {}),
    retry: compileRetry(spec.retry),
    onStall: spec.onStall ?? 'retry',
    priority: spec.priority ?? 'NORMAL',
    criticality: spec.criticality ?? 'MEDIUM',
    queue: spec.queue ?? 'default',
    jitterMs: parseDurationMs(spec.jitter ?? '0s'),
    dst: { gap: spec.dst?.gap ?? 'shift', fold: spec.dst?.fold ?? 'first' },
    businessDate: { offsetDays: spec.businessDate?.offsetDays ?? 0 },
    approval: spec.approval ?? 'none',
    payload: (spec.payload ?? {}) as Record<string, unknown>,
    ...(spec.allowedFailures === undefined ? {} : { allowedFailures: compileAllowedFailures(spec.allowedFailures) }),
    ...(spec.safety ? { safety: { maxAffected: spec.safety.maxAffected } } : {}),
    ...(spec.after ? { after: spec.after.map((entry) => ({ schedule: entry.schedule, status: entry.status ?? 'SUCCESS' })) } : {}),
    ...(spec.inputs ? { inputs: { ...spec.inputs } } : {}),
    ...(spec.retention ? { retention: compileRetention(spec.retention) } : {}),
  };
  // Definitions are never changed after compile, so the digest can wait for its first reader: plan
  // and apply read it, validate never does (and it was a fifth of validate's time for 10,000).
  let digest: string | undefined;
  return {
    definition,
    get digest() {
      digest ??= digestOf(definition);
      return digest;
    },
    intervalLike: cron?.intervalLike ?? false,
    minIntervalMs,
    previousName: metadata.previousName ?? null,
    riskAccepted: (metadata.riskAccepted ?? []).map((r) => ({ code: r.code, reason: r.reason, until: r.until })),
    source,
    // `job.steps.2.url`: a numeric segment is a list index in the document (the steps, argv).
    locateField: (definitionPath) => ({ file: doc.file, ...doc.locate(manifestPathOf(definitionPath).map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment))) }),
  };
}

/** `10` or `"1.5%"` (the schema has checked the form and the 0–100 range). */
function compileAllowedFailures(value: number | string): AllowedFailures {
  return typeof value === 'number' ? { count: value } : { percent: Number(value.slice(0, -1)) };
}

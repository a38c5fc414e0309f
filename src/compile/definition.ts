/**
 * The compiled, normalized form of a schedule: defaults applied, durations in milliseconds.
 * This is what is stored (one row per version in `schedule_versions`) and what the runner reads.
 */
export type Overlap = 'ALLOW' | 'SKIP_NEW' | 'QUEUE_NEW';
export type Misfire = 'SKIP' | 'RUN_ONCE' | 'CATCH_UP_ALL' | 'MANUAL';
export type Priority = 'CRITICAL' | 'HIGH' | 'NORMAL' | 'LOW';
export type Criticality = 'CRITICAL' | 'HIGH' | 'MEDIUM' | 'LOW';
export type OnStall = 'retry' | 'fail' | 'manual';

export type SecretRef = { fromEnv: string };
export type EnvValue = string | SecretRef;

export interface CommandJobDefinition {
  type: 'command';
  command: string[];
  cwd: string;
  env: Record<string, EnvValue>;
}

export interface HttpJobDefinition {
  type: 'http';
  url: string;
  method: string;
  headers: Record<string, EnvValue>;
  body?: unknown;
  /** Inclusive status ranges, e.g. [[200, 299]]. */
  expectStatus: Array<[number, number]>;
}

/**
 * A job handed to a queue a team already has (docs/queue-handoff.md): the run is enqueued, and the
 * queue's worker reports back through cronform's SQL functions. Only names and options are stored;
 * the queue job's payload is built from the run when it is handed off.
 */
export type QueueJobDefinition = GraphileWorkerQueueJobDefinition | PgBossQueueJobDefinition | SqlQueueJobDefinition;
export type QueueSystem = QueueJobDefinition['system'];

/**
 * Where the queue lives when it is not in cronform's database: the runner's environment variable
 * holding its URL (a URL carries credentials, so never the URL itself). Absent: cronform's database,
 * and the hand-off is one transaction with the run's state change.
 */
export interface QueueDatabaseRef {
  url?: { fromEnv: string };
}

export interface GraphileWorkerQueueJobDefinition extends QueueDatabaseRef {
  type: 'queue';
  system: 'graphile-worker';
  task: string;
  queueName?: string;
  priority?: number;
  /** graphile-worker's own attempts of the job (default 1: cronform's retry policy owns retries). */
  maxAttempts: number;
}

export interface PgBossQueueJobDefinition extends QueueDatabaseRef {
  type: 'queue';
  system: 'pg-boss';
  name: string;
  options: { priority?: number; retryLimit: number; retryDelay?: number; retryBackoff?: boolean; expireInSeconds?: number };
}

/** What a `sql` queue job's named argument receives: a field of the queue payload, or all of it (`document`). */
export const QUEUE_ARGUMENT_SOURCES = ['document', 'scheduleRunId', 'attempt', 'idempotencyKey', 'schedule', 'businessDate', 'scheduledFor', 'trigger', 'payload'] as const;
export type QueueArgumentSource = (typeof QUEUE_ARGUMENT_SOURCES)[number];

export interface SqlQueueJobDefinition extends QueueDatabaseRef {
  type: 'queue';
  system: 'sql';
  /** Schema-qualified, lower-case identifier (`app.enqueue_report`); quoted as identifiers, never spliced. */
  function: string;
  /** Named arguments; empty: one positional jsonb argument, the whole queue payload. */
  arguments: Record<string, QueueArgumentSource>;
}

export type JobDefinition = CommandJobDefinition | HttpJobDefinition | QueueJobDefinition;

/**
 * One step of a workflow (`spec.job.steps[i]`): a command or http job (a step is run by the runner,
 * never handed to a queue) plus its name, and its own timeout and retry
 * when the manifest sets them (absent: the attempt's remaining time, no retry inside the attempt).
 */
export type StepDefinition = (CommandJobDefinition | HttpJobDefinition) & { name: string; timeoutMs?: number; retry?: RetryDefinition };

/** A workflow: steps run in order; a retried run resumes at the first step that did not succeed. */
export interface StepsJobDefinition {
  type: 'steps';
  steps: StepDefinition[];
}

/** What a run executes: one job, or steps. */
export type RunJobDefinition = JobDefinition | StepsJobDefinition;

/**
 * The jobs a definition runs, each with the Definition path of its fields (`job`, or
 * `job.steps.2`) and its step name (null for a single job). What a plan judges and shows, what
 * the runner checks secrets of: one list, so no reader forgets the steps.
 */
export function executableJobsOf(job: RunJobDefinition): Array<{ path: string; stepName: string | null; job: JobDefinition }> {
  if (job.type === 'steps') return job.steps.map((step, index) => ({ path: `job.steps.${index}`, stepName: step.name, job: step }));
  return [{ path: 'job', stepName: null, job }];
}

export interface RetryDefinition {
  maxAttempts: number;
  backoff: 'fixed' | 'exponential';
  initialDelayMs: number;
  maxDelayMs: number;
}

export interface Definition {
  name: string;
  description: string | null;
  owner: string | null;
  labels: Record<string, string>;
  /** Null for a dependent without its own slots (`spec.after` and no cron): it runs when its upstream succeeds. */
  cron: string | null;
  timezone: string;
  enabled: boolean;
  dayMatch: 'any' | 'all' | null;
  job: RunJobDefinition;
  timeoutMs: number;
  overlap: Overlap;
  misfire: Misfire;
  maxCatchUp: number;
  gracePeriodMs: number;
  /** `spec.freshness`: alert when the last success is older. Only when set, so stored definitions keep their digest. */
  freshnessMs?: number;
  retry: RetryDefinition;
  onStall: OnStall;
  priority: Priority;
  criticality: Criticality;
  queue: string;
  jitterMs: number;
  dst: { gap: 'shift' | 'skip'; fold: 'first' | 'second' | 'both' };
  businessDate: { offsetDays: number };
  approval: 'none' | 'required';
  payload: Record<string, unknown>;
  /** `spec.allowedFailures` (SPEC §8a). Only when set, so stored definitions keep their digest. */
  allowedFailures?: AllowedFailures;
  /** `spec.safety` (SPEC §8a). Only when set, so stored definitions keep their digest. */
  safety?: { maxAffected: number };
  /**
   * `spec.after`: upstream schedules whose SUCCESS creates one DEPENDENCY run of this one (docs/workflows.md).
   * Only when set, so stored definitions without it keep their digest.
   */
  after?: DependencyDefinition[];
  /** `spec.inputs`: templates evaluated once per run from its context and frozen (docs/workflows.md). Only when set. */
  inputs?: Record<string, string>;
  /** `spec.retention`: overrides the Policy's, field by field. Only when set, so stored definitions keep their digest. */
  retention?: RetentionOverride;
}

/** Exactly one of the two: failed items allowed as a count, or as a percent (0–100) of the run's items. */
export interface AllowedFailures {
  count?: number;
  percent?: number;
}

export interface DependencyDefinition {
  schedule: string;
  status: 'SUCCESS';
}

/**
 * Run retention (README "Retention"): a finished run is deleted once its slot is older than
 * `runsMs`, except a schedule's latest `keepLast` runs. Daily rollups keep what `report` counts.
 */
export interface RetentionDefinition {
  runsMs: number;
  keepLast: number;
}

export type RetentionOverride = Partial<RetentionDefinition>;

/** The latest runs of a schedule kept whatever their age, when neither Policy nor schedule says. */
export const DEFAULT_RETENTION_KEEP_LAST = 100;

/**
 * The shortest `runs` retention accepted (CF037): `status` and the dashboard read the success rate
 * and start delays of the last 7 days from the runs themselves, so no run they count is ever deleted.
 */
export const MIN_RETENTION_MS = 7 * 86_400_000;

/** A schedule's retention in force: its own fields over the Policy's; null when runs are kept forever. */
export function effectiveRetention(policy: RetentionOverride | undefined, schedule: RetentionOverride | undefined): RetentionDefinition | null {
  const runsMs = schedule?.runsMs ?? policy?.runsMs;
  if (runsMs === undefined) return null;
  return { runsMs, keepLast: schedule?.keepLast ?? policy?.keepLast ?? DEFAULT_RETENTION_KEEP_LAST };
}

/**
 * The fields of a Definition that decide when it fires: all the repository-wide figures (runs per
 * day, minute load) need, so a plan can load just these for the schedules it does not change. The
 * timing cache takes the same fields as its own `ScheduleTiming` (time/timing-cache.ts), which
 * time declares itself because it sits below compile.
 */
export type DefinitionTiming = Pick<Definition, 'name' | 'cron' | 'timezone' | 'enabled' | 'dayMatch' | 'dst'>;

export interface RiskAcceptance {
  code: string;
  reason: string;
  until: string;
}

export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

export interface CompiledSchedule {
  definition: Definition;
  /** Digest of `definition` (formatting, comments and key order do not change it). */
  digest: string;
  /** Hour field is `*`: fires at every real instant whose local time matches. */
  intervalLike: boolean;
  /** Shortest designed distance between slots. */
  minIntervalMs: number;
  /** Declared rename: the schedule was called this before (history is kept). */
  previousName: string | null;
  riskAccepted: RiskAcceptance[];
  source: SourceLocation;
  /**
   * Where a Definition path (`cron`, `timeoutMs`, `job.env.TOKEN`…) is written in the manifest;
   * a defaulted field resolves to its nearest written ancestor. Used by plan findings.
   */
  locateField: (definitionPath: string) => SourceLocation;
}

export interface QueueLimits {
  concurrency: number;
}

/** A receiver of alerts (Policy `alerts.targets`); a fromEnv url is read by the runner when it sends. */
export interface AlertTargetDefinition {
  name: string;
  type: 'webhook' | 'slack';
  url: string | SecretRef;
}

export interface PolicyDefinition {
  minIntervalMs: number;
  maxRunsPerDay: number;
  /** acceptanceMaxDays: only when the Policy sets it (absent: 90 days), so stored Policies without it keep their digest. */
  risk: { runsPerDayIncreaseHigh: number; acceptanceMaxDays?: number };
  misfireThresholdMs: number;
  queues: Record<string, QueueLimits>;
  backfill: { concurrency: number; priority: Priority };
  /** Only when the Policy sets it, so stored Policies without alerts keep their digest. */
  alerts?: { targets: AlertTargetDefinition[] };
  /** Only when the Policy sets it (absent: runs kept forever), so stored Policies without it keep their digest. */
  retention?: RetentionOverride;
  /** Where the Policy came from; null when the built-in defaults apply. */
  source: SourceLocation | null;
}

export const DEFAULT_POLICY: PolicyDefinition = {
  minIntervalMs: 60_000,
  maxRunsPerDay: 1440,
  risk: { runsPerDayIncreaseHigh: 10 },
  misfireThresholdMs: 60_000,
  queues: { default: { concurrency: 5 } },
  backfill: { concurrency: 2, priority: 'LOW' },
  source: null,
};

/** Days a risk acceptance's `until` may reach ahead when the Policy does not say (`risk.acceptanceMaxDays`). */
export const DEFAULT_ACCEPTANCE_MAX_DAYS = 90;

export function acceptanceMaxDaysOf(policy: Pick<PolicyDefinition, 'risk'>): number {
  return policy.risk.acceptanceMaxDays ?? DEFAULT_ACCEPTANCE_MAX_DAYS;
}

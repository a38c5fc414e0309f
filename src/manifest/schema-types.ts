// Generated from schema/cronform.schema.json by `npm run gen:types`: edit the schema, never this file.

/**
 * One cronform manifest document (apiVersion cronform/v1): a Schedule or the repository's Policy. Semantic rules (cron syntax, IANA time zones, policy contradictions, secrets) are checked by `cronform validate`, not by this schema.
 */
export type CronformManifest = ScheduleManifest | PolicyManifest;
/**
 * Manifest format version.
 */
export type ApiVersion = "cronform/v1";
/**
 * What a run executes: one job (type command or http), or steps (a workflow), never both.
 */
export type ScheduleJob = StepsJob | Job;
/**
 * One step of a workflow: a command or http job with a name.
 */
export type Step = CommandStep | HttpStep;
/**
 * argv: program and arguments, no shell. Arguments may use {{businessDate}}.
 *
 * @minItems 1
 */
export type Command = [string, ...string[]];
/**
 * A literal non-secret string, or { fromEnv: NAME } for a secret.
 */
export type StringOrSecretRef = string | SecretRef;
/**
 * Status codes that count as success: codes such as 204 or ranges such as "200-299".
 *
 * @minItems 1
 */
export type ExpectStatus = [number | string, ...(number | string)[]];
/**
 * What a run executes.
 */
export type Job = CommandJob | HttpJob | QueueJob;
/**
 * Hands the run to a queue a team already has (graphile-worker, pg-boss or a SQL function); the worker reports back through cronform's SQL functions or the cronform/worker helper.
 */
export type QueueJob = QueueJob1 & QueueJob2;
export type QueueJob1 = GraphileWorkerQueueJob | PgBossQueueJob | SqlQueueJob;

/**
 * A scheduled job.
 */
export interface ScheduleManifest {
  apiVersion: ApiVersion;
  /**
   * Document kind.
   */
  kind: "Schedule";
  metadata: ScheduleMetadata;
  spec: ScheduleSpec;
}
/**
 * Identity and ownership of a schedule.
 */
export interface ScheduleMetadata {
  /**
   * Schedule name, unique in the repository.
   */
  name: string;
  /**
   * What the schedule does, for humans.
   */
  description?: string;
  /**
   * Team or person responsible for the schedule.
   */
  owner?: string;
  labels?: Labels;
  /**
   * The schedule's former name: declares a rename, so history is kept.
   */
  previousName?: string;
  /**
   * Plan risk findings accepted for this schedule.
   */
  riskAccepted?: RiskAcceptance[];
}
/**
 * Free-form string labels, e.g. { team: platform }.
 */
export interface Labels {
  [k: string]: string;
}
/**
 * An accepted plan risk finding: shown as accepted in plans, never hidden.
 */
export interface RiskAcceptance {
  /**
   * The finding code accepted, e.g. CF101.
   */
  code: string;
  /**
   * Why the risk is accepted.
   */
  reason: string;
  /**
   * Last day (YYYY-MM-DD) the acceptance holds.
   */
  until: string;
}
/**
 * When and how a schedule runs.
 */
export interface ScheduleSpec {
  /**
   * Cron expression: 5 fields, or 6 with seconds first; or @hourly, @daily, @weekly, @monthly, @yearly. Required unless spec.after is set; with spec.after it is a deadline.
   */
  cron?: string;
  /**
   * IANA time zone in which the cron expression is evaluated, e.g. Asia/Seoul. Never the server's zone.
   */
  timezone: string;
  /**
   * false keeps history and stops scheduling.
   */
  enabled?: boolean;
  /**
   * Required when both day-of-month and day-of-week are restricted: any fires when either matches (classic cron), all when both match.
   */
  dayMatch?: "any" | "all";
  job: ScheduleJob;
  /**
   * Maximum runtime of one attempt (= maxRuntime); the attempt's whole process group is killed after it (SIGTERM, then SIGKILL). Default: 90% of the shortest interval between slots, at most 1h.
   */
  timeout?: string;
  /**
   * What a slot does while a run of this schedule is active.
   */
  overlap?: "ALLOW" | "SKIP_NEW" | "QUEUE_NEW";
  /**
   * What happens to slots missed while no runner was processing them.
   */
  misfire?: "SKIP" | "RUN_ONCE" | "CATCH_UP_ALL" | "MANUAL";
  /**
   * Cap on runs created by CATCH_UP_ALL for one outage.
   */
  maxCatchUp?: number;
  /**
   * A slot later than this is never run automatically. Default: one period of the schedule, at least 1m.
   */
  gracePeriod?: string;
  /**
   * Freshness SLO: an alert fires when the last successful run is older than this, e.g. 26h for a daily job. Unset: no freshness alert.
   */
  freshness?: string;
  retention?: Retention;
  retry?: RetryPolicy2;
  /**
   * What an expired lease (a runner that stopped heartbeating) leads to.
   */
  onStall?: "retry" | "fail" | "manual";
  /**
   * Claim order among due runs: CRITICAL first, LOW last.
   */
  priority?: "CRITICAL" | "HIGH" | "NORMAL" | "LOW";
  /**
   * How loudly failures and missed starts alert.
   */
  criticality?: "CRITICAL" | "HIGH" | "MEDIUM" | "LOW";
  /**
   * Concurrency group; its limit comes from the Policy.
   */
  queue?: string;
  /**
   * Maximum start delay, deterministic per (schedule, slot), never past the next slot.
   */
  jitter?: string;
  dst?: DstPolicy;
  businessDate?: BusinessDate;
  /**
   * required: runs wait in MANUAL_REQUIRED until approved.
   */
  approval?: "none" | "required";
  /**
   * Small, non-secret JSON handed to the job (CRONFORM_PAYLOAD).
   */
  payload?: {
    [k: string]: unknown;
  };
  /**
   * Failed items (reported by the job with cronform progress) a run may have and still end PARTIAL_SUCCESS instead of FAILED: a count (10) or a percent of the run's items ("1%"). Unset: none.
   */
  allowedFailures?: number | string;
  safety?: Safety;
  /**
   * Upstream schedules, at most 10, each named once. One upstream: each of its SUCCESS runs creates exactly one DEPENDENCY run of this schedule, with its business date. Several (a join): one DEPENDENCY run per business date, once every upstream has a SUCCESS run for that date. Without cron the schedule has no slots of its own; with cron, each slot is a deadline.
   *
   * @minItems 1
   * @maxItems 10
   */
  after?:
    | [Dependency]
    | [Dependency, Dependency]
    | [Dependency, Dependency, Dependency]
    | [Dependency, Dependency, Dependency, Dependency]
    | [Dependency, Dependency, Dependency, Dependency, Dependency]
    | [Dependency, Dependency, Dependency, Dependency, Dependency, Dependency]
    | [Dependency, Dependency, Dependency, Dependency, Dependency, Dependency, Dependency]
    | [Dependency, Dependency, Dependency, Dependency, Dependency, Dependency, Dependency, Dependency]
    | [Dependency, Dependency, Dependency, Dependency, Dependency, Dependency, Dependency, Dependency, Dependency]
    | [
        Dependency,
        Dependency,
        Dependency,
        Dependency,
        Dependency,
        Dependency,
        Dependency,
        Dependency,
        Dependency,
        Dependency
      ];
  /**
   * Values computed once per run from its context and frozen (identical on every retry): templates such as "{{businessDate}}" or "{{businessDate - 7d}}". Jobs receive them as CRONFORM_INPUTS (JSON) and {{inputs.NAME}}.
   */
  inputs?: {
    [k: string]: string;
  };
}
/**
 * A workflow: steps run in order, each a command or http job; a retried run resumes at the first step that did not succeed (docs/workflows.md).
 */
export interface StepsJob {
  /**
   * The steps, run in order; names unique.
   *
   * @minItems 1
   * @maxItems 50
   */
  steps: [Step, ...Step[]];
}
/**
 * One step of a workflow that runs a program directly (argv, no shell): a command job plus its name, and optionally its own timeout and retry.
 */
export interface CommandStep {
  /**
   * Step name, unique in the schedule; later steps read its result as {{steps.<name>.output.<key>}}.
   */
  name: string;
  /**
   * Executor kind.
   */
  type: "command";
  command: Command;
  /**
   * Working directory, relative to the repository root.
   */
  cwd?: string;
  env?: Env;
  /**
   * Maximum runtime of this step; only its own process group is killed after it. At most the schedule's timeout, which stays the budget of the whole attempt.
   */
  timeout?: string;
  retry?: RetryPolicy;
}
/**
 * Extra environment variables: literal non-secret strings, or { fromEnv: NAME } for secrets.
 */
export interface Env {
  [k: string]: StringOrSecretRef;
}
/**
 * A secret passed by reference: the value is read from this environment variable of the runner when the job starts, never stored in the manifest or the database.
 */
export interface SecretRef {
  /**
   * Name of the runner's environment variable holding the value.
   */
  fromEnv: string;
}
/**
 * Retries of this step inside one attempt, before the attempt fails at it.
 */
export interface RetryPolicy {
  /**
   * Attempts per run, including the first.
   */
  maxAttempts?: number;
  /**
   * Delay growth between attempts.
   */
  backoff?: "fixed" | "exponential";
  /**
   * Delay before the first retry.
   */
  initialDelay?: string;
  /**
   * Upper bound of the delay between attempts.
   */
  maxDelay?: string;
}
/**
 * One step of a workflow that sends one HTTP request: an http job plus its name, and optionally its own timeout and retry.
 */
export interface HttpStep {
  /**
   * Step name, unique in the schedule; later steps read its result as {{steps.<name>.output.<key>}}.
   */
  name: string;
  /**
   * Executor kind.
   */
  type: "http";
  /**
   * Absolute URL to call.
   */
  url: string;
  /**
   * HTTP method.
   */
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  headers?: Headers;
  /**
   * Request body: a string sent as is, or an object sent as JSON.
   */
  body?:
    | string
    | {
        [k: string]: unknown;
      };
  expectStatus?: ExpectStatus;
  /**
   * Maximum runtime of this step. At most the schedule's timeout, which stays the budget of the whole attempt.
   */
  timeout?: string;
  retry?: RetryPolicy1;
}
/**
 * Request headers: literal non-secret strings, or { fromEnv: NAME } for secrets.
 */
export interface Headers {
  [k: string]: StringOrSecretRef;
}
/**
 * Retries of this step inside one attempt, before the attempt fails at it.
 */
export interface RetryPolicy1 {
  /**
   * Attempts per run, including the first.
   */
  maxAttempts?: number;
  /**
   * Delay growth between attempts.
   */
  backoff?: "fixed" | "exponential";
  /**
   * Delay before the first retry.
   */
  initialDelay?: string;
  /**
   * Upper bound of the delay between attempts.
   */
  maxDelay?: string;
}
/**
 * Runs a program directly (argv, no shell).
 */
export interface CommandJob {
  /**
   * Executor kind.
   */
  type: "command";
  command: Command;
  /**
   * Working directory, relative to the repository root.
   */
  cwd?: string;
  env?: Env;
}
/**
 * Sends one HTTP request; the run succeeds when the status matches expectStatus.
 */
export interface HttpJob {
  /**
   * Executor kind.
   */
  type: "http";
  /**
   * Absolute URL to call.
   */
  url: string;
  /**
   * HTTP method.
   */
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  headers?: Headers;
  /**
   * Request body: a string sent as is, or an object sent as JSON.
   */
  body?:
    | string
    | {
        [k: string]: unknown;
      };
  expectStatus?: ExpectStatus;
}
/**
 * Hands the run to graphile-worker: one job added with graphile_worker.add_job, keyed by the run's idempotency key.
 */
export interface GraphileWorkerQueueJob {
  /**
   * Executor kind.
   */
  type: "queue";
  /**
   * The queue that receives the run.
   */
  system: "graphile-worker";
  /**
   * The queue's database, when it is not cronform's: { fromEnv: NAME }, the runner's environment variable holding its connection URL (never a literal: a URL carries credentials). The hand-off is then an outbox keyed by the job key (docs/queue-handoff.md).
   */
  url?: string | SecretRef;
  /**
   * graphile-worker task identifier that the job runs.
   */
  task: string;
  /**
   * graphile-worker named queue (jobs in one named queue run one at a time).
   */
  queueName?: string;
  /**
   * graphile-worker priority: lower runs first.
   */
  priority?: number;
  /**
   * graphile-worker attempts of the job itself (default 1: cronform's retry policy owns retries).
   */
  maxAttempts?: number;
}
/**
 * Hands the run to pg-boss: one job sent with send(), with singletonKey and a job id derived from the run's idempotency key.
 */
export interface PgBossQueueJob {
  /**
   * Executor kind.
   */
  type: "queue";
  /**
   * The queue that receives the run.
   */
  system: "pg-boss";
  /**
   * The queue's database, when it is not cronform's: { fromEnv: NAME }, the runner's environment variable holding its connection URL (never a literal: a URL carries credentials). The hand-off is then an outbox keyed by the job key (docs/queue-handoff.md).
   */
  url?: string | SecretRef;
  /**
   * pg-boss queue name (created beforehand with createQueue).
   */
  name: string;
  /**
   * pg-boss send options.
   */
  options?: {
    /**
     * Higher runs first.
     */
    priority?: number;
    /**
     * pg-boss retries of the job itself (default 0: cronform's retry policy owns retries).
     */
    retryLimit?: number;
    /**
     * Seconds between pg-boss retries.
     */
    retryDelay?: number;
    /**
     * Exponential backoff between pg-boss retries.
     */
    retryBackoff?: boolean;
    /**
     * pg-boss expiry of an active job.
     */
    expireInSeconds?: number;
  };
}
/**
 * Hands the run to a home-grown queue: calls one schema-qualified SQL function with bound parameters only.
 */
export interface SqlQueueJob {
  /**
   * Executor kind.
   */
  type: "queue";
  /**
   * The queue that receives the run.
   */
  system: "sql";
  /**
   * The queue's database, when it is not cronform's: { fromEnv: NAME }, the runner's environment variable holding its connection URL (never a literal: a URL carries credentials). The hand-off is then an outbox keyed by the job key (docs/queue-handoff.md).
   */
  url?: string | SecretRef;
  /**
   * Schema-qualified function to call, e.g. app.enqueue_report. It runs with the runner's database role: review it like code.
   */
  function: string;
  /**
   * Named arguments (function parameter name: run value). Without it the function gets one jsonb argument: the whole queue payload.
   */
  arguments?: {
    [k: string]:
      | "document"
      | "scheduleRunId"
      | "attempt"
      | "idempotencyKey"
      | "schedule"
      | "businessDate"
      | "scheduledFor"
      | "trigger"
      | "payload";
  };
}
export interface QueueJob2 {
  /**
   * Executor kind.
   */
  type: "queue";
  /**
   * The queue that receives the run.
   */
  system: "graphile-worker" | "pg-boss" | "sql";
  [k: string]: unknown;
}
/**
 * This schedule's run retention; fields left out come from the Policy's retention.
 */
export interface Retention {
  /**
   * Age (by slot) after which a finished run is deleted, at least 7d, e.g. 90d.
   */
  runs?: string;
  /**
   * The latest this many runs of each schedule are always kept, however old.
   */
  keepLast?: number;
}
/**
 * How failed attempts are retried.
 */
export interface RetryPolicy2 {
  /**
   * Attempts per run, including the first.
   */
  maxAttempts?: number;
  /**
   * Delay growth between attempts.
   */
  backoff?: "fixed" | "exponential";
  /**
   * Delay before the first retry.
   */
  initialDelay?: string;
  /**
   * Upper bound of the delay between attempts.
   */
  maxDelay?: string;
}
/**
 * What a fixed-time schedule does on DST transitions (interval-like schedules ignore it).
 */
export interface DstPolicy {
  /**
   * A local time skipped by DST: shift fires at the same wall time shifted by the gap (02:30 -> 03:30); skip has no slot that day.
   */
  gap?: "shift" | "skip";
  /**
   * A local time repeated by DST: fire at its first occurrence, its second, or both.
   */
  fold?: "first" | "second" | "both";
}
/**
 * The business date handed to the job, computed from the slot in the schedule's timezone when the run is created.
 */
export interface BusinessDate {
  /**
   * Days added to the slot's local date, e.g. -1 for yesterday.
   */
  offsetDays?: number;
}
/**
 * Guards for destructive jobs: a real run whose job asks (cronform guard --affects N) or reports (cronform progress --would-affect N) more than maxAffected waits in MANUAL_REQUIRED for approve.
 */
export interface Safety {
  /**
   * Most rows, files or records one run may affect without approval.
   */
  maxAffected: number;
}
/**
 * One upstream schedule this schedule runs after.
 */
export interface Dependency {
  /**
   * metadata.name of the upstream schedule.
   */
  schedule: string;
  /**
   * The upstream outcome that triggers this schedule.
   */
  status?: "SUCCESS";
}
/**
 * Repository-wide limits and defaults; at most one per repository.
 */
export interface PolicyManifest {
  apiVersion: ApiVersion;
  /**
   * Document kind.
   */
  kind: "Policy";
  metadata: PolicyMetadata;
  spec: PolicySpec;
}
/**
 * Identity of the policy.
 */
export interface PolicyMetadata {
  /**
   * Policy name, e.g. default.
   */
  name: string;
  /**
   * What the policy is for, for humans.
   */
  description?: string;
  /**
   * Team or person responsible for the policy.
   */
  owner?: string;
  labels?: Labels;
}
/**
 * Repository-wide limits and defaults.
 */
export interface PolicySpec {
  /**
   * Smallest allowed interval between two slots of a schedule.
   */
  minInterval?: string;
  /**
   * Most runs per local day allowed for one schedule.
   */
  maxRunsPerDay?: number;
  risk?: RiskThresholds;
  /**
   * A slot processed later than this counts as missed.
   */
  misfireThreshold?: string;
  /**
   * Queues by name with their limits.
   */
  queues?: {
    [k: string]: QueueLimits;
  };
  backfill?: BackfillPolicy;
  retention?: Retention1;
  alerts?: AlertsPolicy;
}
/**
 * Thresholds of plan risk findings.
 */
export interface RiskThresholds {
  /**
   * Ratio of runs per day after/before a change that makes it HIGH risk.
   */
  runsPerDayIncreaseHigh?: number;
  /**
   * How many days ahead a risk acceptance's until may be (metadata.riskAccepted); a later date is a validation error (CF034).
   */
  acceptanceMaxDays?: number;
}
/**
 * Limits of one queue.
 */
export interface QueueLimits {
  /**
   * Runs of this queue executing at once, across all runners.
   */
  concurrency: number;
}
/**
 * Limits of backfill runs.
 */
export interface BackfillPolicy {
  /**
   * Backfill runs executing at once.
   */
  concurrency?: number;
  /**
   * Claim order among due runs: CRITICAL first, LOW last.
   */
  priority?: "CRITICAL" | "HIGH" | "NORMAL" | "LOW";
}
/**
 * Run retention of every schedule; a schedule's spec.retention overrides it field by field. Unset: runs are kept forever.
 */
export interface Retention1 {
  /**
   * Age (by slot) after which a finished run is deleted, at least 7d, e.g. 90d.
   */
  runs?: string;
  /**
   * The latest this many runs of each schedule are always kept, however old.
   */
  keepLast?: number;
}
/**
 * Where alerts go; which rules fire comes from each schedule's criticality (README, Alerts).
 */
export interface AlertsPolicy {
  /**
   * Receivers of every alert, names unique.
   */
  targets: AlertTarget[];
}
/**
 * A receiver of alerts: cronform's JSON webhook or a Slack incoming webhook (README, Alerts).
 */
export interface AlertTarget {
  /**
   * A DNS-label-like name: lowercase letters, digits and '-', starting and ending with a letter or digit, at most 63 characters.
   */
  name: string;
  /**
   * Payload format: webhook (cronform's JSON) or slack (incoming-webhook format).
   */
  type: "webhook" | "slack";
  /**
   * An http(s) URL, or { fromEnv: NAME } to read it from the runner's environment (a Slack webhook URL is a credential: prefer fromEnv).
   */
  url: string | SecretRef;
}

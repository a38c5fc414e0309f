/**
 * `status`: one line per active schedule (SPEC §7 operations, §8): last result, next slot, success
 * rate and p95 start delay over the last 7 days, runs today, pause, overdue; then the runners and
 * whether any is alive (liveness.ts says how each is judged). "Today" is the current UTC day:
 * schedules live in many zones, and one fixed day for all keeps the column comparable.
 */
import { DEFAULT_POLICY } from '../../compile/definition.js';
import type { StatementDatabase } from '../../db/client.js';
import { listHandedOffRuns, listRecentRunners, summarizeScheduleStatus, type SchedulePage } from '../../db/run-report-queries.js';
import { readStoredPolicy } from '../../db/settings-queries.js';
import { MS_PER_DAY } from '../../time/civil.js';
import { classifyRunner, DEFAULT_RUNNER_STALE_AFTER_MS, evaluateHealth, findOverdue, type HealthCheck, type Overdue, type RunnerState } from './liveness.js';

export const STATUS_WINDOW_DAYS = 7;
/** Runners stopped or silent for longer than this are history: not listed. */
const RUNNER_HISTORY_MS = MS_PER_DAY;
const MAX_RUNNERS_LISTED = 50;

export interface ScheduleStatusEntry {
  name: string;
  enabled: boolean;
  criticality: string;
  cron: string;
  timezone: string;
  description: string | null;
  /** Runs wait in MANUAL_REQUIRED until approved (`approval: required`). */
  approvalRequired: boolean;
  /** The latest run that executed to an end (SUCCESS, FAILED or CANCELLED). */
  lastResult: { runId: number; status: string; scheduledFor: string; finishedAt: string | null } | null;
  nextRunAt: string | null;
  /** SUCCESS / (SUCCESS + FAILED) of runs finished in the window; null when none finished. */
  successRate: number | null;
  finishedRuns: number;
  /** p95 of started_at − scheduled_for of SCHEDULED runs started in the window (first attempts). */
  p95StartDelayMs: number | null;
  /** Runs whose slot falls on the current UTC day. */
  runsToday: number;
  activeRuns: number;
  paused: { at: string; by: string | null; reason: string | null; until: string | null } | null;
  /** A slot not turned into a run, or a run not started, longer than `overdueAfterMs` after it was due. */
  overdue: Overdue | null;
}

export interface RunnerEntry {
  id: string;
  hostname: string;
  pid: number;
  version: string;
  startedAt: string;
  heartbeatAt: string;
  heartbeatAgeMs: number;
  stoppedAt: string | null;
  runsInFlight: number;
  state: RunnerState;
}

export interface ScheduleStatusReport {
  generatedAt: string;
  windowDays: number;
  utcDay: string;
  schedules: ScheduleStatusEntry[];
  /** Not stopped, or heard from in the last day; latest heartbeat first. */
  runners: RunnerEntry[];
  aliveRunners: number;
  staleAfterMs: number;
  overdueAfterMs: number;
  /** What `status --check` judges. */
  health: HealthCheck;
  /** Runs handed to an external queue and not finished (docs/queue-handoff.md), oldest first, at most MAX_HANDED_OFF_LISTED. */
  handedOff?: HandedOffEntry[];
}

export interface HandedOffEntry {
  runId: number;
  schedule: string;
  attempt: number;
  system: string;
  target: string;
  /** The queue's id of the job. */
  externalJobId: string | null;
  handedOffAt: string;
  /** The worker's last report (start or heartbeat); null while the job waits in the queue. */
  lastReportAt: string | null;
  /** When the reconciler applies onStall unless the worker reports. */
  leaseExpiresAt: string | null;
}

const MAX_HANDED_OFF_LISTED = 50;

export interface StatusOptions {
  nowMs: number;
  /** A runner silent for longer is not alive (default 90 s). */
  staleAfterMs?: number | undefined;
  /** Lateness that makes a slot overdue (default: the stored Policy's misfireThreshold). */
  overdueAfterMs?: number | undefined;
  /** One page of schedules by name; absent: all of them. */
  page?: SchedulePage | undefined;
  /** Stats from each schedule's latest this many slots only (bounded work per schedule); absent: all in the window. */
  recentRunsCap?: number | undefined;
}

export async function readScheduleStatus(database: StatementDatabase, options: StatusOptions): Promise<ScheduleStatusReport> {
  const { nowMs } = options;
  const dayStartMs = Math.floor(nowMs / MS_PER_DAY) * MS_PER_DAY;
  const staleAfterMs = options.staleAfterMs ?? DEFAULT_RUNNER_STALE_AFTER_MS;
  const [rows, runnerRows, policy, handedOffRows] = await Promise.all([
    summarizeScheduleStatus(database.db, {
      statsSince: new Date(nowMs - STATUS_WINDOW_DAYS * MS_PER_DAY),
      dayStart: new Date(dayStartMs),
      dayEnd: new Date(dayStartMs + MS_PER_DAY),
      page: options.page,
      recentRunsCap: options.recentRunsCap,
    }),
    listRecentRunners(database.db, new Date(nowMs - RUNNER_HISTORY_MS), MAX_RUNNERS_LISTED),
    options.overdueAfterMs === undefined ? readStoredPolicy(database.db) : Promise.resolve(null),
    listHandedOffRuns(database.db, MAX_HANDED_OFF_LISTED),
  ]);
  const handedOff: HandedOffEntry[] = handedOffRows.map((row) => ({
    runId: row.runId,
    schedule: row.schedule,
    attempt: row.attempt,
    system: row.system,
    target: row.target,
    externalJobId: row.externalJobId,
    handedOffAt: row.handedOffAt.toISOString(),
    lastReportAt: row.lastReportAt?.toISOString() ?? null,
    leaseExpiresAt: row.leaseExpiresAt?.toISOString() ?? null,
  }));
  const overdueAfterMs = options.overdueAfterMs ?? policy?.policy.misfireThresholdMs ?? DEFAULT_POLICY.misfireThresholdMs;
  const runners: RunnerEntry[] = runnerRows.map((runner) => ({
    id: runner.id,
    hostname: runner.hostname,
    pid: runner.pid,
    version: runner.version,
    startedAt: runner.startedAt.toISOString(),
    heartbeatAt: runner.heartbeatAt.toISOString(),
    heartbeatAgeMs: Math.max(0, nowMs - runner.heartbeatAt.getTime()),
    stoppedAt: runner.stoppedAt?.toISOString() ?? null,
    runsInFlight: runner.runsInFlight,
    state: classifyRunner(runner, nowMs, staleAfterMs),
  }));
  const schedules: ScheduleStatusEntry[] = rows.map((row) => ({
    name: row.name,
    enabled: row.enabled,
    criticality: row.criticality,
    cron: row.cron,
    timezone: row.timezone,
    description: row.description,
    approvalRequired: row.approvalRequired,
    lastResult: row.lastRun ? { runId: row.lastRun.id, status: row.lastRun.status, scheduledFor: row.lastRun.scheduledFor.toISOString(), finishedAt: row.lastRun.finishedAt?.toISOString() ?? null } : null,
    nextRunAt: row.nextRunAt?.toISOString() ?? null,
    successRate: row.finished === 0 ? null : row.succeeded / row.finished,
    finishedRuns: row.finished,
    p95StartDelayMs: row.p95StartDelayMs === null ? null : Math.round(row.p95StartDelayMs),
    runsToday: row.runsInDay,
    activeRuns: row.activeRuns,
    paused: row.pausedAt ? { at: row.pausedAt.toISOString(), by: row.pausedBy, reason: row.pausedReason, until: row.pausedUntil?.toISOString() ?? null } : null,
    overdue: findOverdue({ enabled: row.enabled, paused: row.pausedAt !== null, nextRunAt: row.nextRunAt, oldestWaitingRunAfter: row.oldestWaitingRunAfter }, nowMs, overdueAfterMs),
  }));
  return {
    generatedAt: new Date(nowMs).toISOString(),
    windowDays: STATUS_WINDOW_DAYS,
    utcDay: new Date(dayStartMs).toISOString().slice(0, 10),
    schedules,
    runners,
    aliveRunners: runners.filter((runner) => runner.state === 'alive').length,
    staleAfterMs,
    overdueAfterMs,
    health: evaluateHealth({ runners, schedules, staleAfterMs }),
    handedOff,
  };
}

/**
 * `status`: one line per active schedule (SPEC §7 operations, §8): last result, next slot, success
 * rate and p95 start delay over the last 7 days, runs today, pause. "Today" is the current UTC day:
 * schedules live in many zones, and one fixed day for all keeps the column comparable.
 */
import type { Database } from '../../db/client.js';
import { summarizeScheduleStatus, type SchedulePage } from '../../db/run-report-queries.js';
import { MS_PER_DAY } from '../../time/civil.js';

export const STATUS_WINDOW_DAYS = 7;

export interface ScheduleStatusEntry {
  name: string;
  enabled: boolean;
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
}

export interface ScheduleStatusReport {
  generatedAt: string;
  windowDays: number;
  utcDay: string;
  schedules: ScheduleStatusEntry[];
}

export interface ScheduleStatusOptions {
  nowMs: number;
  /** One page of schedules by name; absent: all of them. */
  page?: SchedulePage | undefined;
  /** Stats from each schedule's latest this many slots only (bounded work per schedule); absent: all in the window. */
  recentRunsCap?: number | undefined;
}

export async function readScheduleStatus(database: Database, options: ScheduleStatusOptions): Promise<ScheduleStatusReport> {
  const dayStartMs = Math.floor(options.nowMs / MS_PER_DAY) * MS_PER_DAY;
  const rows = await summarizeScheduleStatus(database.db, {
    statsSince: new Date(options.nowMs - STATUS_WINDOW_DAYS * MS_PER_DAY),
    dayStart: new Date(dayStartMs),
    dayEnd: new Date(dayStartMs + MS_PER_DAY),
    page: options.page,
    recentRunsCap: options.recentRunsCap,
  });
  return {
    generatedAt: new Date(options.nowMs).toISOString(),
    windowDays: STATUS_WINDOW_DAYS,
    utcDay: new Date(dayStartMs).toISOString().slice(0, 10),
    schedules: rows.map((row) => ({
      name: row.name,
      enabled: row.enabled,
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
    })),
  };
}

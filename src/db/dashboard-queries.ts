/**
 * Read-only statements of the dashboard (SPEC §8) that `runs` and `status` do not already have.
 * Each is bounded (a page of schedules, a limit of runs) so that a page costs the same with a
 * million runs stored as with a hundred: `schedule_runs` has no index on status or on the slot
 * alone (its updates must stay HOT, schema.ts), so whatever spans many schedules goes through
 * each schedule's (schedule_id, scheduled_for) key.
 */
import { sql } from 'drizzle-orm';
import type { Definition } from '../compile/definition.js';
import { queryRows, type Executor } from './client.js';
import { toDate, toOptionalDate } from './row-values.js';

export interface ScheduleDetailRow {
  name: string;
  version: number;
  status: string;
  definition: Definition;
  nextRunAt: Date | null;
  pausedAt: Date | null;
  pausedBy: string | null;
  pausedReason: string | null;
  pausedUntil: Date | null;
}

/** One schedule by name, active or archived, without locking it. */
export async function findScheduleDetail(executor: Executor, name: string): Promise<ScheduleDetailRow | undefined> {
  const [row] = await queryRows<Record<string, unknown>>(
    executor,
    sql`select name, version, status, definition, next_run_at, paused_at, paused_by, paused_reason, paused_until from schedules where name = ${name}`,
  );
  if (!row) return undefined;
  return {
    name: row.name as string,
    version: Number(row.version),
    status: row.status as string,
    definition: (typeof row.definition === 'string' ? JSON.parse(row.definition) : row.definition) as Definition,
    nextRunAt: toOptionalDate(row.next_run_at as string | Date | null),
    pausedAt: toOptionalDate(row.paused_at as string | Date | null),
    pausedBy: row.paused_by as string | null,
    pausedReason: row.paused_reason as string | null,
    pausedUntil: toOptionalDate(row.paused_until as string | Date | null),
  };
}

export interface TimelineCell {
  schedule: string;
  /** Index of the bin: slot in [from + bin × binMs, from + (bin + 1) × binMs). */
  bin: number;
  status: string;
  runs: number;
}

/**
 * Runs of the named schedules whose slot falls in [from, to), counted per schedule, bin and
 * status: one range read of each schedule's key, never a scan of the table.
 */
export async function countRunsByBin(executor: Executor, window: { names: readonly string[]; from: Date; to: Date; binMs: number }): Promise<TimelineCell[]> {
  if (window.names.length === 0) return [];
  const from = window.from.toISOString();
  const rows = await queryRows<{ schedule: string; bin: number; status: string; runs: number }>(
    executor,
    sql`select s.name as schedule, r.bin, r.status, r.runs from schedules s
        cross join lateral (
          select floor(extract(epoch from (r.scheduled_for - ${from}::timestamptz)) * 1000 / ${window.binMs})::int as bin, r.status, count(*)::int as runs
          from schedule_runs r
          where r.schedule_id = s.id and r.scheduled_for >= ${from}::timestamptz and r.scheduled_for < ${window.to.toISOString()}::timestamptz
          group by 1, 2
        ) r
        where s.name = any(${sql.param([...window.names])}::text[])`,
  );
  return rows.map((r) => ({ schedule: r.schedule, bin: Number(r.bin), status: r.status, runs: Number(r.runs) }));
}

export interface WaitingRunRow {
  id: number;
  schedule: string;
  scheduledFor: Date;
  triggerType: string;
  status: string;
  statusReason: string | null;
  attempts: number;
  createdAt: Date;
}

function toWaitingRun(r: Record<string, unknown>): WaitingRunRow {
  return {
    id: Number(r.id),
    schedule: r.schedule as string,
    scheduledFor: toDate(r.scheduled_for as string | Date),
    triggerType: r.trigger_type as string,
    status: r.status as string,
    statusReason: r.status_reason as string | null,
    attempts: Number(r.attempts),
    createdAt: toDate(r.created_at as string | Date),
  };
}

/**
 * Runs waiting for a human (MANUAL_REQUIRED: approval, misfire MANUAL, onStall manual), oldest
 * slot first. Read from `active_runs`, which holds them for this (migration 0009): a page from
 * active_runs_manual_idx and a count of its entries, however long the history.
 */
export async function listRunsAwaitingAction(executor: Executor, limit: number): Promise<{ runs: WaitingRunRow[]; total: number }> {
  const rows = await queryRows<Record<string, unknown>>(
    executor,
    sql`select r.id, s.name as schedule, r.scheduled_for, r.trigger_type, r.status, r.status_reason, r.attempts, r.created_at,
          (select count(*) from active_runs where status = 'MANUAL_REQUIRED') as total
        from (select run_id, scheduled_for from active_runs where status = 'MANUAL_REQUIRED' order by scheduled_for, run_id limit ${limit}) a
        join schedule_runs r on r.id = a.run_id and r.scheduled_for = a.scheduled_for join schedules s on s.id = r.schedule_id
        order by r.scheduled_for, r.id`,
  );
  return { runs: rows.map(toWaitingRun), total: rows.length === 0 ? 0 : Number(rows[0]!.total) };
}

/**
 * Unfinished runs (PENDING, QUEUED, RUNNING, RETRY_PENDING) from `active_runs`, oldest slot first;
 * the MANUAL_REQUIRED runs it also holds are the waiting page's.
 */
export async function listUnfinishedRuns(executor: Executor, limit: number): Promise<{ runs: WaitingRunRow[]; total: number }> {
  const rows = await queryRows<Record<string, unknown>>(
    executor,
    sql`select r.id, s.name as schedule, r.scheduled_for, r.trigger_type, r.status, r.status_reason, r.attempts, r.created_at,
          (select count(*) from active_runs where status in ('PENDING', 'QUEUED', 'RUNNING', 'RETRY_PENDING')) as total
        from (select run_id, scheduled_for from active_runs where status in ('PENDING', 'QUEUED', 'RUNNING', 'RETRY_PENDING') order by scheduled_for, run_id limit ${limit}) a
        join schedule_runs r on r.id = a.run_id and r.scheduled_for = a.scheduled_for join schedules s on s.id = r.schedule_id
        order by r.scheduled_for, r.id`,
  );
  return { runs: rows.map(toWaitingRun), total: rows.length === 0 ? 0 : Number(rows[0]!.total) };
}

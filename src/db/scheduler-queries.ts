/**
 * Statements of the scheduler (SPEC §7): due schedules are taken with FOR UPDATE SKIP LOCKED,
 * slots inserted with ON CONFLICT DO NOTHING, then next_run_at advanced — all in the caller's
 * transaction, so a crash between the steps loses nothing and two schedulers never double up.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from './client.js';
import type { TriggerType } from './run-vocabulary.js';

/** A due schedule as the scheduler takes it; its definition comes from the runner's cache by version. */
export interface DueSchedule {
  id: number;
  name: string;
  version: number;
  nextRunAt: Date;
  pausedAt: Date | null;
  pausedUntil: Date | null;
}

interface DueScheduleRow {
  id: string | number;
  name: string;
  version: number;
  next_run_at: Date | string;
  paused_at: Date | string | null;
  paused_until: Date | string | null;
}

const toDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

export async function takeDueSchedules(tx: Executor, now: Date, limit: number): Promise<DueSchedule[]> {
  const rows = await queryRows<DueScheduleRow>(
    tx,
    sql`select id, name, version, next_run_at, paused_at, paused_until
        from schedules
        where status = 'ACTIVE' and next_run_at <= ${now.toISOString()}::timestamptz
        order by next_run_at
        limit ${limit}
        for update skip locked`,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    name: row.name,
    version: row.version,
    nextRunAt: toDate(row.next_run_at),
    pausedAt: row.paused_at === null ? null : toDate(row.paused_at),
    pausedUntil: row.paused_until === null ? null : toDate(row.paused_until),
  }));
}

/**
 * The scheduler's transaction does not wait for its WAL flush at COMMIT (~2–6 ms on a small disk,
 * a good part of a slot's start delay). Safe because of what it writes: the runs of due slots AND
 * the advance of next_run_at, together. A server crash can only lose the whole transaction, and
 * then the slots are still due and are inserted again (same keys, same decisions). No job starts
 * from it before a claim commits, and a claim's synchronous COMMIT flushes the WAL up to itself,
 * this transaction included, so nothing started can be forgotten.
 */
export async function commitWithoutWaitingForFlush(tx: Executor): Promise<void> {
  await tx.execute(sql`set local synchronous_commit = off`);
}

/** Schedules (of `ids`) that have a QUEUED, RUNNING or RETRY_PENDING run. */
export async function findSchedulesWithActiveRuns(tx: Executor, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await queryRows<{ schedule_id: string | number }>(
    tx,
    sql`select distinct schedule_id from active_runs
        where schedule_id = any(${sql.param(ids)}::bigint[]) and status in ('QUEUED', 'RUNNING', 'RETRY_PENDING')`,
  );
  return new Set(rows.map((r) => Number(r.schedule_id)));
}

export interface NewRun {
  scheduleId: number;
  scheduleVersion: number;
  scheduledFor: Date;
  triggerType: TriggerType;
  idempotencyKey: string;
  status: string;
  statusReason: string | null;
  priority: number;
  queue: string;
  businessDate: string | null;
  runAfter: Date;
  maxAttempts: number;
  summarizedSlots: number | null;
  finishedAt: Date | null;
}

/**
 * Bulk insert; a slot that already has a run (another scheduler, a retry of this tick) is left
 * alone: the unique (schedule_id, scheduled_for, trigger_type) key is the last line of defence.
 */
export async function insertRuns(tx: Executor, runs: NewRun[], now: Date): Promise<Array<{ id: number; scheduleId: number; status: string; idempotencyKey: string }>> {
  if (runs.length === 0) return [];
  const payload = JSON.stringify(
    runs.map((r) => ({
      schedule_id: r.scheduleId,
      schedule_version: r.scheduleVersion,
      scheduled_for: r.scheduledFor.toISOString(),
      trigger_type: r.triggerType,
      idempotency_key: r.idempotencyKey,
      status: r.status,
      status_reason: r.statusReason,
      priority: r.priority,
      queue: r.queue,
      business_date: r.businessDate,
      run_after: r.runAfter.toISOString(),
      max_attempts: r.maxAttempts,
      summarized_slots: r.summarizedSlots,
      finished_at: r.finishedAt?.toISOString() ?? null,
    })),
  );
  const rows = await queryRows<{ id: string | number; schedule_id: string | number; status: string; idempotency_key: string }>(
    tx,
    sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, status_reason,
          priority, queue, business_date, run_after, max_attempts, summarized_slots, finished_at, created_at)
        select schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, status_reason,
          priority, queue, business_date, run_after, max_attempts, summarized_slots, finished_at, ${now.toISOString()}::timestamptz
        from jsonb_to_recordset(${payload}::jsonb) as x(schedule_id bigint, schedule_version int, scheduled_for timestamptz,
          trigger_type text, idempotency_key text, status text, status_reason text, priority int, queue text, business_date date,
          run_after timestamptz, max_attempts int, summarized_slots int, finished_at timestamptz)
        on conflict do nothing
        returning id, schedule_id, status, idempotency_key`,
  );
  return rows.map((r) => ({ id: Number(r.id), scheduleId: Number(r.schedule_id), status: r.status, idempotencyKey: r.idempotency_key }));
}

export async function advanceSchedules(tx: Executor, updates: Array<{ id: number; nextRunAt: Date | null; lastScheduledFor: Date | null }>): Promise<void> {
  if (updates.length === 0) return;
  const payload = JSON.stringify(updates.map((u) => ({ id: u.id, next_run_at: u.nextRunAt?.toISOString() ?? null, last_scheduled_for: u.lastScheduledFor?.toISOString() ?? null })));
  await tx.execute(
    sql`update schedules s set next_run_at = x.next_run_at, last_scheduled_for = coalesce(x.last_scheduled_for, s.last_scheduled_for)
        from jsonb_to_recordset(${payload}::jsonb) as x(id bigint, next_run_at timestamptz, last_scheduled_for timestamptz)
        where s.id = x.id`,
  );
}

export async function findEarliestNextRunAt(executor: Executor): Promise<Date | null> {
  const [row] = await queryRows<{ at: Date | string | null }>(executor, sql`select min(next_run_at) as at from schedules where status = 'ACTIVE'`);
  return row?.at ? toDate(row.at) : null;
}

export const RUNS_CHANNEL = 'cronform_runs';

export async function notifyRunsQueued(executor: Executor): Promise<void> {
  await executor.execute(sql`select pg_notify(${RUNS_CHANNEL}, '')`);
}

/**
 * The earliest future start of a runnable run (jitter, retry backoff): when the worker must look
 * again. Read from active_runs_run_after_idx (its predicate spelled out so the planner may use it):
 * one index entry, however many runs wait behind a queue limit or a pause.
 */
export async function findEarliestRunAfter(executor: Executor, now: Date): Promise<Date | null> {
  const [row] = await queryRows<{ at: Date | string | null }>(
    executor,
    sql`select run_after as at from active_runs
        where status in ('QUEUED', 'RETRY_PENDING') and run_after > '-infinity' and run_after > ${now.toISOString()}::timestamptz
        order by run_after limit 1`,
  );
  return row?.at ? toDate(row.at) : null;
}

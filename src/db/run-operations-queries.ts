/**
 * Statements of the operator commands on runs and schedules (SPEC §7 operations): trigger,
 * backfill, retry, approve, cancel, pause, resume. Every status change is guarded by the status
 * the caller read (and locked) in the same transaction, so a runner that moved the row first wins
 * and the operation reports it instead of overwriting.
 */
import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Definition } from '../compile/definition.js';
import type { RunStatus, TriggerType } from './run-vocabulary.js';
import { queryRows, type Executor } from './client.js';
import { countedLater } from './final-event-queries.js';
import { insertEndedAttempts } from './open-attempts.js';
import { activeRuns, scheduleRuns, schedules } from './schema.js';

export interface ScheduleRecord {
  id: number;
  name: string;
  version: number;
  status: 'ACTIVE' | 'ARCHIVED';
  definition: Definition;
  pausedAt: Date | null;
  pausedBy: string | null;
  pausedReason: string | null;
  pausedUntil: Date | null;
}

export interface RunRecord {
  id: number;
  scheduleId: number;
  scheduleVersion: number;
  scheduledFor: Date;
  triggerType: TriggerType;
  idempotencyKey: string;
  status: RunStatus;
  statusReason: string | null;
  priority: number;
  queue: string;
  businessDate: string | null;
  runAfter: Date;
  attempts: number;
  maxAttempts: number;
  leaseOwner: string | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  summarizedSlots: number | null;
}

type ScheduleRow = typeof schedules.$inferSelect;
type RunRow = typeof scheduleRuns.$inferSelect;

function toScheduleRecord(row: ScheduleRow): ScheduleRecord {
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    status: row.status as ScheduleRecord['status'],
    definition: row.definition,
    pausedAt: row.pausedAt,
    pausedBy: row.pausedBy,
    pausedReason: row.pausedReason,
    pausedUntil: row.pausedUntil,
  };
}

function toRunRecord(row: RunRow): RunRecord {
  return {
    id: row.id,
    scheduleId: row.scheduleId,
    scheduleVersion: row.scheduleVersion,
    scheduledFor: row.scheduledFor,
    triggerType: row.triggerType as TriggerType,
    idempotencyKey: row.idempotencyKey,
    status: row.status as RunStatus,
    statusReason: row.statusReason,
    priority: row.priority,
    queue: row.queue,
    businessDate: row.businessDate,
    runAfter: row.runAfter,
    attempts: row.attempts,
    maxAttempts: row.maxAttempts,
    leaseOwner: row.leaseOwner,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    summarizedSlots: row.summarizedSlots,
  };
}

/** The schedule, locked until commit: operations on one schedule are serialized by this row lock. */
export async function lockScheduleByName(tx: Executor, name: string): Promise<ScheduleRecord | undefined> {
  const [row] = await tx.select().from(schedules).where(eq(schedules.name, name)).for('update');
  return row ? toScheduleRecord(row) : undefined;
}

/** A run and its schedule; the run row is locked until commit. */
export async function lockRunWithSchedule(tx: Executor, runId: number): Promise<{ run: RunRecord; schedule: ScheduleRecord } | undefined> {
  const [row] = await tx
    .select({ run: scheduleRuns, schedule: schedules })
    .from(scheduleRuns)
    .innerJoin(schedules, eq(schedules.id, scheduleRuns.scheduleId))
    .where(eq(scheduleRuns.id, runId))
    .for('update', { of: scheduleRuns });
  return row ? { run: toRunRecord(row.run), schedule: toScheduleRecord(row.schedule) } : undefined;
}

/** QUEUED, RUNNING and RETRY_PENDING runs of a schedule (any trigger), oldest slot first. */
export async function findActiveRuns(executor: Executor, scheduleId: number): Promise<RunRecord[]> {
  const rows = await executor
    .select()
    .from(scheduleRuns)
    .where(
      and(
        inArray(
          scheduleRuns.id,
          executor
            .select({ id: activeRuns.runId })
            .from(activeRuns)
            .where(and(eq(activeRuns.scheduleId, scheduleId), inArray(activeRuns.status, ['QUEUED', 'RUNNING', 'RETRY_PENDING']))),
        ),
        inArray(scheduleRuns.status, ['QUEUED', 'RUNNING', 'RETRY_PENDING']),
      ),
    )
    .orderBy(scheduleRuns.scheduledFor, scheduleRuns.id);
  return rows.map(toRunRecord);
}

export async function findRunByIdempotencyKey(executor: Executor, key: string): Promise<RunRecord | undefined> {
  const [row] = await executor.select().from(scheduleRuns).where(eq(scheduleRuns.idempotencyKey, key));
  return row ? toRunRecord(row) : undefined;
}

/**
 * SCHEDULED and BACKFILL runs of single slots in [from, to), locked: what backfill compares the
 * slots against. Summary rows (one row for many slots of a long outage) stand for no single slot.
 */
export async function lockSlotRuns(tx: Executor, scheduleId: number, from: Date, to: Date): Promise<RunRecord[]> {
  const rows = await tx
    .select()
    .from(scheduleRuns)
    .where(
      and(
        eq(scheduleRuns.scheduleId, scheduleId),
        inArray(scheduleRuns.triggerType, ['SCHEDULED', 'BACKFILL']),
        isNull(scheduleRuns.summarizedSlots),
        sql`${scheduleRuns.scheduledFor} >= ${from.toISOString()}::timestamptz and ${scheduleRuns.scheduledFor} < ${to.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(scheduleRuns.scheduledFor, scheduleRuns.id)
    .for('update');
  return rows.map(toRunRecord);
}

/** Runs the pause skipped or the scheduler recorded SKIPPED/PAUSED since `pausedAt`, oldest slot first, locked. */
export async function lockRunsSkippedByPause(tx: Executor, scheduleId: number, pausedAt: Date): Promise<RunRecord[]> {
  const rows = await tx
    .select()
    .from(scheduleRuns)
    .where(
      and(
        eq(scheduleRuns.scheduleId, scheduleId),
        eq(scheduleRuns.status, 'SKIPPED'),
        eq(scheduleRuns.statusReason, 'PAUSED'),
        isNull(scheduleRuns.summarizedSlots),
        isNotNull(scheduleRuns.finishedAt),
        sql`${scheduleRuns.finishedAt} >= ${pausedAt.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(scheduleRuns.scheduledFor, scheduleRuns.id)
    .for('update');
  return rows.map(toRunRecord);
}

export interface RunRequeue {
  id: number;
  /** The status the caller read under lock: the update is guarded by it. */
  expected: RunStatus;
  status: 'QUEUED' | 'PENDING';
  runAfter: Date;
  maxAttempts: number;
  priority: number;
}

/**
 * Puts finished or skipped runs back in line (retry, resume --missed, backfill --reprocess): the
 * same row, so the idempotency key and business date stay; attempts keep counting.
 */
export async function requeueRuns(tx: Executor, requeues: RunRequeue[]): Promise<number[]> {
  if (requeues.length === 0) return [];
  const payload = JSON.stringify(
    requeues.map((r) => ({ id: r.id, expected: r.expected, status: r.status, run_after: r.runAfter.toISOString(), max_attempts: r.maxAttempts, priority: r.priority })),
  );
  const rows = await queryRows<{ id: string | number }>(
    tx,
    sql`update schedule_runs r
        set status = x.status, status_reason = null, run_after = x.run_after, max_attempts = x.max_attempts, priority = x.priority,
            finished_at = null, lease_owner = null, lease_expires_at = null
        from jsonb_to_recordset(${payload}::jsonb) as x(id bigint, expected text, status text, run_after timestamptz, max_attempts int, priority int)
        where r.id = x.id and r.status = x.expected
        returning r.id`,
  );
  return rows.map((r) => Number(r.id));
}

export async function markRunApproved(tx: Executor, runId: number, status: 'QUEUED' | 'PENDING'): Promise<boolean> {
  const rows = await tx
    .update(scheduleRuns)
    .set({ status, statusReason: null })
    .where(and(eq(scheduleRuns.id, runId), eq(scheduleRuns.status, 'MANUAL_REQUIRED')))
    .returning({ id: scheduleRuns.id });
  return rows.length === 1;
}

/**
 * Cancels one run, guarded by the status read under lock. A RUNNING run loses its lease here:
 * the owning runner's next heartbeat finds it gone and kills the process group, and its outcome
 * is never written (completion is guarded by the lease owner). Its open attempt is closed.
 */
export async function markRunCancelled(tx: Executor, runId: number, expected: RunStatus, now: Date, note: string): Promise<boolean> {
  const nowIso = now.toISOString();
  const rows = await queryRows<{ id: string | number }>(
    tx,
    sql`with cancelled as (
          update schedule_runs set status = 'CANCELLED', finished_at = ${nowIso}::timestamptz, lease_owner = null, lease_expires_at = null
          where id = ${runId} and status = ${expected}
          returning id, attempts, scheduled_for, schedule_id, status, status_reason, trigger_type
        ),
        closed as (
          update run_attempts a set status = 'CANCELLED', finished_at = ${nowIso}::timestamptz, error = ${note}
          from cancelled c where a.run_id = c.id and a.attempt = c.attempts and a.status in ('CLAIMED', 'RUNNING')
        ),
        opened as (${insertEndedAttempts(sql`cancelled`, { status: sql`'CANCELLED'`, finishedAt: sql`${nowIso}::timestamptz`, error: sql`${note}` })}),
        ${countedLater(sql`cancelled`, nowIso)}
        select id from cancelled`,
  );
  return rows.length === 1;
}

export const CANCEL_CHANNEL = 'cronform_cancel';

/** Lets a runner stop a cancelled attempt at once instead of at its next heartbeat. */
export async function notifyRunCancelled(executor: Executor, runId: number): Promise<void> {
  await executor.execute(sql`select pg_notify(${CANCEL_CHANNEL}, ${String(runId)})`);
}

/** The kill switch: not-yet-started runs of the schedule become SKIPPED/PAUSED. Returns their ids. */
export async function skipUnstartedRuns(tx: Executor, scheduleId: number, now: Date): Promise<Array<{ id: number; previousStatus: RunStatus }>> {
  const rows = await queryRows<{ id: string | number; previous_status: RunStatus }>(
    tx,
    // The guards name the statuses, not the one read: a run that moves between them while the
    // lock is awaited (an ending run promotes its PENDING successor to QUEUED) is still skipped,
    // and the previous status reported is the one it had when locked.
    sql`with target as (
          select r.id, r.status from active_runs a join schedule_runs r on r.id = a.run_id
          where a.schedule_id = ${scheduleId} and a.status in ('PENDING', 'QUEUED', 'RETRY_PENDING') and r.status in ('PENDING', 'QUEUED', 'RETRY_PENDING')
          for update of r
        ),
        skipped as (
          update schedule_runs r set status = 'SKIPPED', status_reason = 'PAUSED', finished_at = ${now.toISOString()}::timestamptz
          from target t where r.id = t.id and r.status in ('PENDING', 'QUEUED', 'RETRY_PENDING')
          returning r.id, r.schedule_id, r.status, r.status_reason, r.trigger_type, t.status as previous_status
        ),
        ${countedLater(sql`skipped`, now.toISOString())}
        select id, previous_status from skipped`,
  );
  return rows.map((r) => ({ id: Number(r.id), previousStatus: r.previous_status })).sort((a, b) => a.id - b.id);
}

export interface PauseValues {
  at: Date;
  by: string;
  reason: string;
  until: Date | null;
}

/** Guarded by "not paused": two concurrent pauses cannot both win. */
export async function setSchedulePause(tx: Executor, scheduleId: number, pause: PauseValues): Promise<boolean> {
  const rows = await tx
    .update(schedules)
    .set({ pausedAt: pause.at, pausedBy: pause.by, pausedReason: pause.reason, pausedUntil: pause.until, updatedAt: pause.at })
    .where(and(eq(schedules.id, scheduleId), isNull(schedules.pausedAt)))
    .returning({ id: schedules.id });
  return rows.length === 1;
}

/** Guarded by "paused" (the caller holds the row lock, so it is the pause it read). */
export async function clearSchedulePause(tx: Executor, scheduleId: number, now: Date): Promise<boolean> {
  const rows = await tx
    .update(schedules)
    .set({ pausedAt: null, pausedBy: null, pausedReason: null, pausedUntil: null, updatedAt: now })
    .where(and(eq(schedules.id, scheduleId), isNotNull(schedules.pausedAt)))
    .returning({ id: schedules.id });
  return rows.length === 1;
}

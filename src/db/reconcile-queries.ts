/**
 * Statements of the reconciler and of runner registration (SPEC §7).
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from './client.js';
import { insertEndedAttempts } from './open-attempts.js';

export interface ExpiredLease {
  runId: number;
  scheduleId: number;
  scheduleName: string;
  scheduledFor: Date;
  attempt: number;
  maxAttempts: number;
  leaseOwner: string | null;
  scheduleVersion: number;
  /** False when the attempt is still CLAIMED: the run waited in its runner's local queue and never started. */
  started: boolean;
}

/**
 * RUNNING runs whose lease expired (their runner died or hung) at least its owner's kill grace
 * plus `stopMarginMs` ago, locked for this transaction: until then the job may still be dying
 * (policy/lease.ts, stallResolvableAtMs). An owner that recorded no kill grace (an older version,
 * or no runner row) is assumed to use `defaultKillGraceMs`. A run handed to a queue (lease owner
 * `queue:<system>`, docs/queue-handoff.md) has no process of cronform's to wait for: no grace.
 */
export async function takeExpiredLeases(tx: Executor, now: Date, limit: number, grace: { defaultKillGraceMs: number; stopMarginMs: number }): Promise<ExpiredLease[]> {
  const rows = await queryRows<{ id: string | number; schedule_id: string | number; schedule_name: string; scheduled_for: string | Date; attempts: number; max_attempts: number; lease_owner: string | null; schedule_version: number; started: boolean }>(
    tx,
    sql`select r.id, r.schedule_id, s.name as schedule_name, r.scheduled_for, r.attempts, r.max_attempts, r.lease_owner, r.schedule_version,
          -- Its attempt's status is on the run row (open-attempts.ts), or on a row a version before migration 0024 wrote.
          r.attempt_status is distinct from 'CLAIMED'
            and not exists (select 1 from run_attempts a where a.run_id = r.id and a.scheduled_for = r.scheduled_for and a.attempt = r.attempts and a.status = 'CLAIMED') as started
        from active_runs x join schedule_runs r on r.id = x.run_id and r.scheduled_for = x.scheduled_for join schedules s on s.id = r.schedule_id
          left join runners w on w.id = r.lease_owner
        where x.status = 'RUNNING' and r.status = 'RUNNING' and r.lease_expires_at < ${now.toISOString()}::timestamptz
          and r.lease_expires_at + (case when r.lease_owner like 'queue:%' then 0 else coalesce(w.kill_grace_ms, ${grace.defaultKillGraceMs}) end + ${grace.stopMarginMs}) * interval '1 millisecond' < ${now.toISOString()}::timestamptz
        order by r.lease_expires_at limit ${limit}
        for update of r skip locked`,
  );
  return rows.map((r) => ({
    runId: Number(r.id),
    scheduleId: Number(r.schedule_id),
    scheduleName: r.schedule_name,
    scheduledFor: new Date(r.scheduled_for),
    attempt: r.attempts,
    maxAttempts: r.max_attempts,
    leaseOwner: r.lease_owner,
    scheduleVersion: r.schedule_version,
    started: r.started,
  }));
}

export interface StallResolution {
  runId: number;
  attempt: number;
  runStatus: 'RETRY_PENDING' | 'FAILED' | 'MANUAL_REQUIRED';
  runAfter: Date | null;
}

const HANDED_BACK = sql`'claimed by a runner that stopped before starting it (lease expired); handed back, no attempt used'`;
const RUNNER_SILENT = sql`'lease expired: the runner stopped heartbeating (crashed, killed or partitioned)'`;

/** Closes stalled attempts and moves their runs on per `onStall`; guarded by status and attempt. */
export async function resolveStalledRuns(tx: Executor, resolutions: StallResolution[], now: Date): Promise<number> {
  if (resolutions.length === 0) return 0;
  const payload = JSON.stringify(resolutions.map((r) => ({ id: r.runId, attempt: r.attempt, run_status: r.runStatus, run_after: r.runAfter?.toISOString() ?? null })));
  const nowIso = now.toISOString();
  const rows = await queryRows<{ id: string | number }>(
    tx,
    sql`with input as (
          select * from jsonb_to_recordset(${payload}::jsonb) as x(id bigint, attempt int, run_status text, run_after timestamptz)
        ),
        moved as (
          update schedule_runs r
          set status = i.run_status, run_after = coalesce(i.run_after, r.run_after), lease_owner = null, lease_expires_at = null,
              finished_at = case when i.run_status = 'FAILED' then ${nowIso}::timestamptz else null end,
              status_reason = 'STALLED'
          from input i where r.id = i.id and r.status = 'RUNNING' and r.attempts = i.attempt
          returning r.id, r.attempts, r.scheduled_for
        ),
        closed as (
          update run_attempts a set status = 'STALLED', finished_at = ${nowIso}::timestamptz,
            -- A run handed to a queue (docs/queue-handoff.md) stalls when its worker stops reporting.
            error = case when exists (select 1 from queue_handoffs h where h.run_id = m.id and h.attempt = m.attempts)
              then 'lease expired: the queue worker did not report (died, hung, or never picked the job up before the timeout)'
              else ${RUNNER_SILENT} end
          from moved m where a.run_id = m.id and a.attempt = m.attempts and a.status = 'RUNNING'
        ),
        -- A job that started at its claim has no attempt row yet (open-attempts.ts): it gets one now.
        -- (A hand-off always wrote its row.)
        opened as (${insertEndedAttempts(sql`moved`, { status: sql`'STALLED'`, finishedAt: sql`${nowIso}::timestamptz`, error: RUNNER_SILENT })})
        select id from moved`,
  );
  return rows.length;
}

/**
 * Runs whose runner died while they waited in its local queue (attempt still CLAIMED): back to
 * QUEUED for any runner, with no attempt used up. The attempt is kept, CANCELLED, as the record
 * of the claim; the start mark is written just after a job starts, so in the rare case of a
 * runner killed in between, the job may run again, as with any outcome lost to a crash.
 */
export async function requeueUnstartedRuns(tx: Executor, runs: Array<{ runId: number; attempt: number }>, now: Date): Promise<number> {
  if (runs.length === 0) return 0;
  const nowIso = now.toISOString();
  const rows = await queryRows<{ id: string | number }>(
    tx,
    sql`with input as (
          select * from unnest(${sql.param(runs.map((r) => r.runId))}::bigint[], ${sql.param(runs.map((r) => r.attempt))}::int[]) as x(id, attempt)
        ),
        requeued as (
          update schedule_runs r
          set status = 'QUEUED', lease_owner = null, lease_expires_at = null, max_attempts = r.max_attempts + 1,
              run_after = greatest(r.run_after, ${nowIso}::timestamptz)
          from input i
          where r.id = i.id and r.status = 'RUNNING' and r.attempts = i.attempt
            -- Unstarted: CLAIMED on the run row (open-attempts.ts), or on a row a version before migration 0024 wrote.
            and (r.attempt_status = 'CLAIMED'
              or exists (select 1 from run_attempts a where a.run_id = i.id and a.attempt = i.attempt and a.scheduled_for = r.scheduled_for and a.status = 'CLAIMED'))
          returning r.id, r.attempts, r.scheduled_for
        ),
        closed as (
          update run_attempts a set status = 'CANCELLED', finished_at = ${nowIso}::timestamptz, error = ${HANDED_BACK}
          from requeued q where a.run_id = q.id and a.attempt = q.attempts and a.status = 'CLAIMED'
        ),
        -- The record of the claim, as a version before migration 0024 kept it.
        opened as (${insertEndedAttempts(sql`requeued`, { status: sql`'CANCELLED'`, finishedAt: sql`${nowIso}::timestamptz`, error: HANDED_BACK })})
        select id from requeued`,
  );
  return rows.length;
}

export async function upsertRunner(executor: Executor, runner: { id: string; hostname: string; pid: number; version: string; killGraceMs?: number }, now: Date): Promise<void> {
  await executor.execute(
    sql`insert into runners (id, hostname, pid, version, started_at, heartbeat_at, kill_grace_ms)
        values (${runner.id}, ${runner.hostname}, ${runner.pid}, ${runner.version}, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz, ${runner.killGraceMs ?? null})
        on conflict (id) do update set heartbeat_at = excluded.heartbeat_at, stopped_at = null, kill_grace_ms = excluded.kill_grace_ms`,
  );
}

export async function heartbeatRunner(executor: Executor, runnerId: string, now: Date): Promise<void> {
  await executor.execute(sql`update runners set heartbeat_at = ${now.toISOString()}::timestamptz where id = ${runnerId}`);
}

export async function markRunnerStopped(executor: Executor, runnerId: string, now: Date): Promise<void> {
  await executor.execute(sql`update runners set stopped_at = ${now.toISOString()}::timestamptz where id = ${runnerId}`);
}

/** Runners silent for longer than `silenceMs` are recorded as stopped (their leases expire on their own). */
export async function markSilentRunnersStopped(executor: Executor, now: Date, silenceMs: number): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    executor,
    sql`update runners set stopped_at = heartbeat_at
        where stopped_at is null and heartbeat_at < ${new Date(now.getTime() - silenceMs).toISOString()}::timestamptz
        returning id`,
  );
  return rows.length;
}

/** Schedules whose definitions (onStall, retry) the reconciler needs, by run. */
export async function loadStallPolicies(executor: Executor, runIds: number[]): Promise<Map<number, { onStall: string; retry: { maxAttempts: number; backoff: string; initialDelayMs: number; maxDelayMs: number } }>> {
  const result = new Map<number, { onStall: string; retry: { maxAttempts: number; backoff: string; initialDelayMs: number; maxDelayMs: number } }>();
  if (runIds.length === 0) return result;
  const rows = await queryRows<{ id: string | number; definition: { onStall: string; retry: { maxAttempts: number; backoff: string; initialDelayMs: number; maxDelayMs: number } } | string }>(
    executor,
    sql`select r.id, v.definition from schedule_runs r
        join schedule_versions v on v.schedule_id = r.schedule_id and v.version = r.schedule_version
        where r.id = any(${sql.param(runIds)}::bigint[])`,
  );
  for (const row of rows) {
    const definition = typeof row.definition === 'string' ? JSON.parse(row.definition) : row.definition;
    result.set(Number(row.id), { onStall: definition.onStall, retry: definition.retry });
  }
  return result;
}

/**
 * Statements of the worker: claim, heartbeat, complete, release (SPEC §7). Every write to a
 * running attempt is guarded by the lease owner and the attempt number, so a runner that lost
 * its lease (it was presumed dead and the run was retried elsewhere) can never overwrite the
 * outcome of the newer attempt.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Definition } from '../compile/definition.js';
import { instantArray, integerArray, textArray } from './array-literal.js';
import { INDEX_SCANS_ONLY, queryRows, type Executor } from './client.js';
import { insertEndedAttempts } from './open-attempts.js';
import type { ProgressWrite } from './run-progress-queries.js';
import { MS_PER_DAY } from '../time/civil.js';
import type { AttemptStatus, ManualReason, RunStatus, SkipReason, TriggerType } from './run-vocabulary.js';

/**
 * The class of the claim's advisory locks: one lock per queue, keyed `(QUEUE_LOCK_CLASS,
 * hashtext(queue))`. A claim holds the locks of the queues it takes from until it commits, so a
 * queue's running count and its claims are read and written by one runner at a time and its limit
 * holds across replicas; claims of different queues do not wait for each other. (Two names with one
 * hash share a lock: more waiting, never a broken limit.)
 */
const QUEUE_LOCK_CLASS = 0x63666d03;

/**
 * The single lock every claim took before the per-queue locks, exclusively. A claim now takes it
 * shared: claims of this version never wait for each other on it, but one of a runner not yet
 * upgraded (exclusive) and these never run at once, so queue limits hold through a rolling upgrade.
 */
const FORMER_CLAIM_LOCK = sql`pg_advisory_xact_lock_shared(${0x63666d03})`;

export interface ClaimedRun {
  id: number;
  scheduleId: number;
  scheduleName: string;
  scheduleVersion: number;
  scheduledFor: Date;
  /**
   * The slot exactly, in UTC ISO form with microseconds (which `scheduledFor` rounds): the run
   * tables' partition key, whose day every later statement on this run names (`onSlotDays`).
   */
  slot: string;
  triggerType: TriggerType;
  idempotencyKey: string;
  businessDate: string | null;
  attempt: number;
  maxAttempts: number;
  queue: string;
  /** PRIORITY_RANK: lower starts first. */
  priority: number;
  /** The claim's instant: the attempt's recorded start until the job really starts. */
  claimedAt: Date;
  /**
   * It starts at once (a free slot was waiting for it): its attempt has no row until its outcome
   * (open-attempts.ts). Otherwise its attempt opened CLAIMED.
   */
  openedRunning: boolean;
  leaseExpiresAt: Date;
}

interface ClaimedRow {
  id: string | number;
  schedule_id: string | number;
  schedule_name: string;
  schedule_version: number;
  scheduled_for_ms: number | string;
  slot: string;
  trigger_type: ClaimedRun['triggerType'];
  idempotency_key: string;
  business_date: string | null;
  attempts: number;
  max_attempts: number;
  queue: string;
  priority: number;
  starts_now: boolean;
}


export interface ClaimRequest {
  runnerId: string;
  now: Date;
  leaseMs: number;
  /** How many runs this runner takes (free slots plus room in its local queue). */
  capacity: number;
  /**
   * How many of them start at once (its free slots): their attempts open RUNNING; the others open
   * CLAIMED and are marked RUNNING when they start (`markAttemptsStarted`). Default: all.
   */
  startNow?: number;
  queueLimits: Record<string, number>;
  defaultQueueLimit: number;
  /** The queues this runner's last claim met, updated by this claim (ClaimQueues). Default: none. */
  queues?: ClaimQueues;
}

/**
 * The due runs a claim considers, as the CTEs `paused` and `candidates` (id, queue, priority,
 * scheduled_for, and `queued`: whether from the first set): queued runs in the claim order
 * (active_runs_claim_idx) and due retries in the order they fell due (active_runs_retry_idx),
 * each read for at most `scan` entries.
 */
function dueCandidates(now: string, scan: number): SQL {
  return sql`paused as (
      -- A paused schedule starts no scheduled or dependency run (e.g. a retry due during the
      -- pause): both are automatic; manual triggers and backfills are explicit operator actions and still run.
      -- An IN list, not a correlated EXISTS: the paused schedules are read once per claim
      -- (the partial index holds only them), not looked up once per candidate.
      select s.id from schedules s where s.paused_at is not null
        and (s.paused_until is null or s.paused_until > ${now}::timestamptz)
    ),
    candidates as (
      -- Retries still waiting out their backoff are never read, however many sort ahead of the due
      -- runs, and neither are more due retries than the scan. Both sets are then ranked in the
      -- claim order; only when more than a scan of retries are due at once (a saturated runner)
      -- do the earliest-due go first.
      (select a.run_id as id, a.queue, a.priority, a.scheduled_for, true as queued from active_runs a
        where a.status = 'QUEUED' and a.run_after <= ${now}::timestamptz
          and not (a.trigger_type in ('SCHEDULED', 'DEPENDENCY') and a.schedule_id in (select id from paused))
        order by a.priority, a.scheduled_for, a.run_id
        limit ${scan})
      union all
      (select a.run_id as id, a.queue, a.priority, a.scheduled_for, false as queued from active_runs a
        where a.status = 'RETRY_PENDING' and a.run_after <= ${now}::timestamptz
          and not (a.trigger_type in ('SCHEDULED', 'DEPENDENCY') and a.schedule_id in (select id from paused))
        order by a.run_after
        limit ${scan})
    )`;
}

/** A queue and its lock's key (hashtext of its name), and whether this claim holds the lock. */
interface QueueLock {
  queue: string;
  key: number;
  locked: boolean;
}

/**
 * Try the queue locks of `queues` without waiting (with `settings` evaluated in the same statement,
 * to save a round trip).
 */
async function tryQueueLocks(tx: Executor, queues: readonly string[], settings: SQL | null): Promise<QueueLock[]> {
  if (queues.length === 0) {
    if (settings) await tx.execute(sql`select ${settings}`);
    return [];
  }
  return queryRows<QueueLock>(
    tx,
    sql`select ${settings ?? sql`null`} as settings, q.queue, hashtext(q.queue) as key, pg_try_advisory_xact_lock(${QUEUE_LOCK_CLASS}, hashtext(q.queue)) as locked
        from unnest(${textArray(queues)}::text[]) as q(queue)`,
  );
}

/**
 * Wait for the locks of `missed` whose keys are above every key in `held`, one after another in
 * ascending order, and return the queues now had. Every wait of every claim is for a key above all
 * those it holds, so no two claims can ever wait for each other (a cycle of waits would need a
 * claim waiting for a key below one it holds).
 */
async function waitForQueueLocks(tx: Executor, missed: readonly QueueLock[], held: readonly QueueLock[]): Promise<QueueLock[]> {
  const above = held.reduce((top, lock) => Math.max(top, lock.key), Number.NEGATIVE_INFINITY);
  const waited = missed.filter((lock) => lock.key > above);
  if (waited.length === 0) return [];
  const keys = [...new Set(waited.map((lock) => lock.key))].sort((x, y) => x - y);
  // unnest yields the keys in the order given and nothing reorders them: the locks are taken in it.
  await tx.execute(sql`select pg_advisory_xact_lock(${QUEUE_LOCK_CLASS}, k.key) from unnest(${integerArray(keys)}::int[]) as k(key)`);
  return waited.map((lock) => ({ ...lock, locked: true }));
}

/**
 * The queues a runner's claims lock, carried from one claim to the next (Worker): the queues of the
 * due runs its last claim met. A claim locks them before it reads anything (no read of its own for
 * that), and the queues of due runs it then meets unlocked are tried too.
 */
export interface ClaimQueues {
  due: string[];
  /**
   * Set by a claim that took nothing because due runs were in queues whose locks it could not
   * wait for (lower keys than one it held): the runner claims again at once, and that claim, holding
   * nothing yet, may wait for them.
   */
  contended?: boolean;
}

/**
 * The runs a claim takes (step 2 of claimRuns): the candidates of the queues held that fit in their
 * queue's free concurrency, in the claim order; and every queue the candidates met. Read from
 * active_runs alone, returning each run's exact slot, which the claim then names as a constant so
 * that PostgreSQL plans and locks only their days' partitions (run-partitions.ts): a statement that
 * finds them by id alone is planned over every day.
 *
 * The result is always that of the full scan (`scan` candidates of each set), but the candidates are
 * first read for a narrow scan, a little more than the capacity, and read again in full only when
 * the narrow read may have taken other runs (chooseFromScan). A busy queue is the common case: the
 * narrow read takes the first `capacity` runs, all before the end of its scan, and ranking four
 * times as many candidates was ~30 % of the claim's database time (bench/README.md, "Claims read a
 * narrow scan first").
 */
async function chooseRuns(tx: Executor, request: ClaimRequest, now: string, scan: number, held: readonly string[]): Promise<{ chosen: Array<{ id: number; slot: string }>; met: string[] }> {
  if (held.length === 0) {
    const met = await queryRows<{ queue: string }>(tx, sql`with ${dueCandidates(now, scan)} select distinct queue from candidates`);
    return { chosen: [], met: met.map((m) => m.queue) };
  }
  const narrow = Math.min(scan, request.capacity + NARROW_SCAN_MARGIN);
  const first = await chooseFromScan(tx, request, now, narrow, held);
  if (narrow === scan || first.final) return first;
  return chooseFromScan(tx, request, now, scan, held);
}

/** How many candidates beyond the capacity the narrow read of a claim ranks (chooseRuns). */
const NARROW_SCAN_MARGIN = 100;

/**
 * chooseRuns for one scan, and whether its choice is the one any wider scan would make (`final`).
 * It is when neither set of candidates filled the scan (a wider one reads the same), or when only
 * the queued set did, the capacity was reached, and no run taken sorts after the last queued
 * candidate read: a wider scan only adds queued runs after that one in the claim order, which changes
 * neither the queue ranks nor the running count of anything up to it. More due retries than a scan
 * make it never final: a wider scan reads retries in the order they fell due, which may put one
 * first in the claim order. (A final narrow read may have met fewer queues than the wider one: they
 * only guide the next claim's locks, ClaimQueues.)
 */
async function chooseFromScan(
  tx: Executor,
  request: ClaimRequest,
  now: string,
  scan: number,
  held: readonly string[],
): Promise<{ chosen: Array<{ id: number; slot: string }>; met: string[]; final: boolean }> {
  const heldQueues = textArray(held);
  // One pass over the candidates, so that they are not materialized (read twice, a CTE is): each
  // queue's first candidate marks it met (rn = 1), and a candidate of a queue held is taken while it
  // fits in its queue's free concurrency and in the capacity (taken: a running count in the claim
  // order). Every row also says how many candidates each set read, and whether a queued candidate
  // is at or after it in the claim order (within_queued).
  const rows = await queryRows<{ id: string | number; slot: string; queue: string; rn: number | string; take: boolean; queued_read: number; retries_read: number; within_queued: boolean }>(
    tx,
    sql`with ${dueCandidates(now, scan)},
        running as (
          select queue, count(*)::int as n from active_runs where status = 'RUNNING' and queue = any(${heldQueues}::text[]) group by queue
        ),
        limits as (
          select key as queue, value::int as concurrency from jsonb_each_text(${JSON.stringify(request.queueLimits)}::jsonb)
        ),
        ranked as (
          select c.id, c.queue, c.priority, c.scheduled_for, c.queued,
            row_number() over (partition by c.queue order by c.priority, c.scheduled_for, c.id) as rn,
            c.queue = any(${heldQueues}::text[]) and row_number() over (partition by c.queue order by c.priority, c.scheduled_for, c.id)
              <= coalesce(lim.concurrency, ${request.defaultQueueLimit}) - coalesce(run.n, 0) as fits
          from candidates c
          left join limits lim on lim.queue = c.queue
          left join running run on run.queue = c.queue
        ),
        counted as (
          select r.*, count(*) filter (where r.fits) over (order by r.priority, r.scheduled_for, r.id) as taken,
            bool_or(r.queued) over (order by r.priority, r.scheduled_for, r.id rows between current row and unbounded following) as within_queued,
            (count(*) filter (where r.queued) over ())::int as queued_read, (count(*) filter (where not r.queued) over ())::int as retries_read
          from ranked r
        )
        select id, to_char(scheduled_for at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as slot, queue, rn, fits and taken <= ${request.capacity} as take,
          queued_read, retries_read, coalesce(within_queued, false) as within_queued
        from counted where rn = 1 or (fits and taken <= ${request.capacity})`,
  );
  const chosen: Array<{ id: number; slot: string }> = [];
  const met: string[] = [];
  let allWithinQueued = true;
  for (const row of rows) {
    if (Number(row.rn) === 1) met.push(row.queue);
    if (row.take) {
      chosen.push({ id: Number(row.id), slot: row.slot });
      allWithinQueued &&= row.within_queued;
    }
  }
  const queuedFilled = rows.length > 0 && rows[0]!.queued_read >= scan;
  const retriesFilled = rows.length > 0 && rows[0]!.retries_read >= scan;
  const final = !retriesFilled && (!queuedFilled || (chosen.length >= request.capacity && allWithinQueued));
  return { chosen, met, final };
}

/**
 * Claim up to `capacity` due runs, within their queues' free concurrency (`queueLimits`, else
 * `defaultQueueLimit`), under the queues' advisory locks (QUEUE_LOCK_CLASS):
 * 1. Try the locks of the queues the last claim met (`request.queues`), without waiting. When
 *    another claim holds every one of them, wait for them all, in the order of their keys.
 * 2. Read the candidates and the running counts of the queues held (a statement begun after the
 *    locks: what another claim of these queues took is running in it), and keep the runs that fit.
 * 3. When that leaves capacity and the candidates include queues not held, try their locks and
 *    read again. When it took nothing and got none of them, it first waits for those whose keys
 *    are above every key it holds (waitForQueueLocks: so no two claims wait for each other); the
 *    others, if any, make it `contended`, and the runner claims again at once.
 * 4. Lock the runs kept with SKIP LOCKED and mark them RUNNING with a lease; the attempts of those
 *    that wait for a free slot open CLAIMED (the others have no row until their outcome).
 * Candidates are read without row locks: the queue lock keeps other claims off them, and locking
 * every scanned row (each lock is a tuple write) would only cost; one that another transaction
 * holds (cancel, reconciler) is skipped in 4. A second runner thus claims from other queues while
 * one claims from a busy queue, and waits its turn when there is nothing else.
 */
export async function claimRuns(tx: Executor, request: ClaimRequest): Promise<ClaimedRun[]> {
  if (request.capacity <= 0) return [];
  const queues = request.queues ?? { due: [] };
  // The candidates must come from the claim index in its order, stopping after `scan` entries,
  // however stale the statistics (INDEX_SCANS_ONLY), or each claim costs more the deeper the queue.
  // Both settings and FORMER_CLAIM_LOCK ride on the first lock statement.
  const hinted = await tryQueueLocks(tx, queues.due, sql`${FORMER_CLAIM_LOCK}, ${INDEX_SCANS_ONLY}`);
  let held = hinted.filter((lock) => lock.locked);
  // Got none: wait for them all (holding none, in key order), rather than take nothing.
  if (held.length === 0) held = await waitForQueueLocks(tx, hinted, held);
  const now = request.now.toISOString();
  const leaseUntil = new Date(request.now.getTime() + request.leaseMs).toISOString();
  // Scan further than the capacity so that a full queue at the head starves the others less often
  // (not never: docs/reliability.md, "Known limit: a scan of due runs in full queues").
  const scan = Math.max(request.capacity * 4, 100);
  const names = (locks: readonly QueueLock[]): string[] => locks.map((lock) => lock.queue);
  let { chosen, met } = await chooseRuns(tx, request, now, scan, names(held));
  const unheld = met.filter((queue) => !held.some((lock) => lock.queue === queue));
  queues.contended = false;
  if (unheld.length > 0 && chosen.length < request.capacity) {
    const tried = await tryQueueLocks(tx, unheld, null);
    const got = tried.filter((lock) => lock.locked);
    let missed = tried.filter((lock) => !lock.locked);
    // With nothing to take from the queues it holds, wait for those it may (waitForQueueLocks).
    if (chosen.length === 0 && got.length === 0 && missed.length > 0) {
      const waited = await waitForQueueLocks(tx, missed, held);
      got.push(...waited);
      missed = missed.filter((lock) => !waited.some((w) => w.queue === lock.queue));
    }
    if (got.length > 0) {
      held = [...held, ...got];
      ({ chosen, met } = await chooseRuns(tx, request, now, scan, names(held)));
    }
    queues.contended = chosen.length === 0 && missed.length > 0;
  }
  queues.due = met;
  if (chosen.length === 0) return [];
  const chosenIds = integerArray(chosen.map((c) => Number(c.id)));
  const chosenSlots = textArray(chosen.map((c) => c.slot));
  const rows = await queryRows<ClaimedRow>(
    tx,
    sql`with chosen as materialized (
          select c.*, 'QUEUED'::text as queued, 'RETRY_PENDING'::text as retrying from unnest(${chosenIds}::bigint[], ${chosenSlots}::timestamptz[]) as c(id, scheduled_for)
        ),
        locked as (
          select r.id, r.scheduled_for, r.priority from schedule_runs r join chosen c on c.id = r.id and c.scheduled_for = r.scheduled_for
          where r.status in (c.queued, c.retrying) and ${onSlotDays('r.scheduled_for', chosen)}
          for update of r skip locked
        ),
        ranked as (
          select l.*, row_number() over (order by l.priority, l.scheduled_for, l.id) <= ${request.startNow ?? request.capacity} as starts_now from locked l
        ),
        -- The attempt has no row until it ends: the run row records it (open-attempts.ts), RUNNING
        -- for the runs that start at once and CLAIMED for those that wait for a free slot.
        ordered as (
          update schedule_runs r
          set status = 'RUNNING', attempts = r.attempts + 1, lease_owner = ${request.runnerId},
              lease_expires_at = ${leaseUntil}::timestamptz, started_at = coalesce(r.started_at, ${now}::timestamptz),
              attempt_status = case when k.starts_now then 'RUNNING' else 'CLAIMED' end, attempt_started_at = ${now}::timestamptz
          from ranked k where r.id = k.id and r.scheduled_for = k.scheduled_for and ${onSlotDays('r.scheduled_for', chosen)}
          returning r.*, k.starts_now
        )
        -- Instants as epoch milliseconds and the date as text: parsing timestamps into Dates was a
        -- visible share of a busy runner's CPU. The lease's end is the one computed here.
        select o.id, o.schedule_id, s.name as schedule_name, o.schedule_version, round(extract(epoch from o.scheduled_for) * 1000)::float8 as scheduled_for_ms, to_char(o.scheduled_for at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as slot,
          o.trigger_type, o.idempotency_key, o.business_date::text as business_date, o.attempts, o.max_attempts, o.queue, o.priority, o.starts_now
        from ordered o join schedules s on s.id = o.schedule_id
        order by o.priority, o.scheduled_for, o.id`,
  );
  const leaseExpiresAt = new Date(leaseUntil);
  return rows.map((r) => ({
    id: Number(r.id),
    scheduleId: Number(r.schedule_id),
    scheduleName: r.schedule_name,
    scheduleVersion: r.schedule_version,
    scheduledFor: new Date(Number(r.scheduled_for_ms)),
    slot: r.slot,
    triggerType: r.trigger_type,
    idempotencyKey: r.idempotency_key,
    businessDate: r.business_date,
    attempt: r.attempts,
    maxAttempts: r.max_attempts,
    queue: r.queue,
    priority: r.priority,
    claimedAt: request.now,
    openedRunning: r.starts_now,
    leaseExpiresAt,
  }));
}

/** Definitions by (schedule, version): immutable rows, so callers may cache them forever. */
export async function loadDefinitions(executor: Executor, keys: Array<{ scheduleId: number; version: number }>): Promise<Map<string, Definition>> {
  const result = new Map<string, Definition>();
  if (keys.length === 0) return result;
  const rows = await queryRows<{ schedule_id: string | number; version: number; definition: Definition | string }>(
    executor,
    sql`select v.schedule_id, v.version, v.definition from schedule_versions v
        join jsonb_to_recordset(${JSON.stringify(keys.map((k) => ({ schedule_id: k.scheduleId, version: k.version })))}::jsonb) as x(schedule_id bigint, version int)
          on x.schedule_id = v.schedule_id and x.version = v.version`,
  );
  for (const row of rows) result.set(`${row.schedule_id}:${row.version}`, typeof row.definition === 'string' ? (JSON.parse(row.definition) as Definition) : row.definition);
  return result;
}

/** A run as the statements after its claim find it: its id and its exact slot (ClaimedRun.slot). */
export interface RunKey {
  runId: number;
  slot: string;
}

/**
 * `slotColumn` within the UTC days of `keys`' slots, as constant ranges (`(c >= day and c < next)
 * or …`): PostgreSQL plans and locks only those days' partitions (run-partitions.ts), however many
 * days the run tables hold, and a probe by key checks two bounds. (Not the list of exact slots, nor
 * `id = any(ids)` beside a join on id: each probe then walks the whole list, a million comparisons
 * for a batch of a thousand.)
 */
function onSlotDays(slotColumn: string, keys: ReadonlyArray<{ slot: string }>): SQL {
  const days = [...new Set(keys.map((k) => k.slot.slice(0, 10)))].sort();
  const slot = sql.raw(slotColumn);
  const ranges = days.map((day) => {
    const from = Date.parse(`${day}T00:00:00Z`);
    return sql`(${slot} >= ${new Date(from).toISOString()}::timestamptz and ${slot} < ${new Date(from + MS_PER_DAY).toISOString()}::timestamptz)`;
  });
  return sql`(${sql.join(ranges, sql` or `)})`;
}

/**
 * The rows of `keys` in a run table, for a statement that has no input to join them by:
 * `idColumn = any(ids)` and `slotColumn` within the UTC days of their slots, as constant ranges
 * (`(c >= day and c < next) or …`). The ranges let PostgreSQL plan and lock only those days'
 * partitions (run-partitions.ts), however many days the run tables hold; the ids give it the
 * number of rows to expect, whatever the statistics of a day partition made this morning say.
 * With the slots alone (a list, or the ranges) the planner took a fresh day for a few rows, read
 * it by the slot and joined each row to every outcome of the batch: a million comparisons for a
 * batch of a thousand (bench:runner, 10× slower).
 */
function byRunKeys(idColumn: string, slotColumn: string, keys: ReadonlyArray<{ runId: number; slot: string }>): SQL {
  return sql`${sql.raw(idColumn)} = any(${integerArray(keys.map((k) => k.runId))}::bigint[]) and ${onSlotDays(slotColumn, keys)}`;
}

/*
 * The statements that join runs to their input guard them by status and lease owner through
 * columns of a MATERIALIZED input (`r.status = i.running`) rather than constants: a partition
 * whose statistics predate the claim (a day made this morning) has no RUNNING row in them, and a
 * constant guard made the planner expect one row, read the day by its slots and compare each row
 * with every outcome of the batch (bench:runner, 10× slower). A join clause does not shrink the
 * row count the planner expects. GUARDS is that input's extra columns.
 */
const GUARDS = sql.raw(`'RUNNING'::text as running, 'CLAIMED'::text as claimed`);

/** Extends the leases this runner still holds; returns the run ids whose lease it has lost. */
export async function extendLeases(executor: Executor, runnerId: string, runs: RunKey[], now: Date, leaseMs: number): Promise<number[]> {
  if (runs.length === 0) return [];
  const rows = await queryRows<{ id: string | number }>(
    executor,
    sql`update schedule_runs set lease_expires_at = ${new Date(now.getTime() + leaseMs).toISOString()}::timestamptz
        where ${byRunKeys('id', 'scheduled_for', runs)} and status = 'RUNNING' and lease_owner = ${runnerId}
        returning id`,
  );
  const kept = new Set(rows.map((r) => Number(r.id)));
  return runs.map((r) => r.runId).filter((id) => !kept.has(id));
}

export interface AttemptCompletion {
  runId: number;
  /** ClaimedRun.slot. */
  slot: string;
  attempt: number;
  attemptStatus: Extract<AttemptStatus, 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'CANCELLED'>;
  /** The run's next status: SUCCESS, FAILED, RETRY_PENDING (with runAfter), CANCELLED, or SKIPPED (with statusReason). */
  runStatus: Extract<RunStatus, 'SUCCESS' | 'PARTIAL_SUCCESS' | 'FAILED' | 'RETRY_PENDING' | 'CANCELLED' | 'SKIPPED' | 'MANUAL_REQUIRED'>;
  /** Written to the run only when set (a SKIPPED run's reason, SAFETY_THRESHOLD); otherwise the run keeps its own. */
  statusReason?: SkipReason | ManualReason | null;
  /** What the job reported (SPEC §8a), written with the outcome when the outcome is. */
  progress?: ProgressWrite;
  runAfter: Date | null;
  exitCode: number | null;
  httpStatus: number | null;
  error: string | null;
  stdoutTail: string | null;
  stderrTail: string | null;
  /**
   * When the attempt ended (default: `now` of the write). Outcomes are written in batches and,
   * during a drain or a database outage, late: the record keeps the real end, never after the
   * start of a retry that another runner may already have made.
   */
  finishedAt?: Date | null;
  /**
   * When the job really started, and when it was claimed. A runner claims a little ahead of its
   * free slots, so a claimed run may wait briefly in its local queue: the attempt (and the run, if
   * this attempt was its first start) records the real start instead of the claim.
   */
  startedAt?: Date | null;
  claimedAt?: Date | null;
}

/**
 * Writes outcomes only where this runner still holds the lease of that very attempt; returns the
 * runs actually completed, with their schedule and whether it has PENDING runs (QUEUE_NEW) that
 * `promotePendingRuns` must now consider.
 */
export async function completeAttempts(
  tx: Executor,
  runnerId: string,
  completions: AttemptCompletion[],
  now: Date,
): Promise<Array<{ runId: number; scheduleId: number; status: string; hasPending: boolean; hasDependents: boolean }>> {
  if (completions.length === 0) return [];
  // Parallel arrays through unnest, not a JSON document: the planner then knows how many rows come
  // in (a JSON record set always counts as 100) and joins them to schedule_runs by primary key
  // instead of scanning every RUNNING row once per outcome. Built as literals (array-literal.ts);
  // a column with no value at all (no error, no output) is sent as NULL.
  const column = <T>(pick: (c: AttemptCompletion) => T): T[] => completions.map(pick);
  const rows = await queryRows<{ id: string | number; schedule_id: string | number; status: string; has_pending: boolean; has_dependents: boolean }>(
    tx,
    sql`with input as materialized (
          select x.*, ${GUARDS}, ${runnerId}::text as owner from unnest(${integerArray(column((c) => c.runId))}::bigint[], ${textArray(column((c) => c.slot))}::timestamptz[], ${integerArray(column((c) => c.attempt))}::int[],
            ${textArray(column((c) => c.attemptStatus))}::text[], ${textArray(column((c) => c.runStatus))}::text[],
            ${instantArray(column((c) => c.runAfter))}::timestamptz[], ${integerArray(column((c) => c.exitCode))}::int[],
            ${integerArray(column((c) => c.httpStatus))}::int[], ${textArray(column((c) => c.error))}::text[],
            ${textArray(column((c) => c.stdoutTail))}::text[], ${textArray(column((c) => c.stderrTail))}::text[],
            ${instantArray(column((c) => c.finishedAt ?? now))}::timestamptz[],
            ${instantArray(column((c) => c.startedAt ?? null))}::timestamptz[],
            ${instantArray(column((c) => c.claimedAt ?? null))}::timestamptz[],
            ${textArray(column((c) => c.statusReason ?? null))}::text[])
            as x(id, slot, attempt, attempt_status, run_status, run_after, exit_code, http_status, error, stdout_tail, stderr_tail, finished_at, started_at, claimed_at, status_reason)
        ),
        done as (
          update schedule_runs r
          set status = i.run_status, run_after = coalesce(i.run_after, r.run_after), status_reason = coalesce(i.status_reason, r.status_reason),
              finished_at = case when i.run_status in ('SUCCESS', 'PARTIAL_SUCCESS', 'FAILED', 'CANCELLED', 'SKIPPED') then i.finished_at else null end,
              -- The run's start is its first attempt's: replaced only when this attempt's claim set it.
              started_at = case when i.started_at is not null and r.started_at = i.claimed_at then i.started_at else r.started_at end,
              lease_owner = null, lease_expires_at = null
          from input i
          where r.id = i.id and r.scheduled_for = i.slot and ${onSlotDays('r.scheduled_for', completions)}
            and r.status = i.running and r.lease_owner = i.owner and r.attempts = i.attempt
          returning r.id, r.schedule_id, r.status, r.attempt_started_at,
            exists (select 1 from active_runs p where p.schedule_id = r.schedule_id and p.status = 'PENDING') as has_pending
        ),
        -- The attempt's row, written once, now (open-attempts.ts). Nothing else writes the row of an
        -- attempt this runner still holds; the guard keeps a batch from failing if a bug ever did.
        -- (Not ON CONFLICT: its speculative insert logs a confirm record, ~48 bytes a run.)
        opened as (
          insert into run_attempts (run_id, attempt, scheduled_for, runner_id, status, started_at, finished_at, exit_code, http_status, error, stdout_tail, stderr_tail)
          select i.id, i.attempt, i.slot, i.owner, i.attempt_status, coalesce(i.started_at, d.attempt_started_at, i.claimed_at, i.finished_at), i.finished_at,
            i.exit_code, i.http_status, i.error, i.stdout_tail, i.stderr_tail
          from input i join done d on d.id = i.id
          where not exists (select 1 from run_attempts a where a.run_id = i.id and a.attempt = i.attempt and a.scheduled_for = i.slot and ${onSlotDays('a.scheduled_for', completions)})
        ),
        -- Schedules of this batch's successes that some schedule's spec.after names (one probe of
        -- schedules_after_idx per schedule): only their runs need cronform.create_dependency_runs,
        -- a plpgsql call that costs several times this probe even when it finds nothing.
        followed as (
          select s.id from schedules s
          where s.id in (select schedule_id from done where status = 'SUCCESS')
            and exists (select 1 from schedules d where (d.definition -> 'after') @> jsonb_build_array(jsonb_build_object('schedule', s.name)))
        )
        select id, schedule_id, status, has_pending, (status = 'SUCCESS' and schedule_id in (select id from followed)) as has_dependents from done`,
  );
  return rows.map((r) => ({ runId: Number(r.id), scheduleId: Number(r.schedule_id), status: r.status, hasPending: r.has_pending, hasDependents: r.has_dependents }));
}

/**
 * Records that claimed jobs have started (the run row's attempt CLAIMED → RUNNING, with the real
 * start: the attempt has no row of its own yet, open-attempts.ts). Written in batches after the
 * fact: what tells the reconciler whether a run whose runner died had started (its attempt
 * STALLED, per onStall) or was still waiting in that runner's local queue (handed back, no attempt
 * used). A job that ends before the batch is written needs none: its outcome carries its start.
 * The run's own `started_at` keeps the claim instant until the outcome writes the real one.
 */
export async function markAttemptsStarted(tx: Executor, runnerId: string, starts: Array<RunKey & { attempt: number; startedAt: Date }>): Promise<void> {
  if (starts.length === 0) return;
  await tx.execute(
    sql`with input as materialized (
          select x.*, ${GUARDS}, ${runnerId}::text as owner from unnest(${integerArray(starts.map((s) => s.runId))}::bigint[], ${textArray(starts.map((s) => s.slot))}::timestamptz[],
            ${integerArray(starts.map((s) => s.attempt))}::int[], ${instantArray(starts.map((s) => s.startedAt))}::timestamptz[])
            as x(id, slot, attempt, started_at)
        )
        update schedule_runs r set attempt_status = i.running, attempt_started_at = i.started_at
        from input i
        where r.id = i.id and r.scheduled_for = i.slot and ${onSlotDays('r.scheduled_for', starts)}
          and r.status = i.running and r.lease_owner = i.owner and r.attempts = i.attempt and r.attempt_status = i.claimed`,
  );
}

/**
 * QUEUE_NEW: when a schedule has no active run left, its oldest PENDING run becomes QUEUED.
 * Also run by the reconciler as a safety net (a PENDING inserted while the active run ended).
 */
export async function promotePendingRuns(tx: Executor, scheduleIds: number[] | 'all'): Promise<number> {
  const filter = scheduleIds === 'all' ? sql`true` : sql`p.schedule_id = any(${sql.param(scheduleIds)}::bigint[])`;
  if (scheduleIds !== 'all' && scheduleIds.length === 0) return 0;
  const rows = await queryRows<{ id: string | number }>(
    tx,
    sql`update schedule_runs set status = 'QUEUED'
        where status = 'PENDING' and id in (
          select distinct on (p.schedule_id) p.run_id from active_runs p
          where ${filter} and p.status = 'PENDING'
            and not exists (select 1 from active_runs a where a.schedule_id = p.schedule_id and a.status in ('QUEUED', 'RUNNING', 'RETRY_PENDING'))
          order by p.schedule_id, p.scheduled_for
        )
        returning id`,
  );
  return rows.length;
}

/**
 * Hands back runs this runner claimed but never started (its local queue, at shutdown): the run
 * is QUEUED again exactly as before the claim (attempt count, start); their attempts have no row
 * (open-attempts.ts), so nothing records an attempt that never was. Guarded by lease owner and
 * attempt like every write.
 */
export async function returnUnstartedRuns(tx: Executor, runnerId: string, runs: Array<RunKey & { attempt: number }>): Promise<number> {
  if (runs.length === 0) return 0;
  const rows = await queryRows<{ id: string | number }>(
    tx,
    sql`with input as materialized (
          select x.*, ${GUARDS}, ${runnerId}::text as owner from jsonb_to_recordset(${JSON.stringify(runs.map((r) => ({ id: r.runId, slot: r.slot, attempt: r.attempt })))}::jsonb) as x(id bigint, slot timestamptz, attempt int)
        )
        update schedule_runs r
        set status = 'QUEUED', attempts = r.attempts - 1, lease_owner = null, lease_expires_at = null, attempt_status = null, attempt_started_at = null,
            started_at = case when r.attempts = 1 then null else r.started_at end
        from input i
        where r.id = i.id and r.scheduled_for = i.slot and ${onSlotDays('r.scheduled_for', runs)}
          and r.status = i.running and r.lease_owner = i.owner and r.attempts = i.attempt
        returning r.id`,
  );
  return rows.length;
}

const RELEASED = sql`'runner shut down before the attempt finished; run released to other runners'`;

/**
 * Graceful shutdown: hand unfinished runs back at once (QUEUED, lease cleared) so another replica
 * takes them over; the interrupted attempt is closed as CANCELLED and does not use up a retry.
 * run_after moves to `now`: a claim that read its clock before this commit must not start the next
 * attempt at an instant before this one's recorded end.
 */
export async function releaseLeases(tx: Executor, runnerId: string, runs: RunKey[], now: Date): Promise<number> {
  if (runs.length === 0) return 0;
  const rows = await queryRows<{ id: string | number }>(
    tx,
    sql`with released as (
          update schedule_runs set status = 'QUEUED', lease_owner = null, lease_expires_at = null, max_attempts = max_attempts + 1,
            run_after = greatest(run_after, ${now.toISOString()}::timestamptz)
          where ${byRunKeys('id', 'scheduled_for', runs)}
            and status = 'RUNNING' and lease_owner = ${runnerId}
          returning id, scheduled_for
        ),
        opened as (${insertEndedAttempts(sql`released`, { status: sql`'CANCELLED'`, finishedAt: sql`${now.toISOString()}::timestamptz`, error: RELEASED, onDays: (column) => onSlotDays(column, runs) })})
        select id from released`,
  );
  return rows.length;
}

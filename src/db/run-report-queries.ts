/** Read-only statements behind `runs` and `status` (SPEC §7 operations). */
import { sql, type SQL } from 'drizzle-orm/sql/sql';
import { queryRows, type StatementExecutor } from './client.js';
import { toDate, toDateOnly, toOptionalDate } from './row-values.js';

export interface RunListFilter {
  scheduleName?: string | undefined;
  status?: string | undefined;
  /** Runs whose slot is at or after this instant. */
  since?: Date | undefined;
  limit: number;
  /**
   * An instant after which most of the newest runs lie (a week ago): they are read first, naming it
   * as a constant, so PostgreSQL plans only the run tables' recent days (run-partitions.ts); older
   * days are read only when those held fewer than `limit` runs. Absent: one read of every day.
   */
  recentFrom?: Date | undefined;
}

export interface RunListRow {
  id: number;
  schedule: string;
  scheduledFor: Date;
  triggerType: string;
  status: string;
  statusReason: string | null;
  attempts: number;
  maxAttempts: number;
  businessDate: string | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  summarizedSlots: number | null;
  /** The run's latest attempt: why it failed, when it did. */
  lastAttempt: AttemptOutcomeRow | null;
}

/** What an attempt ended with, without its output. */
export interface AttemptOutcomeRow {
  attempt: number;
  status: string;
  exitCode: number | null;
  httpStatus: number | null;
  error: string | null;
}

interface RunListDbRow {
  id: string | number;
  schedule: string;
  scheduled_for: Date | string;
  trigger_type: string;
  status: string;
  status_reason: string | null;
  attempts: number;
  max_attempts: number;
  business_date: string | Date | null;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  summarized_slots: number | null;
  last_attempt: number | null;
  last_attempt_status: string | null;
  last_exit_code: number | null;
  last_http_status: number | null;
  last_error: string | null;
}


/** Newest slot first. */
export async function listRuns(executor: StatementExecutor, filter: RunListFilter): Promise<RunListRow[]> {
  const { recentFrom } = filter;
  if (recentFrom === undefined || (filter.since !== undefined && filter.since >= recentFrom)) return selectRuns(executor, filter, {});
  const recent = await selectRuns(executor, filter, { from: recentFrom });
  if (recent.length >= filter.limit) return recent;
  // Every recent run is newer than every older one: the two pages join in order.
  return [...recent, ...(await selectRuns(executor, { ...filter, limit: filter.limit - recent.length }, { before: recentFrom }))];
}

async function selectRuns(executor: StatementExecutor, filter: RunListFilter, slots: { from?: Date; before?: Date }): Promise<RunListRow[]> {
  const conditions: SQL[] = [sql`true`];
  // The same bounds on the attempts (they share their run's slot), or all their days are planned.
  const attemptSlots: SQL[] = [sql`true`];
  if (slots.from !== undefined) {
    conditions.push(sql`r.scheduled_for >= ${slots.from.toISOString()}::timestamptz`);
    attemptSlots.push(sql`a.scheduled_for >= ${slots.from.toISOString()}::timestamptz`);
  }
  if (slots.before !== undefined) {
    conditions.push(sql`r.scheduled_for < ${slots.before.toISOString()}::timestamptz`);
    attemptSlots.push(sql`a.scheduled_for < ${slots.before.toISOString()}::timestamptz`);
  }
  // By id, so the schedule's runs come from its slot key newest first: a name condition on the
  // join read every run of the table (bench/retention: 21× slower with 200,000 runs stored).
  if (filter.scheduleName !== undefined) conditions.push(sql`r.schedule_id = (select id from schedules where name = ${filter.scheduleName})`);
  if (filter.status !== undefined) conditions.push(sql`r.status = ${filter.status}`);
  if (filter.since !== undefined) conditions.push(sql`r.scheduled_for >= ${filter.since.toISOString()}::timestamptz`);
  const rows = await queryRows<RunListDbRow>(
    executor,
    sql`select r.id, s.name as schedule, r.scheduled_for, r.trigger_type, r.status, r.status_reason, r.attempts, r.max_attempts,
          r.business_date, r.started_at, r.finished_at, r.summarized_slots, last.attempt as last_attempt, last.status as last_attempt_status,
          last.exit_code as last_exit_code, last.http_status as last_http_status, last.error as last_error
        from schedule_runs r join schedules s on s.id = r.schedule_id
        left join lateral (
          select a.attempt, a.status, a.exit_code, a.http_status, a.error from run_attempts a where a.run_id = r.id and a.scheduled_for = r.scheduled_for and ${sql.join(attemptSlots, sql` and `)}
          -- A running attempt may have no row yet (open-attempts.ts): it is the run's latest.
          union all
          select r.attempts, r.attempt_status, null, null, null where r.status = 'RUNNING' and r.lease_owner is not null and r.attempt_status is not null
            and not exists (select 1 from run_attempts o where o.run_id = r.id and o.attempt = r.attempts and o.scheduled_for = r.scheduled_for)
          order by 1 desc limit 1
        ) last on true
        where ${sql.join(conditions, sql` and `)}
        order by r.scheduled_for desc, r.id desc
        limit ${filter.limit}`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    schedule: r.schedule,
    scheduledFor: toDate(r.scheduled_for),
    triggerType: r.trigger_type,
    status: r.status,
    statusReason: r.status_reason,
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    businessDate: toDateOnly(r.business_date),
    startedAt: toOptionalDate(r.started_at),
    finishedAt: toOptionalDate(r.finished_at),
    summarizedSlots: r.summarized_slots,
    lastAttempt: r.last_attempt === null ? null : { attempt: r.last_attempt, status: r.last_attempt_status!, exitCode: r.last_exit_code, httpStatus: r.last_http_status, error: r.last_error },
  }));
}

export interface ScheduleStatusRow {
  name: string;
  enabled: boolean;
  /** CRITICAL, HIGH, MEDIUM or LOW (definitions compiled before the field: MEDIUM). */
  criticality: string;
  cron: string;
  timezone: string;
  description: string | null;
  approvalRequired: boolean;
  nextRunAt: Date | null;
  pausedAt: Date | null;
  pausedBy: string | null;
  pausedReason: string | null;
  pausedUntil: Date | null;
  lastRun: { id: number; status: string; scheduledFor: Date; finishedAt: Date | null } | null;
  succeeded: number;
  finished: number;
  p95StartDelayMs: number | null;
  runsInDay: number;
  activeRuns: number;
  /** Earliest run_after of the schedule's QUEUED or RETRY_PENDING runs, backfills left out. */
  oldestWaitingRunAfter: Date | null;
}

interface ScheduleStatusDbRow {
  name: string;
  enabled: boolean | string | null;
  criticality: string | null;
  cron: string;
  timezone: string;
  description: string | null;
  approval: string | null;
  next_run_at: Date | string | null;
  paused_at: Date | string | null;
  paused_by: string | null;
  paused_reason: string | null;
  paused_until: Date | string | null;
  last_id: string | number | null;
  last_status: string | null;
  last_scheduled_for: Date | string | null;
  last_finished_at: Date | string | null;
  succeeded: number;
  finished: number;
  p95_ms: number | string | null;
  runs_in_day: number;
  active_runs: number;
  oldest_waiting: Date | string | null;
}

export interface StatusWindow {
  /** Finished runs and start delays are counted from here. */
  statsSince: Date;
  /** Runs whose slot falls in [dayStart, dayEnd). */
  dayStart: Date;
  dayEnd: Date;
  /**
   * Reads the stats of each schedule (last result, success rate, start delay) from its latest
   * `recentRunsCap` slots only, through the (schedule_id, scheduled_for) key: bounded work per
   * schedule however long its history, for the dashboard. Absent: every run in the window.
   */
  recentRunsCap?: number | undefined;
  /** One page of schedules by name (the dashboard); absent: all of them. */
  page?: SchedulePage | undefined;
}

export interface SchedulePage {
  /** Names containing this text (case-insensitive). */
  nameContains?: string | undefined;
  /** This name only. */
  name?: string | undefined;
  offset: number;
  limit: number;
}

/** `%`, `_` and `\` match themselves in the LIKE pattern. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

function pageConditions(page: SchedulePage | undefined): SQL {
  const conditions: SQL[] = [sql`s.status = 'ACTIVE'`];
  if (page?.nameContains) conditions.push(sql`s.name ilike ${likePattern(page.nameContains)}`);
  if (page?.name !== undefined) conditions.push(sql`s.name = ${page.name}`);
  return sql.join(conditions, sql` and `);
}

/** Active schedules on all pages of `page` (its offset and limit ignored). */
export async function countActiveSchedules(executor: StatementExecutor, page?: Omit<SchedulePage, 'offset' | 'limit'>): Promise<number> {
  const [row] = await queryRows<{ n: number }>(executor, sql`select count(*)::int as n from schedules s where ${pageConditions({ offset: 0, limit: 0, ...page })}`);
  return Number(row!.n);
}

/** The names of the active schedules on `page`, in name order. */
export async function listActiveScheduleNames(executor: StatementExecutor, page: SchedulePage): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(executor, sql`select s.name from schedules s where ${pageConditions(page)} order by s.name limit ${page.limit} offset ${page.offset}`);
  return rows.map((r) => r.name);
}

/** How far before the status window a run's slot may be and the run still count in it. */
export const STATUS_SLOT_SLACK_MS = 86_400_000;

/**
 * One row per active schedule. Success rate counts runs that executed and ended (SUCCESS or
 * FAILED); start delay is started_at − scheduled_for of SCHEDULED runs (started_at is the first
 * attempt's start), as percentile_cont over the window.
 */
export async function summarizeScheduleStatus(executor: StatementExecutor, window: StatusWindow): Promise<ScheduleStatusRow[]> {
  const since = window.statsSince.toISOString();
  // Every figure reads the schedule's runs through its (schedule_id, scheduled_for) key from here
  // on, so a long history costs nothing (bench/retention): a run whose slot is more than
  // STATUS_SLOT_SLACK_MS before the window (a backfill of an old slot, a run that waited a day to
  // start) is not counted in the window's success rate and start delays.
  const slotsFrom = new Date(window.statsSince.getTime() - STATUS_SLOT_SLACK_MS).toISOString();
  // The schedules are chosen (and paged) before the lateral reads, so a page reads its own runs only;
  // the page is found by id and name alone, so a late page does not sort 10,000 definitions.
  const page = window.page;
  const chosen = page
    ? sql`(select * from schedules where id in (select s.id from schedules s where ${pageConditions(page)} order by s.name limit ${page.limit} offset ${page.offset}))`
    : sql`(select * from schedules s where ${pageConditions(undefined)})`;
  const cap = window.recentRunsCap;
  const recent = cap === undefined ? sql`schedule_runs` : sql`(select * from schedule_runs r0 where r0.schedule_id = s.id order by r0.scheduled_for desc limit ${cap})`;
  const rows = await queryRows<ScheduleStatusDbRow>(
    executor,
    sql`select s.name, (s.definition->>'enabled')::boolean as enabled, s.definition->>'cron' as cron, s.definition->>'timezone' as timezone,
          s.definition->>'description' as description, s.definition->>'approval' as approval, s.definition->>'criticality' as criticality, s.next_run_at, s.paused_at, s.paused_by, s.paused_reason, s.paused_until,
          last.id as last_id, last.status as last_status, last.scheduled_for as last_scheduled_for, last.finished_at as last_finished_at,
          coalesce(stats.succeeded, 0)::int as succeeded, coalesce(stats.finished, 0)::int as finished,
          delay.p95_ms::float8 as p95_ms, coalesce(day.n, 0)::int as runs_in_day, coalesce(active.n, 0)::int as active_runs, active.oldest_waiting
        from ${chosen} s
        left join lateral (
          (select r.id, r.status, r.scheduled_for, r.finished_at from ${recent} r
            where r.schedule_id = s.id and r.status in ('SUCCESS', 'PARTIAL_SUCCESS', 'FAILED', 'CANCELLED') and r.scheduled_for >= ${slotsFrom}::timestamptz
            order by r.finished_at desc nulls last, r.id desc limit 1)
          union all
          -- None in the window: the latest by slot, read backwards through the slot key (a
          -- schedule idle for weeks), never every run of the schedule. Not run when the first found one.
          (select r.id, r.status, r.scheduled_for, r.finished_at from ${recent} r
            where r.schedule_id = s.id and r.status in ('SUCCESS', 'PARTIAL_SUCCESS', 'FAILED', 'CANCELLED')
            order by r.scheduled_for desc limit 1)
          limit 1
        ) last on true
        left join lateral (
          select count(*) filter (where r.status = 'SUCCESS') as succeeded, count(*) as finished from ${recent} r
          where r.schedule_id = s.id and r.status in ('SUCCESS', 'FAILED') and r.finished_at >= ${since}::timestamptz and r.scheduled_for >= ${slotsFrom}::timestamptz
        ) stats on true
        left join lateral (
          select percentile_cont(0.95) within group (order by extract(epoch from (r.started_at - r.scheduled_for)) * 1000) as p95_ms
          from ${recent} r
          where r.schedule_id = s.id and r.trigger_type = 'SCHEDULED' and r.started_at is not null and r.started_at >= ${since}::timestamptz and r.scheduled_for >= ${slotsFrom}::timestamptz
        ) delay on true
        left join lateral (
          select count(*) as n from schedule_runs r
          where r.schedule_id = s.id and r.scheduled_for >= ${window.dayStart.toISOString()}::timestamptz and r.scheduled_for < ${window.dayEnd.toISOString()}::timestamptz
        ) day on true
        left join lateral (
          select count(*) as n,
            min(r.run_after) filter (where r.status in ('QUEUED', 'RETRY_PENDING') and r.trigger_type <> 'BACKFILL') as oldest_waiting
          from active_runs r where r.schedule_id = s.id and r.status in ('QUEUED', 'RUNNING', 'RETRY_PENDING')
        ) active on true
        order by s.name`,
  );
  return rows.map((r) => ({
    name: r.name,
    enabled: r.enabled === null ? true : r.enabled === true || r.enabled === 'true',
    criticality: r.criticality ?? 'MEDIUM',
    cron: r.cron,
    timezone: r.timezone,
    description: r.description,
    approvalRequired: r.approval === 'required',
    nextRunAt: toOptionalDate(r.next_run_at),
    pausedAt: toOptionalDate(r.paused_at),
    pausedBy: r.paused_by,
    pausedReason: r.paused_reason,
    pausedUntil: toOptionalDate(r.paused_until),
    lastRun: r.last_id === null ? null : { id: Number(r.last_id), status: r.last_status!, scheduledFor: toDate(r.last_scheduled_for!), finishedAt: toOptionalDate(r.last_finished_at) },
    succeeded: Number(r.succeeded),
    finished: Number(r.finished),
    p95StartDelayMs: r.p95_ms === null ? null : Number(r.p95_ms),
    runsInDay: Number(r.runs_in_day),
    activeRuns: Number(r.active_runs),
    oldestWaitingRunAfter: toOptionalDate(r.oldest_waiting),
  }));
}

export async function scheduleNameExists(executor: StatementExecutor, name: string): Promise<boolean> {
  const rows = await queryRows<{ id: string | number }>(executor, sql`select id from schedules where name = ${name}`);
  return rows.length > 0;
}

export interface RunnerRow {
  id: string;
  hostname: string;
  pid: number;
  version: string;
  startedAt: Date;
  heartbeatAt: Date;
  stoppedAt: Date | null;
  /** Runs RUNNING under this runner's lease. */
  runsInFlight: number;
}

/**
 * Runners not marked stopped, and those that stopped or went silent after `since`, latest
 * heartbeat first: a restart adds a row, so older ones are history, not news.
 */
export async function listRecentRunners(executor: StatementExecutor, since: Date, limit: number): Promise<RunnerRow[]> {
  const rows = await queryRows<{ id: string; hostname: string; pid: number; version: string; started_at: Date | string; heartbeat_at: Date | string; stopped_at: Date | string | null; in_flight: number }>(
    executor,
    sql`select w.id, w.hostname, w.pid, w.version, w.started_at, w.heartbeat_at, w.stopped_at, coalesce(flight.n, 0)::int as in_flight
        from runners w
        left join (
          select r.lease_owner, count(*) as n from active_runs a join schedule_runs r on r.id = a.run_id and r.scheduled_for = a.scheduled_for
          where a.status = 'RUNNING' group by r.lease_owner
        ) flight on flight.lease_owner = w.id
        where w.stopped_at is null or w.heartbeat_at >= ${since.toISOString()}::timestamptz
        order by w.heartbeat_at desc, w.id
        limit ${limit}`,
  );
  return rows.map((r) => ({
    id: r.id,
    hostname: r.hostname,
    pid: r.pid,
    version: r.version,
    startedAt: toDate(r.started_at),
    heartbeatAt: toDate(r.heartbeat_at),
    stoppedAt: toOptionalDate(r.stopped_at),
    runsInFlight: Number(r.in_flight),
  }));
}

export interface HandedOffRunRow {
  runId: number;
  schedule: string;
  attempt: number;
  system: string;
  target: string;
  externalJobId: string | null;
  handedOffAt: Date;
  lastReportAt: Date | null;
  leaseExpiresAt: Date | null;
}

/**
 * Runs handed to a queue and not finished yet (`status`), oldest hand-off first; through active_runs,
 * never a scan of the run history. Here, not in queue-handoff-queries.ts, so `status` loads only
 * its read-only statements.
 */
export async function listHandedOffRuns(executor: StatementExecutor, limit: number): Promise<HandedOffRunRow[]> {
  const rows = await queryRows<Record<string, string | number | null>>(
    executor,
    sql`select r.id, s.name as schedule, r.attempts, h.system, h.target, h.external_job_id, h.handed_off_at, h.last_heartbeat_at, r.lease_expires_at
        from active_runs a join schedule_runs r on r.id = a.run_id and r.scheduled_for = a.scheduled_for join schedules s on s.id = r.schedule_id
        join queue_handoffs h on h.run_id = r.id and h.attempt = r.attempts
        where a.status = 'RUNNING' and r.status = 'RUNNING' and r.lease_owner like 'queue:%'
        order by h.handed_off_at, r.id limit ${limit}`,
  );
  return rows.map((r) => ({
    runId: Number(r.id),
    schedule: String(r.schedule),
    attempt: Number(r.attempts),
    system: String(r.system),
    target: String(r.target),
    externalJobId: r.external_job_id === null ? null : String(r.external_job_id),
    handedOffAt: new Date(r.handed_off_at as string),
    lastReportAt: r.last_heartbeat_at === null ? null : new Date(r.last_heartbeat_at as string),
    leaseExpiresAt: r.lease_expires_at === null ? null : new Date(r.lease_expires_at as string),
  }));
}

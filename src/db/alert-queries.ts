/**
 * Statements of the alert evaluator and `cronform alerts` (README "Alerts"). The database settles
 * which replica records an alert: `insertAlert` is `on conflict do nothing` on (rule,
 * condition_key) and returns the row only to the replica that wrote it; `resolveAlert` is guarded
 * by the OPEN state the same way. Instants cross as epoch milliseconds.
 */
import { sql, type SQL } from 'drizzle-orm';
import { textArray } from './array-literal.js';
import { queryRows, type Executor } from './client.js';
import { openAttempts } from './open-attempts.js';
import type { AlertState } from './schema.js';

/** What the alert rules read per schedule (runner/alerts/rules.ts: ScheduleAlertInput), as stored. */
export interface ScheduleAlertRow {
  scheduleId: number;
  name: string;
  criticality: string;
  timeoutMs: number;
  gracePeriodMs: number;
  freshnessMs: number | null;
  paused: boolean;
  createdAtMs: number;
  lastSuccessAtMs: number | null;
  outcomes: Array<{ runId: number; status: 'SUCCESS' | 'FAILED'; finishedAtMs: number | null; reason: string | null; error: string | null }>;
  /** The failed runs since the last success: the first one (what keys the alert) and how many (counted up to 1,000). */
  failureStreak: { firstRunId: number; count: number } | null;
  attempts: Array<{ runId: number; attempt: number; status: string; startedAtMs: number }>;
  firstUnstartedSlot: { slotMs: number; runId: number | null; status: string | null } | null;
}

const ms = (column: SQL) => sql`(extract(epoch from ${column}) * 1000)::float8`;

/**
 * Every active schedule with its latest outcomes (`outcomeLimit`, newest slot first), latest
 * attempts, last success, the failed runs since, and the oldest scheduled slot that has
 * not started since the last one that did: a run row, or next_run_at when no runner created it.
 * Each lateral reads one schedule's runs through schedule_runs_slot_key, newest first.
 */
export async function readScheduleAlertRows(executor: Executor, outcomeLimit: number): Promise<ScheduleAlertRow[]> {
  const rows = await queryRows<{
    schedule_id: string | number; name: string; criticality: string; timeout_ms: number; grace_period_ms: number; freshness_ms: number | null;
    paused: boolean; created_at_ms: number; last_success_at_ms: number | null; outcomes: ScheduleAlertRow['outcomes'] | null; attempts: ScheduleAlertRow['attempts'] | null;
    streak_first_id: string | number | null; streak_count: string | number; last_started_ms: number | null; unstarted_slot_ms: number | null; unstarted_run_id: string | number | null; unstarted_status: string | null; next_run_at_ms: number | null;
  }>(
    executor,
    sql`select s.id as schedule_id, s.name, s.definition->>'criticality' as criticality,
          (s.definition->>'timeoutMs')::float8 as timeout_ms, (s.definition->>'gracePeriodMs')::float8 as grace_period_ms,
          (s.definition->>'freshnessMs')::float8 as freshness_ms, s.paused_at is not null as paused,
          ${ms(sql`s.created_at`)} as created_at_ms, ${ms(sql`s.next_run_at`)} as next_run_at_ms,
          outcomes.list as outcomes, attempts.list as attempts, success.at_ms as last_success_at_ms,
          streak.first_id as streak_first_id, streak.count as streak_count, started.slot_ms as last_started_ms, unstarted.slot_ms as unstarted_slot_ms, unstarted.id as unstarted_run_id, unstarted.status as unstarted_status
        from schedules s
        left join lateral (
          select json_agg(json_build_object('runId', o.id, 'status', o.status, 'finishedAtMs', ${ms(sql`o.finished_at`)}, 'reason', o.status_reason,
                   'error', (select a.error from run_attempts a where a.run_id = o.id and a.scheduled_for = o.scheduled_for order by a.attempt desc limit 1)) order by o.scheduled_for desc) as list
          from (select r.id, r.status, r.finished_at, r.status_reason, r.scheduled_for from schedule_runs r
                where r.schedule_id = s.id and r.status in ('SUCCESS', 'FAILED') and r.trigger_type <> 'DRY_RUN' order by r.scheduled_for desc limit ${outcomeLimit}) o
        ) outcomes on true
        left join lateral (
          select json_agg(json_build_object('runId', x.run_id, 'attempt', x.attempt, 'status', x.status, 'startedAtMs', ${ms(sql`x.started_at`)}) order by x.scheduled_for desc, x.attempt desc) as list
          from ((select a.run_id, a.attempt, a.status, a.started_at, r.scheduled_for from schedule_runs r join run_attempts a on a.run_id = r.id and a.scheduled_for = r.scheduled_for
                where r.schedule_id = s.id order by r.scheduled_for desc, a.attempt desc limit 5)
                -- Running attempts without a row yet (open-attempts.ts), found through the schedule's active runs.
                union all
                select o.run_id, o.attempt, o.status, o.started_at, o.scheduled_for from (${openAttempts(
                  sql`(r.id, r.scheduled_for) in (select x.run_id, x.scheduled_for from active_runs x where x.schedule_id = s.id and x.status = 'RUNNING')`,
                )}) o
                order by scheduled_for desc, attempt desc limit 5) x
        ) attempts on true
        left join lateral (
          select ${ms(sql`r.finished_at`)} as at_ms, r.scheduled_for from schedule_runs r
          -- A PARTIAL_SUCCESS is fresh data (its failed items within the owner's allowance); a dry run changed nothing.
          where r.schedule_id = s.id and r.status in ('SUCCESS', 'PARTIAL_SUCCESS') and r.trigger_type <> 'DRY_RUN' order by r.scheduled_for desc limit 1
        ) success on true
        left join lateral (
          select min(f.id) filter (where f.first) as first_id, count(*) as count
          from (select r.id, row_number() over (order by r.scheduled_for) = 1 as first from schedule_runs r
                where r.schedule_id = s.id and r.status = 'FAILED' and r.trigger_type <> 'DRY_RUN' and r.scheduled_for > coalesce(success.scheduled_for, '-infinity'::timestamptz)
                order by r.scheduled_for limit 1000) f
        ) streak on true
        left join lateral (
          select ${ms(sql`r.scheduled_for`)} as slot_ms, r.scheduled_for from schedule_runs r
          -- A deadline met by the upstream (docs/workflows.md) counts as started: its work ran as a DEPENDENCY run.
          where r.schedule_id = s.id and r.trigger_type = 'SCHEDULED' and (r.started_at is not null or r.status_reason = 'UPSTREAM_SUCCEEDED')
          order by r.scheduled_for desc limit 1
        ) started on true
        left join lateral (
          -- Skipped by design (overlap with a run still going, a pause) or cancelled by a person: not missed.
          select ${ms(sql`r.scheduled_for`)} as slot_ms, r.id, r.status from schedule_runs r
          where r.schedule_id = s.id and r.trigger_type = 'SCHEDULED' and r.started_at is null
            and r.scheduled_for > coalesce(started.scheduled_for, '-infinity'::timestamptz)
            and r.status <> 'CANCELLED' and not (r.status = 'SKIPPED' and r.status_reason in ('OVERLAP', 'PAUSED', 'UPSTREAM_SUCCEEDED'))
          order by r.scheduled_for limit 1
        ) unstarted on true
        where s.status = 'ACTIVE' and coalesce((s.definition->>'enabled')::boolean, true)`,
  );
  return rows.map((r) => {
    const lastStarted = r.last_started_ms ?? Number.NEGATIVE_INFINITY;
    // next_run_at stands for a slot no runner turned into a run yet (the scheduler advances it as it inserts).
    const nextSlot = r.next_run_at_ms !== null && r.next_run_at_ms > lastStarted ? r.next_run_at_ms : null;
    const fromRun = r.unstarted_slot_ms === null ? null : { slotMs: r.unstarted_slot_ms, runId: Number(r.unstarted_run_id), status: r.unstarted_status };
    const firstUnstartedSlot = fromRun && (nextSlot === null || fromRun.slotMs <= nextSlot) ? fromRun : nextSlot === null ? null : { slotMs: nextSlot, runId: null, status: null };
    return {
      scheduleId: Number(r.schedule_id),
      name: r.name,
      criticality: r.criticality,
      timeoutMs: r.timeout_ms,
      gracePeriodMs: r.grace_period_ms,
      freshnessMs: r.freshness_ms,
      paused: r.paused,
      createdAtMs: r.created_at_ms,
      lastSuccessAtMs: r.last_success_at_ms,
      outcomes: (r.outcomes ?? []).map((o) => ({ ...o, runId: Number(o.runId) })),
      failureStreak: r.streak_first_id === null ? null : { firstRunId: Number(r.streak_first_id), count: Number(r.streak_count) },
      attempts: (r.attempts ?? []).map((a) => ({ ...a, runId: Number(a.runId) })),
      firstUnstartedSlot,
    };
  });
}

/**
 * The latest heartbeat (or stop) among the runners other than `runnerId` that started before
 * `startedAt`: a runner alive across that instant has a later heartbeat. Null when none ever ran.
 */
export async function readLastSeenBefore(executor: Executor, runnerId: string, startedAt: Date): Promise<number | null> {
  const [row] = await queryRows<{ last_seen_ms: number | null }>(
    executor,
    sql`select ${ms(sql`max(coalesce(stopped_at, heartbeat_at))`)} as last_seen_ms
        from runners where id <> ${runnerId} and started_at <= ${startedAt.toISOString()}::timestamptz`,
  );
  return row?.last_seen_ms ?? null;
}

export interface AlertRow {
  id: number;
  rule: string;
  conditionKey: string;
  scheduleId: number | null;
  scheduleName: string | null;
  criticality: string | null;
  state: AlertState;
  summary: string;
  details: Record<string, unknown>;
  openedAt: Date;
  openedBy: string;
  resolvedAt: Date | null;
  deliveries: number;
  deliveryAttempts: number;
  suppressed: number;
  lastDeliveryAt: Date | null;
  lastError: string | null;
}

export interface AlertDbRow {
  id: string | number; rule: string; condition_key: string; schedule_id: string | number | null; schedule_name: string | null; criticality: string | null;
  state: AlertState; summary: string; details: Record<string, unknown> | string; opened_at: Date | string; opened_by: string; resolved_at: Date | string | null;
  deliveries: number; delivery_attempts: number; suppressed: number; last_delivery_at: Date | string | null; last_error: string | null;
}

const toDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

export function toAlertRow(r: AlertDbRow): AlertRow {
  return {
    id: Number(r.id),
    rule: r.rule,
    conditionKey: r.condition_key,
    scheduleId: r.schedule_id === null ? null : Number(r.schedule_id),
    scheduleName: r.schedule_name,
    criticality: r.criticality,
    state: r.state,
    summary: r.summary,
    details: typeof r.details === 'string' ? (JSON.parse(r.details) as Record<string, unknown>) : r.details,
    openedAt: toDate(r.opened_at),
    openedBy: r.opened_by,
    resolvedAt: r.resolved_at === null ? null : toDate(r.resolved_at),
    deliveries: r.deliveries,
    deliveryAttempts: r.delivery_attempts,
    suppressed: r.suppressed,
    lastDeliveryAt: r.last_delivery_at === null ? null : toDate(r.last_delivery_at),
    lastError: r.last_error,
  };
}

export const ALERT_COLUMNS = sql.raw(
  'id, rule, condition_key, schedule_id, schedule_name, criticality, state, summary, details, opened_at, opened_by, resolved_at, deliveries, delivery_attempts, suppressed, last_delivery_at, last_error',
);

export async function listOpenAlerts(executor: Executor): Promise<AlertRow[]> {
  const rows = await queryRows<AlertDbRow>(executor, sql`select ${ALERT_COLUMNS} from alerts where state = 'OPEN' order by opened_at, id`);
  return rows.map(toAlertRow);
}

/** Newest first, each with its messages still owed to a target (PENDING deliveries). */
export async function listAlerts(executor: Executor, filter: { openOnly: boolean; limit: number }): Promise<Array<AlertRow & { pendingDeliveries: number }>> {
  const rows = await queryRows<AlertDbRow & { pending_deliveries: string | number }>(
    executor,
    sql`select ${ALERT_COLUMNS}, (select count(*) from alert_deliveries d where d.alert_id = alerts.id and d.state = 'PENDING') as pending_deliveries
        from alerts ${filter.openOnly ? sql`where state = 'OPEN'` : sql``} order by opened_at desc, id desc limit ${filter.limit}`,
  );
  return rows.map((r) => ({ ...toAlertRow(r), pendingDeliveries: Number(r.pending_deliveries) }));
}

export interface NewAlert {
  rule: string;
  conditionKey: string;
  scheduleId: number | null;
  scheduleName: string | null;
  criticality: string | null;
  summary: string;
  details: Record<string, unknown>;
  openedBy: string;
}

/**
 * Records an alert, with one PENDING firing message per target in `targets` claimed by its
 * recorder (alert-delivery-queries.ts), in one statement: an alert is never recorded without the
 * messages it owes. Returns it only to the caller whose insert wrote it (null: already recorded, by anyone).
 */
export async function insertAlert(executor: Executor, alert: NewAlert, now: Date, targets: readonly string[]): Promise<AlertRow | null> {
  const nowIso = now.toISOString();
  const [row] = await queryRows<AlertDbRow>(
    executor,
    sql`with recorded as (
          insert into alerts (rule, condition_key, schedule_id, schedule_name, criticality, state, summary, details, opened_at, opened_by)
          values (${alert.rule}, ${alert.conditionKey}, ${alert.scheduleId}, ${alert.scheduleName}, ${alert.criticality}, 'OPEN', ${alert.summary},
                  ${JSON.stringify(alert.details)}::jsonb, ${nowIso}::timestamptz, ${alert.openedBy})
          on conflict (rule, condition_key) do nothing
          returning ${ALERT_COLUMNS}
        ),
        owed as (
          insert into alert_deliveries (alert_id, event, target, state, claimed_by, claimed_at)
          select recorded.id, 'firing', t.name, 'PENDING', ${alert.openedBy}, ${nowIso}::timestamptz
          from recorded cross join unnest(${textArray(targets)}::text[]) as t(name)
        )
        select * from recorded`,
  );
  return row ? toAlertRow(row) : null;
}

/**
 * Resolves an open alert; returns it only to the caller whose update resolved it. A resolved
 * message is owed to each target its firing message went to or is still owed to (none for one a
 * rate limit held back), claimed by `runnerId`. The targets returned are those it may send to at
 * once: the firing message was delivered there, or waits in this runner's own queue (which keeps
 * the order). The others wait until their firing message is delivered (alert-delivery-queries.ts).
 */
export async function resolveAlert(executor: Executor, alertId: number, now: Date, runnerId: string): Promise<{ alert: AlertRow; targets: string[] } | null> {
  const nowIso = now.toISOString();
  const [row] = await queryRows<AlertDbRow & { targets: string[] | null }>(
    executor,
    sql`with resolved as (
          update alerts set state = 'RESOLVED', resolved_at = ${nowIso}::timestamptz
          where id = ${alertId} and state = 'OPEN' returning ${ALERT_COLUMNS}
        ),
        owed as (
          insert into alert_deliveries (alert_id, event, target, state, claimed_by, claimed_at)
          select f.alert_id, 'resolved', f.target, 'PENDING', ${runnerId}, ${nowIso}::timestamptz
          from alert_deliveries f join resolved on resolved.id = f.alert_id
          where f.event = 'firing' and f.state in ('PENDING', 'DELIVERED')
          returning target
        )
        select resolved.*,
          (select array_agg(o.target order by o.target) from owed o
           join alert_deliveries f on f.alert_id = ${alertId} and f.event = 'firing' and f.target = o.target
           where f.state = 'DELIVERED' or f.claimed_by = ${runnerId}) as targets
        from resolved`,
  );
  return row ? { alert: toAlertRow(row), targets: row.targets ?? [] } : null;
}

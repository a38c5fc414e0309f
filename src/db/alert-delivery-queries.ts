/**
 * The messages owed for each alert, per target (table `alert_deliveries`), and how runners take
 * them on. The recorder of an alert (or of its resolution) writes them PENDING and claimed by
 * itself in the same statement (alert-queries.ts), then sends them. A message still PENDING
 * whose claim is older than the delivery lease was left by a runner that died, was stopped, or
 * gave up for now: any runner claims it (`claimOwedDeliveries`, SKIP LOCKED) and sends it again.
 * A runner renews the claims of the messages still in its dispatcher's queues, so a slow target
 * does not make another runner send them too. At-least-once: a runner that dies after the
 * receiver accepted a message but before recording it makes another send it again; the payload
 * carries a dedup key for receivers (README "Alerts").
 */
import { sql } from 'drizzle-orm';
import { ALERT_COLUMNS, toAlertRow, type AlertDbRow, type AlertRow } from './alert-queries.js';
import { textArray } from './array-literal.js';
import { queryRows, type Executor } from './client.js';

export type AlertEvent = 'firing' | 'resolved';

export interface DeliveryKey {
  alertId: number;
  event: AlertEvent;
  target: string;
}

/** A message taken on by this runner: send it to `target`. */
export interface OwedDelivery extends DeliveryKey {
  alert: AlertRow;
  rounds: number;
}

/**
 * Claims up to `limit` owed messages whose claim is older than `staleBefore`. First, in the same
 * transaction, the messages that must never be sent are settled SKIPPED: a firing message of an
 * alert resolved meanwhile (the receiver never heard of it: it is not sent late as firing), and a
 * resolved message to a target whose firing message was not delivered. A resolved message is
 * claimed only once its firing message reached that target, so the two arrive in order.
 */
export async function claimOwedDeliveries(executor: Executor, runnerId: string, now: Date, staleBefore: Date, limit: number): Promise<OwedDelivery[]> {
  const stale = staleBefore.toISOString();
  await executor.execute(
    sql`update alert_deliveries d set state = 'SKIPPED', last_error = 'resolved before the firing message was delivered'
        from alerts a where a.id = d.alert_id and d.state = 'PENDING' and d.event = 'firing' and a.state = 'RESOLVED' and d.claimed_at < ${stale}::timestamptz`,
  );
  await executor.execute(
    sql`update alert_deliveries d set state = 'SKIPPED', last_error = 'the firing message did not reach this target'
        where d.state = 'PENDING' and d.event = 'resolved' and d.claimed_at < ${stale}::timestamptz
          and not exists (select 1 from alert_deliveries f where f.alert_id = d.alert_id and f.target = d.target and f.event = 'firing' and f.state in ('PENDING', 'DELIVERED'))`,
  );
  const rows = await queryRows<AlertDbRow & { delivery_event: AlertEvent; delivery_target: string; rounds: number }>(
    executor,
    sql`with due as (
          select d.alert_id, d.event, d.target from alert_deliveries d
          where d.state = 'PENDING' and d.claimed_at < ${stale}::timestamptz
            and (d.event = 'firing'
                 or exists (select 1 from alert_deliveries f where f.alert_id = d.alert_id and f.target = d.target and f.event = 'firing' and f.state = 'DELIVERED'))
          order by d.claimed_at, d.alert_id
          limit ${limit}
          for update skip locked
        ),
        claimed as (
          update alert_deliveries d set claimed_by = ${runnerId}, claimed_at = ${now.toISOString()}::timestamptz, rounds = d.rounds + 1
          from due where d.alert_id = due.alert_id and d.event = due.event and d.target = due.target
          returning d.alert_id, d.event, d.target, d.rounds
        )
        select ${ALERT_COLUMNS}, c.event as delivery_event, c.target as delivery_target, c.rounds
        from claimed c join alerts on alerts.id = c.alert_id
        order by alerts.id, c.event`,
  );
  return rows.map((r) => ({ alertId: Number(r.id), event: r.delivery_event, target: r.delivery_target, rounds: r.rounds, alert: toAlertRow(r) }));
}

/** Keeps this runner's claim on the messages still in its queues (a slow target must not make another runner send them too). */
export async function renewDeliveryClaims(executor: Executor, runnerId: string, keys: readonly DeliveryKey[], now: Date): Promise<void> {
  if (keys.length === 0) return;
  await executor.execute(
    sql`update alert_deliveries d set claimed_at = ${now.toISOString()}::timestamptz
        from unnest(${textArray(keys.map((k) => String(k.alertId)))}::bigint[], ${textArray(keys.map((k) => k.event))}::text[], ${textArray(keys.map((k) => k.target))}::text[]) as k(alert_id, event, target)
        where d.alert_id = k.alert_id and d.event = k.event and d.target = k.target and d.state = 'PENDING' and d.claimed_by = ${runnerId}`,
  );
}

/**
 * One message's fate at one target, on the message and in the alert's totals. Delivered: done,
 * whoever holds the claim. Not delivered: given up (FAILED) after `maxRounds` runners' tries, else
 * left PENDING with the claim released, so any runner tries again once the lease has passed.
 */
export async function recordDelivery(
  executor: Executor,
  key: DeliveryKey,
  result: { delivered: boolean; attempts: number; error: string | null },
  now: Date,
  runnerId: string,
  maxRounds: number,
): Promise<void> {
  const nowIso = now.toISOString();
  await executor.execute(
    sql`with message as (
          update alert_deliveries set
            state = case when ${result.delivered} then 'DELIVERED' when rounds >= ${maxRounds} then 'FAILED' else 'PENDING' end,
            claimed_by = case when ${result.delivered} then claimed_by else null end,
            claimed_at = case when ${result.delivered} then claimed_at else ${nowIso}::timestamptz end,
            last_error = case when ${result.delivered} then last_error else ${result.error} end
          where alert_id = ${key.alertId} and event = ${key.event} and target = ${key.target} and state = 'PENDING'
            and (${result.delivered} or claimed_by = ${runnerId})
        )
        update alerts set deliveries = deliveries + ${result.delivered ? 1 : 0}, delivery_attempts = delivery_attempts + ${result.attempts},
          last_delivery_at = case when ${result.delivered} then ${nowIso}::timestamptz else last_delivery_at end,
          last_error = case when ${result.delivered} then last_error else ${result.error} end
        where id = ${key.alertId}`,
  );
}

/** Messages a rate limit held back: never sent (SKIPPED), counted on the alert. `target` undefined: every target of that event. */
export async function recordSuppressed(executor: Executor, key: { alertId: number; event: AlertEvent; target?: string }, reason: string): Promise<void> {
  await executor.execute(
    sql`with message as (
          update alert_deliveries set state = 'SKIPPED', last_error = ${reason}
          where alert_id = ${key.alertId} and event = ${key.event} and state = 'PENDING' ${key.target === undefined ? sql`` : sql`and target = ${key.target}`}
        )
        update alerts set suppressed = suppressed + 1, last_error = ${reason} where id = ${key.alertId}`,
  );
}

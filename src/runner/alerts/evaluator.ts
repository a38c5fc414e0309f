/**
 * The runner's alert step (README "Alerts"): read, evaluate the rules, record, hand the messages
 * to the dispatcher. Any replica may run it at the same time as the others: the database decides
 * which one records an alert or resolves it (db/alert-queries.ts), and that one sends. Its
 * messages are owed in the database (db/alert-delivery-queries.ts) until a target accepts them:
 * what a runner recorded and did not deliver (it died, stopped, or its tries failed) is claimed
 * and sent by any runner once the claim is older than the delivery lease. At-least-once.
 *
 * Ordering: the open alerts are read BEFORE the runs. An alert another replica opens after that
 * read is not in the list, so it cannot be resolved here from runs read before it was opened; an
 * alert in the list was opened from runs at least as old as the ones this evaluation reads, so a
 * condition that no longer holds in them has really cleared.
 */
import type { AlertTargetDefinition, Criticality } from '../../compile/definition.js';
import { claimOwedDeliveries, recordDelivery, recordSuppressed, renewDeliveryClaims } from '../../db/alert-delivery-queries.js';
import { insertAlert, listOpenAlerts, readLastSeenBefore, readScheduleAlertRows, resolveAlert, type AlertRow } from '../../db/alert-queries.js';
import type { Database } from '../../db/client.js';
import { silentLogger, type Logger } from '../../shared/logger.js';
import { AlertDispatcher, type DeliveryResult, type DispatcherOptions } from './dispatcher.js';
import type { Clock } from '../../shared/clock.js';
import type { AlertMessage } from './payloads.js';
import { SCHEDULE_MESSAGE_LIMIT, SlidingWindowLimit } from './rate-limit.js';
import { evaluateRunnerSilence, evaluateScheduleRules } from './rules.js';

export interface AlertEvaluatorOptions {
  runnerId: string;
  /** When this runner started: a gap with no runner before it is reported once (rules.ts). */
  runnerStartedAtMs: number;
  /** How long no runner may heartbeat before the runner that comes back reports it. */
  noRunnerAlertAfterMs: number;
  clock: Clock;
  /** Where fromEnv target urls are read. */
  env: NodeJS.ProcessEnv;
  logger?: Logger;
  /** Delivery settings (timeouts, retries, a replacement for fetch). */
  delivery?: Omit<DispatcherOptions, 'clock' | 'env' | 'onResult' | 'logger'>;
  /** A message owed for longer than this since a runner last took it on is taken on by another (default 60 s; renewed at each evaluation while queued). */
  deliveryLeaseMs?: number;
}

/** Runners' tries (each up to the dispatcher's retries) before a message is given up as FAILED. */
export const DELIVERY_MAX_ROUNDS = 5;
export const DEFAULT_DELIVERY_LEASE_MS = 60_000;
/** Owed messages one evaluation takes on at most. */
const OWED_BATCH = 100;

export interface AlertEvaluation {
  opened: number;
  resolved: number;
  /** Owed messages taken over from a runner that did not deliver them. */
  redelivered: number;
}

/** The rules read the latest outcome; the streak is counted by the query. */
const OUTCOMES_READ = 1;

const keyOf = (alert: { rule: string; conditionKey: string }) => `${alert.rule} ${alert.conditionKey}`;

export class AlertEvaluator {
  /** Delivery results being written (recordResult). */
  private readonly recording = new Set<Promise<void>>();
  private readonly logger: Logger;
  private readonly perSchedule = new SlidingWindowLimit(SCHEDULE_MESSAGE_LIMIT.limit, SCHEDULE_MESSAGE_LIMIT.windowMs);
  /** Firing messages held back by the schedule limit: their resolve is not sent either. */
  private readonly unsent = new Set<number>();
  /** Conditions this runner saw recorded, so that it does not insert them again on every evaluation. */
  private readonly recorded = new Set<string>();

  readonly dispatcher: AlertDispatcher;

  constructor(
    private readonly database: Database,
    private readonly options: AlertEvaluatorOptions,
  ) {
    this.logger = options.logger ?? silentLogger;
    this.dispatcher = new AlertDispatcher({ ...options.delivery, clock: options.clock, env: options.env, logger: this.logger, onResult: (message, target, result) => this.recordResult(message, target, result) });
  }

  async evaluate(nowMs: number, targets: readonly AlertTargetDefinition[]): Promise<AlertEvaluation> {
    const db = this.database.db;
    const open = await listOpenAlerts(db);
    const rows = await readScheduleAlertRows(db, OUTCOMES_READ);
    const lastSeenBeforeMs = await readLastSeenBefore(db, this.options.runnerId, new Date(this.options.runnerStartedAtMs));
    const conditions = [
      ...rows.flatMap((row) => evaluateScheduleRules({ ...row, criticality: row.criticality as Criticality }, nowMs)),
      ...evaluateRunnerSilence({ startedAtMs: this.options.runnerStartedAtMs, lastSeenBeforeMs }, this.options.noRunnerAlertAfterMs),
    ];
    const now = new Date(nowMs);
    const openKeys = new Set(open.map(keyOf));
    let opened = 0;
    for (const condition of conditions) {
      const key = keyOf(condition);
      if (openKeys.has(key) || this.recorded.has(key)) continue;
      const row = await insertAlert(db, { ...condition, openedBy: this.options.runnerId }, now, targets.map((t) => t.name));
      this.remember(key);
      if (!row) continue;
      opened += 1;
      this.logger.warn('alert opened', { alertId: row.id, rule: row.rule, schedule: row.scheduleName ?? undefined, summary: row.summary });
      this.send(row, 'firing', targets, nowMs);
    }
    const holding = new Map(conditions.map((c) => [keyOf(c), c]));
    let resolved = 0;
    for (const alert of open) {
      const condition = holding.get(keyOf(alert));
      if (condition && condition.endedAtMs === undefined) continue;
      const resolution = await resolveAlert(db, alert.id, now, this.options.runnerId);
      if (!resolution) continue;
      resolved += 1;
      const row = resolution.alert;
      this.logger.info('alert resolved', { alertId: row.id, rule: row.rule, schedule: row.scheduleName ?? undefined });
      this.send(row, 'resolved', targets.filter((t) => resolution.targets.includes(t.name)), nowMs);
    }
    const redelivered = await this.takeOverOwed(nowMs, targets);
    return { opened, resolved, redelivered };
  }

  /**
   * Renews the claims of the messages still queued here, then takes on the owed messages whose
   * claim expired (their runner died, stopped, or gave up for now) and queues them. No schedule
   * rate limit: each was admitted when it was recorded.
   */
  private async takeOverOwed(nowMs: number, targets: readonly AlertTargetDefinition[]): Promise<number> {
    const db = this.database.db;
    const now = new Date(nowMs);
    await renewDeliveryClaims(db, this.options.runnerId, this.dispatcher.pendingMessages(), now);
    const owed = await claimOwedDeliveries(db, this.options.runnerId, now, new Date(nowMs - (this.options.deliveryLeaseMs ?? DEFAULT_DELIVERY_LEASE_MS)), OWED_BATCH);
    for (const delivery of owed) {
      const target = targets.find((t) => t.name === delivery.target);
      if (!target) {
        await recordDelivery(db, delivery, { delivered: false, attempts: 0, error: `${delivery.target}: no longer a target in the Policy` }, now, this.options.runnerId, 0);
        continue;
      }
      this.logger.warn('alert message taken over', { alertId: delivery.alertId, event: delivery.event, target: delivery.target, round: delivery.rounds });
      this.dispatcher.enqueue(toMessage(delivery.alert, delivery.event, this.options.runnerId), [target]);
    }
    return owed.length;
  }

  private remember(key: string): void {
    // Bounded: forgetting costs one insert that conflicts, never a second alert.
    if (this.recorded.size >= 10_000) this.recorded.clear();
    this.recorded.add(key);
  }

  private send(row: AlertRow, event: AlertMessage['event'], targets: readonly AlertTargetDefinition[], nowMs: number): void {
    if (targets.length === 0) return;
    if (event === 'firing' && row.scheduleName !== null && !this.perSchedule.tryTake(row.scheduleName, nowMs)) {
      this.unsent.add(row.id);
      void recordSuppressed(this.database.db, { alertId: row.id, event }, `rate-limited: more than ${SCHEDULE_MESSAGE_LIMIT.limit} alerts for this schedule in an hour`).catch((error: unknown) => this.logger.error('recording a suppressed alert failed', { alertId: row.id, error: (error as Error).message }));
      return;
    }
    if (event === 'resolved' && this.unsent.delete(row.id)) return;
    this.dispatcher.enqueue(toMessage(row, event, this.options.runnerId), targets);
  }

  /** Records what the dispatcher did with a message, off the runner's path (a failed write is logged; the message stays owed). */
  private recordResult(message: AlertMessage, target: string, result: DeliveryResult): void {
    const db = this.database.db;
    const key = { alertId: message.alert.id, event: message.event, target };
    const write = result.suppressed
      ? recordSuppressed(db, key, result.error ?? 'rate-limited')
      : recordDelivery(db, key, result, new Date(this.options.clock.nowMs()), this.options.runnerId, DELIVERY_MAX_ROUNDS);
    const recorded = write.then(
      () => undefined,
      (error: unknown) => this.logger.error('recording an alert delivery failed', { alertId: key.alertId, error: (error as Error).message }),
    );
    this.recording.add(recorded);
    void recorded.finally(() => this.recording.delete(recorded));
  }

  /**
   * Resolves once the dispatcher has nothing queued or in flight and every result it reported is
   * written: a stopping runner waits for it after `dispatcher.stop()`, before its database closes,
   * so that a message this runner did deliver is not left owed (and sent again by another runner).
   */
  async settled(): Promise<void> {
    await this.dispatcher.whenIdle();
    await Promise.all([...this.recording]);
  }
}

function toMessage(row: AlertRow, event: AlertMessage['event'], runner: string): AlertMessage {
  return {
    event,
    alert: { id: row.id, rule: row.rule, schedule: row.scheduleName, criticality: row.criticality, summary: row.summary, details: row.details, openedAt: row.openedAt.toISOString(), resolvedAt: row.resolvedAt?.toISOString() ?? null },
    runner,
  };
}

/**
 * One runner process: scheduler, worker and reconciler on one database, any number of replicas.
 * The loop reads the clock once per iteration and sleeps until the next thing that can happen
 * (earliest next_run_at, earliest run_after, heartbeat, reconcile), waking early on NOTIFY
 * (apply → cronform_schedules; new runs → cronform_runs) or when a job finishes. There is no
 * slow fixed poll; a long safety poll only covers lost notifications. Every wait of the loop,
 * the drain and the worker (its lease fence too) is a timer of the runner's Clock, so time as
 * the runner reads it and time as it waits are one: a manual clock moves both.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Database } from '../db/client.js';
import { heartbeatRunner, markRunnerStopped, upsertRunner } from '../db/reconcile-queries.js';
import { findEarliestNextRunAt, findEarliestRunAfter, RUNS_CHANNEL } from '../db/scheduler-queries.js';
import { SCHEDULES_CHANNEL } from '../db/schedule-queries.js';
import { CANCEL_CHANNEL } from '../db/run-operations-queries.js';
import { readStoredPolicy, type StoredPolicy } from '../db/settings-queries.js';
import { DEFAULT_POLICY } from '../compile/definition.js';
import type { Clock } from '../shared/clock.js';
import { silentLogger, type Logger } from '../shared/logger.js';
import { runReconcileTick } from './reconciler.js';
import { runSchedulerTick } from './scheduler.js';
import { DefinitionCache } from './definition-cache.js';
import { JobReaper } from './job-reaper.js';
import { sweepStaleJobFiles } from './executors/job-files.js';
import { DEFAULT_KILL_GRACE_MS } from './policy/lease.js';
import { Worker, type WorkerOptions } from './worker.js';
import { createRunLog } from './run-log.js';
import { combineObservers, type RunObserver } from './run-observer.js';
import { AlertEvaluator, DEFAULT_DELIVERY_LEASE_MS, type AlertEvaluatorOptions } from './alerts/evaluator.js';
import { runRetentionPass } from './retention.js';
import { ensureDayPartitions, refreshRunStatistics } from '../db/run-partitions.js';
import { MS_PER_DAY } from '../time/civil.js';

export interface RunnerOptions {
  clock: Clock;
  concurrency: number;
  /** Most runs claimed ahead of free slots, sized by job durations (see Worker); default 1,000, 0 disables. */
  prefetch?: number;
  leaseMs?: number;
  reconcileIntervalMs?: number;
  drainTimeoutMs?: number;
  killGraceMs?: number;
  /** Longest sleep without a known reason to wake (covers lost notifications). */
  safetyPollMs?: number;
  /**
   * How long before a slot the scheduler turns it into a run (default 100 ms; 0 plans at the
   * slot). The run waits QUEUED until its run_after, so at the slot only the claim stands between
   * it and its start: creating 250 runs at :00 takes tens of milliseconds, claiming them fewer.
   */
  slotLookaheadMs?: number;
  baseDir: string;
  env: NodeJS.ProcessEnv;
  logger?: Logger;
  /** Told of every run state change this runner writes, besides its log lines (metrics). */
  observer?: RunObserver;
  runnerId?: string;
  version?: string;
  /** Replaces the job executors (library embedding, engine benchmark). */
  execute?: WorkerOptions['execute'];
  /** A job needing an unset `fromEnv` variable: 'fail' (default) or, for `cronform dev` only, 'skip' (see ExecutionSettings). */
  missingSecrets?: WorkerOptions['missingSecrets'];
  /** Alert evaluation (README "Alerts"): on by default every 30 s; false turns it off. */
  alerts?: false | { intervalMs?: number; noRunnerAlertAfterMs?: number; delivery?: AlertEvaluatorOptions['delivery'] };
  /**
   * Retention (README "Retention"): a pass every `intervalMs` (default 10 minutes) deleting runs
   * past the retention in force, `batchSize` runs a statement (default 500), at most `maxBatches`
   * statements a pass (default 200); false turns it off.
   */
  retention?: false | { intervalMs?: number; batchSize?: number; maxBatches?: number };
  /**
   * Since when this runner has been trying to reach the database (default: its construction).
   * A runner whose first heartbeat comes more than a lease later was cut off like the others
   * (it started during an outage) and holds off stall resolution like them (see tick).
   */
  reachingDatabaseSinceMs?: number;
}

const { source: _source, ...defaultStoredPolicy } = DEFAULT_POLICY;

/**
 * What failed under a query error: drizzle's error says which query (its message is the SQL), the
 * driver's cause why (SQLSTATE and message, e.g. `40P01 deadlock detected`). Undefined without one.
 */
export function causeOf(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause?.message !== 'string') return undefined;
  return typeof cause.code === 'string' ? `${cause.code} ${cause.message}` : cause.message;
}

/** The run tables' days are made this many UTC days ahead of today, checked this often (db/run-partitions.ts). */
const PARTITION_DAYS_AHEAD = 2;
const PARTITIONS_INTERVAL_MS = 10 * 60_000;
/** How often a runner looks for run-table partitions whose planner statistics are stale. */
const STATISTICS_INTERVAL_MS = 5_000;

/** How long before a slot a runner turns it into a run, unless told otherwise (RunnerOptions.slotLookaheadMs). */
export const DEFAULT_SLOT_LOOKAHEAD_MS = 100;

export class Runner {
  readonly id: string;
  readonly worker: Worker;
  private readonly logger: Logger;
  private readonly observer: RunObserver;
  private readonly leaseMs: number;
  /** SIGTERM → SIGKILL grace of this runner's jobs; recorded with its runner row for the reconcilers. */
  private readonly killGraceMs: number;
  private readonly reconcileIntervalMs: number;
  private readonly lookaheadMs: number;
  private policy: StoredPolicy = defaultStoredPolicy;
  private stopping = false;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private schedulesChanged = true;
  private loop: Promise<void> | undefined;
  private unlisten: Array<() => Promise<void>> = [];
  private nextReconcileMs = 0;
  private nextHeartbeatMs = 0;
  private nextDueMs = 0;
  /** The clock at the start of the last tick (see nextWakeAtMs). */
  private tickStartedMs = 0;
  /** When this runner last renewed its leases, and until when it leaves other runners' expired leases alone. */
  private lastHeartbeatMs: number | undefined;
  private stallsHeldUntilMs = 0;
  private readonly reachingDatabaseSinceMs: number;
  private readonly reaper = new JobReaper();
  /** Shared by scheduler and worker: definitions by version, read once. */
  private readonly definitions = new DefinitionCache();
  /** When (by the runner's clock) a loop iteration last completed without error (health checks). */
  private lastLoopSuccessMs: number | undefined;
  /** Null when RunnerOptions.alerts is false. */
  readonly alerts: AlertEvaluator | null;
  private nextAlertsMs = 0;
  /** Whether this runner takes in the final statuses others wrote (its observer counts them: metrics). */
  private readonly drainsFinalEvents: boolean;
  private alertsInFlight: Promise<void> | undefined;
  private nextRetentionMs = 0;
  private retentionInFlight: Promise<void> | undefined;
  /** When the run tables' coming days are next checked (the first tick, then every 10 minutes). */
  private nextPartitionsMs = 0;
  private nextStatisticsMs = 0;
  private statisticsInFlight: Promise<void> | undefined;

  constructor(
    private readonly database: Database,
    private readonly options: RunnerOptions,
  ) {
    this.id = options.runnerId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
    this.logger = (options.logger ?? silentLogger).child({ runnerId: this.id });
    // No logger, no run lines: an embedding (or a benchmark) that logs nothing pays nothing per run.
    const observers = [...(options.logger ? [createRunLog(this.logger)] : []), ...(options.observer ? [options.observer] : [])];
    this.observer = combineObservers(observers, (error) =>
      this.logger.error('run observer failed', { error: (error as Error).message }),
    );
    this.drainsFinalEvents = typeof options.observer?.finalEventsDrained === 'function';
    this.leaseMs = options.leaseMs ?? 30_000;
    this.killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
    this.reconcileIntervalMs = options.reconcileIntervalMs ?? 10_000;
    this.lookaheadMs = Math.max(0, options.slotLookaheadMs ?? DEFAULT_SLOT_LOOKAHEAD_MS);
    this.reachingDatabaseSinceMs = options.reachingDatabaseSinceMs ?? options.clock.nowMs();
    // The first pass a minute after start: a restart (or a fleet of them) catches up on slots and
    // leases first; history can wait.
    this.nextRetentionMs = options.clock.nowMs() + 60_000;
    this.worker = new Worker(
      database,
      {
        runnerId: this.id,
        clock: options.clock,
        concurrency: options.concurrency,
        prefetch: options.prefetch ?? 1_000,
        leaseMs: this.leaseMs,
        killGraceMs: this.killGraceMs,
        baseDir: options.baseDir,
        env: options.env,
        wake: () => this.wake(),
        processGroups: this.reaper,
        observer: this.observer,
        ...(options.execute ? { execute: options.execute } : {}),
        ...(options.missingSecrets ? { missingSecrets: options.missingSecrets } : {}),
      },
      this.policy,
      this.definitions,
    );
    const alerts = options.alerts ?? {};
    this.alerts = alerts === false ? null : new AlertEvaluator(database, {
      runnerId: this.id,
      runnerStartedAtMs: options.clock.nowMs(),
      noRunnerAlertAfterMs: alerts.noRunnerAlertAfterMs ?? 5 * 60_000,
      clock: options.clock,
      env: options.env,
      logger: this.logger,
      // Renewed at each evaluation while queued: the lease must outlast two of them.
      deliveryLeaseMs: Math.max(DEFAULT_DELIVERY_LEASE_MS, 2 * (alerts.intervalMs ?? 30_000)),
      ...(alerts.delivery ? { delivery: alerts.delivery } : {}),
    });
  }

  /** When a loop iteration (a tick and its wait computation) last succeeded, by the runner's clock; undefined before the first. */
  get lastSuccessfulLoopMs(): number | undefined {
    return this.lastLoopSuccessMs;
  }

  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /**
   * Registers the runner and starts the loop; resolves once listening. When the database fails
   * meanwhile (an outage beginning), what was opened is closed again and the error thrown: the
   * caller may call start() again.
   */
  async start(): Promise<void> {
    try {
      await upsertRunner(this.database.db, { id: this.id, hostname: hostname(), pid: process.pid, version: this.options.version ?? 'dev', killGraceMs: this.killGraceMs }, new Date(this.options.clock.nowMs()));
      for (const channel of [SCHEDULES_CHANNEL, RUNS_CHANNEL]) {
        // After a reconnect, a change may have been missed: behave as if notified.
        this.unlisten.push(await this.database.listen(channel, () => this.onNotified(channel), () => this.onNotified(channel)));
      }
      // `cronform cancel` of a running run: stop its process now, not at the next heartbeat.
      this.unlisten.push(await this.database.listen(CANCEL_CHANNEL, (payload) => this.worker.cancel(Number(payload))));
    } catch (error) {
      for (const stop of this.unlisten.splice(0)) await stop().catch(() => undefined);
      throw error;
    }
    this.reaper.start(this.killGraceMs, (problem) => this.logger.error(problem));
    // The job files of runners of this machine killed with SIGKILL (job-files.ts). In the
    // background: a job that needs the directory waits for it anyway; a failure shows there.
    void sweepStaleJobFiles().catch(() => undefined);
    this.logger.info('runner started', { concurrency: this.options.concurrency, database: this.database.label });
    this.loop = this.runLoop();
  }

  private onNotified(channel: string): void {
    if (channel === SCHEDULES_CHANNEL) this.schedulesChanged = true;
    // A worker waiting for room in its local queue hands the loop back to the scheduler.
    if (channel === SCHEDULES_CHANNEL) this.worker.interrupt();
    this.wake();
  }

  /** Graceful shutdown: stop claiming, drain up to the timeout, release what is left. */
  async stop(): Promise<void> {
    if (this.stopping) return this.loop;
    this.stopping = true;
    this.worker.interrupt();
    this.wake();
    await this.loop;
    const returned = await this.worker.returnUnstarted().catch((error: unknown) => {
      this.logger.error('handing back unstarted runs failed; their leases will expire', { error: (error as Error).message });
      return 0;
    });
    // The loop no longer heartbeats: the drain renews the running attempts' leases from here on,
    // while an alert or retention pass still in flight ends (a retention pass can outlast a lease).
    const draining = this.drain(this.options.drainTimeoutMs ?? 30_000);
    await this.alertsEvaluated();
    await this.retentionApplied();
    await this.statisticsInFlight;
    this.alerts?.dispatcher.stop();
    await this.alerts?.settled();
    const drained = await draining;
    // Listening until the drain ends: a `cronform cancel` sent meanwhile still stops its job.
    for (const stop of this.unlisten.splice(0)) await stop().catch(() => undefined);
    await this.flushBeforeExit();
    // Killed first, then handed back; with the database unreachable the hand-back fails and the
    // leases expire: the reconciler then resolves those runs like a dead runner's.
    const released = drained
      ? 0
      : await this.worker.releaseUnfinished().catch((error: unknown) => {
          this.logger.error('handing back unfinished runs failed; their leases will expire', { error: (error as Error).message });
          return 0;
        });
    this.reaper.stop();
    await this.worker.closeQueueConnections();
    await markRunnerStopped(this.database.db, this.id, new Date(this.options.clock.nowMs())).catch((error: unknown) =>
      this.logger.error('recording the stop failed; the reconciler marks this runner stopped once it is silent', { error: (error as Error).message }),
    );
    this.logger.info('runner stopped', { released, returned });
  }

  /**
   * Writes the outcomes the drain collected. A shutdown must end whatever state the database is
   * in, but an outcome not written makes its attempt look stalled (and run again per onStall), so
   * an unreachable database is retried for up to one lease (after that, another runner may have
   * declared the attempts stalled already), then the outcomes are given up, with an error.
   */
  private async flushBeforeExit(): Promise<void> {
    const giveUpAtMs = this.options.clock.nowMs() + this.leaseMs;
    for (let failures = 1; ; failures += 1) {
      try {
        await this.worker.flushCompletions();
        return;
      } catch (error) {
        const nowMs = this.options.clock.nowMs();
        if (nowMs >= giveUpAtMs) {
          this.logger.error('writing outcomes at shutdown failed; their runs will be resolved per onStall', { error: (error as Error).message, outcomes: this.worker.pendingWrites });
          return;
        }
        const backoffMs = Math.min(giveUpAtMs - nowMs, Math.max(250, this.leaseMs / 12) * failures);
        this.logger.error('writing outcomes at shutdown failed; retrying', { error: (error as Error).message, attempt: failures, backoffMs });
        await new Promise<void>((resolve) => this.options.clock.setTimer(backoffMs, resolve));
      }
    }
  }

  /**
   * Waits for running attempts to end, renewing their leases meanwhile: a drain longer than the
   * lease must not let another runner declare them stalled and start them again while they run.
   */
  private async drain(timeoutMs: number): Promise<boolean> {
    if (await this.worker.waitForExecutions(0)) return true;
    // Renewed first: the loop's last heartbeat may be most of a heartbeat period old already.
    for (let leftMs = timeoutMs; leftMs > 0; ) {
      await this.worker.heartbeat().catch((error: unknown) => this.logger.error('heartbeat failed while draining', { error: (error as Error).message }));
      const sliceMs = Math.min(leftMs, this.leaseMs / 3);
      if (await this.worker.waitForExecutions(sliceMs)) return true;
      leftMs -= sliceMs;
    }
    return this.worker.waitForExecutions(0);
  }

  /** One pass of everything that is due now. Exposed so tests can drive the runner with a fake clock. */
  async tick(): Promise<void> {
    const nowMs = this.options.clock.nowMs();
    this.tickStartedMs = nowMs;
    const schedulesChanged = this.schedulesChanged;
    if (schedulesChanged) {
      this.schedulesChanged = false;
      this.policy = (await readStoredPolicy(this.database.db))?.policy ?? defaultStoredPolicy;
      this.worker.setPolicy(this.policy);
    }
    // Awaited, before the first scheduling: the day's runs then go to their day's partition, not to
    // the DEFAULT one, which keeps a day that has rows there for good. A few milliseconds when a
    // day is missing, one catalog read when none is.
    if (nowMs >= this.nextPartitionsMs) await this.keepDayPartitions(nowMs);
    // Awaited at the first tick, so that the first claims (a backlog after an outage) are planned
    // on the runs there are; after that, off the claim's way.
    if (nowMs >= this.nextStatisticsMs && !this.statisticsInFlight) {
      const first = this.nextStatisticsMs === 0;
      this.statisticsInFlight = this.refreshRunStatistics(nowMs, first).finally(() => (this.statisticsInFlight = undefined));
      if (first) await this.statisticsInFlight;
    }
    let nextDue: Promise<Date | null> | undefined;
    if (schedulesChanged || nowMs >= this.nextDueMs - this.lookaheadMs) {
      await runSchedulerTick(this.database, { nowMs, lookaheadMs: this.lookaheadMs, policy: this.policy, definitions: this.definitions, observer: this.observer });
      this.observer.schedulerTicked?.(this.options.clock.nowMs() - nowMs);
      // Cached: only apply (NOTIFY) or the passing of this instant can make a schedule due. Asked
      // while the new runs are being claimed, not before: it is not on a slot's path to its start.
      nextDue = findEarliestNextRunAt(this.database.db);
      nextDue.catch(() => undefined); // awaited below; a failed claim must not leave it unhandled
      this.nextDueMs = nowMs;
    }
    // Under a backlog the worker keeps claiming; it hands back for the next slot, heartbeat or
    // reconcile, and at least every second.
    await this.worker.flushAndClaim({ claim: !this.stopping, untilMs: Math.min(this.nextDueMs - this.lookaheadMs, this.nextHeartbeatMs, this.nextReconcileMs, nowMs + 1_000) });
    if (nextDue) this.nextDueMs = (await nextDue)?.getTime() ?? Number.POSITIVE_INFINITY;
    if (nowMs >= this.nextHeartbeatMs) {
      // Not renewed for longer than a lease: this runner was cut off (a database outage, a paused
      // VM), and so, probably, were the others. It gives them one lease to reconnect and write
      // the outcomes they hold before it declares their attempts stalled and runs them again.
      // That lease runs from the heartbeat that got through, read from the clock then: a tick
      // that began during the outage and waited for the database carries an older nowMs, and a
      // hold-off counted from it had already run out when the runner reconciled next (the chaos
      // suite saw a runner stall 91 attempts 1.6 s after PostgreSQL came back, issue 17).
      // A runner that started during the outage (its first heartbeat a lease after it began
      // trying) holds off too: the chaos suite saw one stall 70 attempts as PostgreSQL came back.
      const cutOff = this.options.clock.nowMs() - (this.lastHeartbeatMs ?? this.reachingDatabaseSinceMs) > this.leaseMs;
      if (cutOff) this.stallsHeldUntilMs = Number.POSITIVE_INFINITY;
      await this.worker.heartbeat();
      await heartbeatRunner(this.database.db, this.id, new Date(nowMs));
      const renewedMs = this.options.clock.nowMs();
      if (this.stallsHeldUntilMs === Number.POSITIVE_INFINITY) this.stallsHeldUntilMs = renewedMs + this.leaseMs;
      this.lastHeartbeatMs = renewedMs;
      this.nextHeartbeatMs = nowMs + this.leaseMs / 3;
    }
    if (nowMs >= this.nextReconcileMs) {
      const resolveStalls = nowMs >= this.stallsHeldUntilMs;
      const result = await runReconcileTick(this.database, { nowMs, runnerSilenceMs: this.leaseMs * 3, resolveStalls, defaultKillGraceMs: this.killGraceMs, observer: this.observer, drainFinalEvents: this.drainsFinalEvents });
      if (result.stalled > 0 || result.requeued > 0 || result.pausesEnded > 0 || result.finalEventsPruned > 0) this.logger.warn('reconciled', { ...result });
      // A queue database that is down must not stop this runner's reconciling: tried again next time.
      const redelivered = await this.worker.redeliverHandOffs().catch((error: unknown) => {
        this.logger.error('delivering open queue hand-offs failed', { error: (error as Error).message });
        return { delivered: 0, failed: 0 };
      });
      if (redelivered.delivered > 0 || redelivered.failed > 0) this.logger.warn('queue hand-offs delivered again', { ...redelivered });
      this.nextReconcileMs = resolveStalls ? nowMs + this.reconcileIntervalMs : Math.min(nowMs + this.reconcileIntervalMs, this.stallsHeldUntilMs);
    }
    // Not awaited: reading every schedule's recent runs takes long enough with thousands of them
    // to delay the next claim. One evaluation at a time.
    if (this.alerts && nowMs >= this.nextAlertsMs && !this.alertsInFlight) {
      this.alertsInFlight = this.evaluateAlerts(nowMs).finally(() => (this.alertsInFlight = undefined));
    }
    // Not awaited either, and never on the claim's way: each batch is its own short statement.
    if (this.options.retention !== false && nowMs >= this.nextRetentionMs && !this.retentionInFlight) {
      this.retentionInFlight = this.applyRetention(nowMs).finally(() => (this.retentionInFlight = undefined));
    }
  }

  /** Today's and the next PARTITION_DAYS_AHEAD UTC days of the run tables (db/run-partitions.ts). */
  private async keepDayPartitions(nowMs: number): Promise<void> {
    this.nextPartitionsMs = nowMs + PARTITIONS_INTERVAL_MS;
    try {
      const result = await ensureDayPartitions(this.database, nowMs, nowMs + PARTITION_DAYS_AHEAD * MS_PER_DAY);
      if (result.created.length > 0) this.logger.info('run table days created', { days: result.created });
    } catch (error) {
      // The DEFAULT partition takes the runs of a missing day: this can wait for the next try.
      this.nextPartitionsMs = nowMs + 60_000;
      this.logger.warn('creating the run tables\' coming days failed; runs of a missing day go to the DEFAULT partition', { error: (error as Error).message });
    }
  }

  /** Planner statistics of the run tables' partitions that filled since they were gathered (db/run-partitions.ts). */
  private async refreshRunStatistics(nowMs: number, waitForOthers: boolean): Promise<void> {
    this.nextStatisticsMs = nowMs + STATISTICS_INTERVAL_MS;
    try {
      const analyzed = await refreshRunStatistics(this.database, { waitForOthers });
      if (analyzed.length > 0) this.logger.debug('run table statistics gathered', { tables: analyzed });
    } catch (error) {
      // Plans stay as they were until the next try; nothing else depends on it.
      this.logger.warn('gathering the run tables\' statistics failed', { error: (error as Error).message, cause: causeOf(error) });
    }
  }

  /** Resolves once the retention pass a tick started has finished (shutdown; tests driving ticks). */
  async retentionApplied(): Promise<void> {
    await this.retentionInFlight;
  }

  private async applyRetention(nowMs: number): Promise<void> {
    const { intervalMs = 10 * 60_000, batchSize = 500, maxBatches = 200 } = this.options.retention || {};
    this.nextRetentionMs = nowMs + intervalMs;
    try {
      const result = await runRetentionPass(this.database, {
        nowMs,
        policyRetention: this.policy.retention,
        batchSize,
        maxBatches,
        onDayError: (day, error) => this.logger.warn('retention could not drop a day now; it waits for the next pass', { day, error: (error as Error).message, cause: causeOf(error) }),
      });
      if (result.deleted > 0) this.logger.info('retention deleted runs', { ...result });
    } catch (error) {
      // Retention can always wait for the next pass; it must never stop scheduling.
      this.logger.error('retention failed', { error: (error as Error).message });
    }
  }

  /** Resolves once the alert evaluation a tick started has finished (shutdown; tests driving ticks). */
  async alertsEvaluated(): Promise<void> {
    await this.alertsInFlight;
  }

  /** After the scheduler and reconciler, so the alerts see this tick's runs. Its messages are sent off the loop (alerts/dispatcher.ts). */
  private async evaluateAlerts(nowMs: number): Promise<void> {
    const { intervalMs = 30_000 } = this.options.alerts || {};
    this.nextAlertsMs = nowMs + intervalMs;
    try {
      await this.alerts!.evaluate(nowMs, this.policy.alerts?.targets ?? []);
    } catch (error) {
      // A failing alert step must not stop scheduling; the next one tries again.
      this.logger.error('alert evaluation failed', { error: (error as Error).message });
    }
  }

  /** When the loop ticks next, after a tick ending at `nowMs`: heartbeat, reconcile, next slot or a run coming due. */
  async nextWakeAtMs(nowMs: number): Promise<number> {
    const candidates = [this.nextHeartbeatMs, this.nextReconcileMs, nowMs + (this.options.safetyPollMs ?? 30_000), this.nextDueMs - this.lookaheadMs];
    if (this.alerts) candidates.push(this.nextAlertsMs);
    if (this.options.retention !== false) candidates.push(this.nextRetentionMs);
    if (this.worker.freeSlots > 0) {
      // Runs due after the tick began, not after now: a run that fell due between the tick's claim
      // and now was not claimable then, and would otherwise wait for the next reason to wake (up
      // to the next slot: a second late for a per-second schedule). Those due earlier were
      // offered to that claim (taken, or held back by a pause or a queue limit).
      const runAfter = await findEarliestRunAfter(this.database.db, new Date(this.tickStartedMs));
      if (runAfter) candidates.push(runAfter.getTime());
    }
    return Math.min(...candidates);
  }

  private async runLoop(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      try {
        this.woken = false;
        await this.tick();
        const nowMs = this.options.clock.nowMs();
        const wakeAtMs = this.worker.pendingWrites > 0 ? nowMs : await this.nextWakeAtMs(nowMs);
        failures = 0;
        this.lastLoopSuccessMs = this.options.clock.nowMs();
        await this.sleep(wakeAtMs - this.options.clock.nowMs());
      } catch (error) {
        // A database outage must not kill the runner: back off and try again, but by at most a
        // third of the lease, so that once the database is back every runner renews its leases
        // (and writes its outcomes) within the lease the others wait before taking over.
        failures += 1;
        const backoffMs = Math.min(30_000, Math.max(1_000, this.leaseMs / 3), 250 * 2 ** Math.min(failures, 7));
        this.logger.error('runner loop failed; retrying', { error: (error as Error).message, cause: causeOf(error), attempt: failures, backoffMs });
        await this.sleep(backoffMs);
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    if (ms <= 0 || this.woken || this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const cancelTimer = this.options.clock.setTimer(ms, done);
      function done(): void {
        cancelTimer();
        resolve();
      }
      this.wakeUp = done;
    });
  }
}

/**
 * The Prometheus metrics of one runner process (`GET /metrics`), in a registry of its own (two
 * runners in one process, as in the tests, must not share counters).
 *
 * Counting once across replicas. A run's final status is written by exactly one process (each
 * write guarded by the database, so no two processes write the same change). A runner counts the
 * changes it wrote, after their commit: the outcomes its worker wrote, the slots its scheduler
 * inserted SKIPPED or MISSED, the stalled attempts its reconciler failed. The final statuses
 * written outside the runners (`cronform cancel`, the runs `cronform pause` skips, the same
 * operations from the dashboard) are written with a row in the `run_final_events` outbox, in the
 * same statement; the reconciler of a runner serving metrics takes rows out of it (delete with
 * SKIP LOCKED) and counts them here (`finalEventsDrained`), each row in one runner only. So the
 * counters of the replicas partition the final statuses: **sum them across instances**
 * (`sum without (instance) (rate(cronform_runs_total[5m]))`). A restarted runner starts again
 * from zero, which `rate()` and `increase()` handle. Those statuses are counted when drained
 * (within a reconcile interval while a runner serves metrics), and have no duration or start
 * delay: no attempt of this runner ended with them.
 *
 * Values read at scrape time (queue depth, runners alive) are the same on every replica: take
 * `max`, not `sum`. `cronform_schedule_last_success_timestamp` is read from the database once, then
 * follows the successes this runner writes: take `max` across instances.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../../db/client.js';
import { countActiveRunsByQueue, countRunnersAlive, findLastSuccesses } from '../../db/metrics-queries.js';
import { FINAL_STATUSES, type RunStatus } from '../../db/run-vocabulary.js';
import type { RunObserver } from '../../runner/run-observer.js';
import type { Clock } from '../../shared/clock.js';
import type { Logger } from '../../shared/logger.js';

const isFinal = (status: RunStatus): boolean => FINAL_STATUSES.includes(status);

export interface RunnerMetricsOptions {
  database: Database;
  clock: Clock;
  /** A runner silent for longer is not alive (the reconciler's own threshold: three leases). */
  runnerSilenceMs: number;
  logger: Logger;
  /** Node.js process metrics (memory, CPU, event loop lag) beside cronform's; default true. */
  processMetrics?: boolean;
}

export class RunnerMetrics implements RunObserver {
  readonly registry = new Registry();
  private readonly runs: Counter<'schedule' | 'status'>;
  private readonly skippedSlots: Counter<'schedule' | 'status' | 'reason'>;
  private readonly retries: Counter<'schedule'>;
  private readonly leaseExpiries: Counter<'schedule' | 'outcome'>;
  private readonly duration: Histogram<'schedule'>;
  private readonly startDelay: Histogram<'schedule'>;
  private readonly tickDuration: Histogram;
  private readonly lastSuccess: Gauge<'schedule'>;
  private readonly databaseUp: Gauge;
  private readonly handOffs: Counter<'schedule' | 'system'>;
  private readonly queueDepth: Gauge<'queue' | 'status'>;
  private readonly runnersAlive: Gauge;
  private readonly lastSuccessMs = new Map<string, number>();
  private lastSuccessesRead: Promise<void> | undefined;

  constructor(private readonly options: RunnerMetricsOptions) {
    const registers = [this.registry];
    this.runs = new Counter({ name: 'cronform_runs_total', help: 'Runs that reached a final status, counted once by one runner: the one that wrote it, or the one that drained it from the outbox (sum across instances).', labelNames: ['schedule', 'status'], registers });
    this.skippedSlots = new Counter({
      name: 'cronform_slots_skipped_total',
      help: 'Slots the scheduler did not run (SKIPPED, MISSED, MANUAL_REQUIRED) by reason; a summary run of a long outage counts its slots.',
      labelNames: ['schedule', 'status', 'reason'],
      registers,
    });
    this.handOffs = new Counter({ name: 'cronform_handoffs_total', help: 'Attempts handed to an external queue (job type queue) by this runner; their outcome is reported by the queue\'s worker.', labelNames: ['schedule', 'system'], registers });
    this.retries = new Counter({ name: 'cronform_retries_total', help: 'Attempts that failed, timed out or stalled and left a retry (RETRY_PENDING).', labelNames: ['schedule'], registers });
    this.leaseExpiries = new Counter({
      name: 'cronform_lease_expiries_total',
      help: 'Running attempts whose lease expired (their runner died or was cut off): stalled (per onStall) or handed back (never started).',
      labelNames: ['schedule', 'outcome'],
      registers,
    });
    this.duration = new Histogram({
      name: 'cronform_run_duration_seconds',
      help: 'Execution time of each attempt whose outcome this runner wrote (a retried run contributes one per attempt).',
      labelNames: ['schedule'],
      buckets: [0.01, 0.1, 0.5, 1, 5, 15, 60, 300, 900, 1800, 3600, 7200],
      registers,
    });
    this.startDelay = new Histogram({
      name: 'cronform_run_start_delay_seconds',
      help: 'From the slot to the start of the first attempt of each scheduled run (jitter included).',
      labelNames: ['schedule'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300],
      registers,
    });
    this.tickDuration = new Histogram({
      name: 'cronform_scheduler_tick_duration_seconds',
      help: 'Time the scheduler took to turn the due slots into runs, per tick.',
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers,
    });
    const readLastSuccesses = () => (this.lastSuccessesRead ??= this.readLastSuccesses());
    this.lastSuccess = new Gauge({
      name: 'cronform_schedule_last_success_timestamp',
      help: 'Unix time (seconds) of the last successful run of each schedule known to this instance (max across instances).',
      labelNames: ['schedule'],
      registers,
      // Set when a success is written, not rebuilt per scrape: with 10,000 schedules that would cost
      // more than the rest of the scrape. The history is read once, at the first scrape.
      collect: readLastSuccesses,
    });
    this.databaseUp = new Gauge({ name: 'cronform_metrics_database_up', help: '1 when this scrape could read the database, else 0.', registers });
    this.queueDepth = new Gauge({
      name: 'cronform_queue_depth',
      help: 'Unfinished runs per queue and status (PENDING, QUEUED, RUNNING, RETRY_PENDING), from the database: the same on every instance.',
      labelNames: ['queue', 'status'],
      registers,
    });
    this.runnersAlive = new Gauge({ name: 'cronform_runners_alive', help: 'Runners registered in the database that heartbeated recently: the same on every instance.', registers });
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }

  /** The text of `GET /metrics`. */
  async render(): Promise<string> {
    await this.readDatabaseGauges();
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  runsCreated: NonNullable<RunObserver['runsCreated']> = (runs) => {
    for (const run of runs) {
      if (isFinal(run.status)) this.runs.inc({ schedule: run.schedule, status: run.status });
      if (run.status === 'SKIPPED' || run.status === 'MISSED' || run.status === 'MANUAL_REQUIRED') {
        this.skippedSlots.inc({ schedule: run.schedule, status: run.status, reason: run.reason ?? 'NONE' }, run.slots);
      }
    }
  };

  attemptStarted: NonNullable<RunObserver['attemptStarted']> = (run, startedMs) => {
    if (run.attempt === 1 && run.triggerType === 'SCHEDULED') this.startDelay.observe({ schedule: run.scheduleName }, Math.max(0, startedMs - run.scheduledFor.getTime()) / 1000);
  };

  attemptFinished: NonNullable<RunObserver['attemptFinished']> = (run, _outcome, runStatus, durationMs) => {
    if (runStatus === null) return;
    const schedule = run.scheduleName;
    this.duration.observe({ schedule }, durationMs / 1000);
    if (isFinal(runStatus)) this.runs.inc({ schedule, status: runStatus });
    if (runStatus === 'RETRY_PENDING') this.retries.inc({ schedule });
    // As the stored last success (db/metrics-queries.ts): a PARTIAL_SUCCESS counts, a dry run does not.
    if ((runStatus === 'SUCCESS' || runStatus === 'PARTIAL_SUCCESS') && run.triggerType !== 'DRY_RUN') this.noteSuccess(schedule, this.options.clock.nowMs());
  };

  finalEventsDrained: NonNullable<RunObserver['finalEventsDrained']> = (events) => {
    for (const event of events) {
      this.runs.inc({ schedule: event.schedule, status: event.status });
      // A scheduled slot a pause skipped was not run, like the slots the scheduler skips while paused.
      if (event.status === 'SKIPPED' && event.trigger === 'SCHEDULED') this.skippedSlots.inc({ schedule: event.schedule, status: event.status, reason: event.reason ?? 'NONE' });
    }
  };

  runHandedOff: NonNullable<RunObserver['runHandedOff']> = (run, job) => {
    this.handOffs.inc({ schedule: run.scheduleName, system: job.system });
  };

  leasesExpired: NonNullable<RunObserver['leasesExpired']> = (attempts) => {
    for (const attempt of attempts) {
      this.leaseExpiries.inc({ schedule: attempt.schedule, outcome: attempt.started ? 'stalled' : 'handed_back' });
      if (isFinal(attempt.runStatus)) this.runs.inc({ schedule: attempt.schedule, status: attempt.runStatus });
      if (attempt.runStatus === 'RETRY_PENDING') this.retries.inc({ schedule: attempt.schedule });
    }
  };

  schedulerTicked: NonNullable<RunObserver['schedulerTicked']> = (durationMs) => {
    this.tickDuration.observe(durationMs / 1000);
  };

  /**
   * Gauges read from the database when scraped, by two bounded statements (metrics-queries.ts),
   * before the registry is rendered. A database that does not answer leaves them out of that
   * scrape (no stale value served as current; runners alive is NaN) and sets cronform_metrics_database_up to 0; the
   * in-process metrics are served all the same.
   */
  private async readDatabaseGauges(): Promise<void> {
    const { database, clock, runnerSilenceMs, logger } = this.options;
    try {
      const [depths, alive] = await Promise.all([countActiveRunsByQueue(database.db), countRunnersAlive(database.db, new Date(clock.nowMs()), runnerSilenceMs)]);
      this.queueDepth.reset();
      for (const row of depths) this.queueDepth.set({ queue: row.queue, status: row.status }, row.count);
      this.runnersAlive.set(alive);
      this.databaseUp.set(1);
    } catch (error) {
      this.queueDepth.reset();
      // A gauge without labels is always written: NaN, not a stale or made-up count (an alert on
      // `cronform_runners_alive < 1` stays quiet; cronform_metrics_database_up says why).
      this.runnersAlive.set(Number.NaN);
      this.databaseUp.set(0);
      logger.warn('metrics: could not read the database', { error: (error as Error).message });
    }
  }

  private noteSuccess(schedule: string, atMs: number): void {
    if ((this.lastSuccessMs.get(schedule) ?? Number.NEGATIVE_INFINITY) >= atMs) return;
    this.lastSuccessMs.set(schedule, atMs);
    this.lastSuccess.set({ schedule }, atMs / 1000);
  }

  private async readLastSuccesses(): Promise<void> {
    try {
      for (const { schedule, finishedAt } of await findLastSuccesses(this.options.database.db)) this.noteSuccess(schedule, finishedAt.getTime());
    } catch (error) {
      this.lastSuccessesRead = undefined; // try again at the next scrape
      this.options.logger.warn('metrics: could not read the last successes', { error: (error as Error).message });
    }
  }
}

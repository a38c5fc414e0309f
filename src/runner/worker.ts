/**
 * The worker claims runnable runs and executes them (SPEC §7). Claims are one statement with
 * SKIP LOCKED; each running attempt holds a lease that heartbeats extend; outcomes are written
 * in batches and only where the lease is still ours. A failing job is an outcome, not an error.
 *
 * Claiming ahead. A transaction costs a few milliseconds whatever its size (the COMMIT waits for
 * the WAL flush), so claiming only as many runs as there are free slots caps a runner at about
 * concurrency / 5 ms runs per second. The worker therefore claims up to `prefetch` runs more than
 * it can start and keeps them in a local queue (priority, then slot), starting each the moment a
 * slot frees, and writes all outcomes that finished meanwhile in the next transaction. A run
 * waiting locally is RUNNING in the database with this runner's lease: it counts against its
 * queue's concurrency, heartbeats renew it, and shutdown hands it back untouched. So that a
 * claimed run never waits long while another replica has free slots, the local queue is sized
 * to what this runner will start within ~100 ms at the job durations it has been seeing (policy/prefetch.ts);
 * at concurrency 10 with jobs of more than a second it claims no further ahead than its free slots.
 */
import type { Definition, QueueJobDefinition } from '../compile/definition.js';
import { failedOutcome } from './executors/job-outcome.js';
import { QueueConnections } from './queue-connections.js';
import { handOffClaimedRun, redeliverHandOffs } from './queue-handoff.js';
import type { Database } from '../db/client.js';
import type { StoredPolicy } from '../db/settings-queries.js';
import { claimRuns, extendLeases, releaseLeases, returnUnstartedRuns, type ClaimedRun, type ClaimQueues } from '../db/worker-queries.js';
import { notifyRunsQueued } from '../db/scheduler-queries.js';
import { DefinitionCache } from './definition-cache.js';
import { LeaseFence } from './lease-fence.js';
import { OutcomeWriter } from './outcome-writer.js';
import { attemptCompletionWithProgress, executeClaimedRun, progressStateOf, type ExecutionSettings, type FrozenContext, type RunProgressState } from './claimed-run.js';
import { loadPriorProgress, saveLiveProgress, type ProgressCounts } from '../db/run-progress-queries.js';
import { summarizeRunProgress } from './policy/run-progress.js';
import { freezeRunContexts, needsFrozenContext } from './run-context-freezer.js';
import { nextAverageDurationMs, prefetchTarget } from './policy/prefetch.js';
import { fenceDeadlineMs } from './policy/lease.js';
import type { ExecutionOutcome } from './run-types.js';
import type { CancelTimer } from '../shared/clock.js';
import type { RunObserver } from './run-observer.js';
import { createDatabaseStepStore } from './steps/step-store.js';

export interface WorkerOptions extends ExecutionSettings {
  runnerId: string;
  /** Most attempts this runner executes at once. */
  concurrency: number;
  /** Most runs claimed ahead of free slots (the local queue; sized by job durations, see above). 0 by default. */
  prefetch?: number;
  leaseMs: number;
  /** Told of every state change this worker writes (run log lines, metrics). */
  observer?: RunObserver;
  /** Called when an outcome is ready to be written (the runner loop flushes and claims again). */
  wake?: () => void;
}


interface InFlight {
  run: ClaimedRun;
  controller: AbortController;
  /** Its schedule's definition at the run's version; undefined if that version is missing. */
  definition: Definition | undefined;
  /** Frozen inputs and upstream run (run-context-freezer.ts), for the runs that have them. */
  frozen?: FrozenContext;
  /** Resolves when the job has ended (at once for a run still in the local queue). */
  done: Promise<void>;
  /** When the job started; undefined while it waits in the local queue. */
  startedMs: number | undefined;
  /** Set when the run must not be completed by us (lease lost, or released at shutdown). */
  abandoned: boolean;
  /** Stopped by the lease fence: abandoned, unless its job turns out to have ended on its own (see record). */
  fenced?: boolean;
  ended: boolean;
  /** What the job reports (SPEC §8a) and what earlier attempts left. */
  progress: RunProgressState;
  /** The report's version last written as live progress (at a heartbeat). */
  progressWritten: number;
}

export class Worker {
  /** Every run this runner holds the lease of: waiting locally, executing, or ended and not yet written. */
  private readonly inFlight = new Map<number, InFlight>();
  /** Claimed and not started, in claim order (priority, then slot). */
  private ready: InFlight[] = [];
  private executing = 0;
  /** Moving average of job durations; undefined until a job has ended (then nothing is claimed ahead). */
  private averageDurationMs: number | undefined;
  private readonly definitions: DefinitionCache;
  /** Outcomes, and starts of jobs whose attempt is still CLAIMED in the database, until written. */
  private readonly writer: OutcomeWriter<{ entry: InFlight; outcome: ExecutionOutcome; durationMs: number }>;
  private claiming: Promise<unknown> | undefined;
  /** The queues of due runs this worker's last claim met: its next claim locks them first. */
  private readonly claimQueues: ClaimQueues = { due: [] };
  /** Lanes of `flushAndClaim` waiting for a job to end (or for the other lane, or an interrupt). */
  private waiters: Array<() => void> = [];
  private interrupted = false;
  private policy: StoredPolicy;
  /** Queues in other databases (`url: { fromEnv }`): a pool per distinct URL, closed at stop. */
  private readonly queueConnections: QueueConnections;
  /** Stops the jobs whose lease could not be renewed in time (armFence); an entry leaves it when its job ends. */
  private readonly fence: LeaseFence<InFlight>;
  /** The options, with a store for workflow steps on this worker's database and lease. */
  private readonly execution: ExecutionSettings;

  constructor(
    private readonly database: Database,
    private readonly options: WorkerOptions,
    policy: StoredPolicy,
    definitions?: DefinitionCache,
  ) {
    this.policy = policy;
    this.definitions = definitions ?? new DefinitionCache();
    this.writer = new OutcomeWriter(database, options.runnerId);
    this.queueConnections = new QueueConnections(options.env);
    this.execution = { ...options, steps: options.steps ?? createDatabaseStepStore(database, options.runnerId) };
    this.fence = new LeaseFence(
      options.clock,
      (entry) => {
        if (entry.abandoned || entry.ended || this.inFlight.get(entry.run.id) !== entry) return;
        if (entry.startedMs !== undefined) this.options.observer?.leaseExpiring?.(entry.run);
        entry.fenced = true;
        this.abandon(entry.run.id);
      },
    );
  }

  setPolicy(policy: StoredPolicy): void {
    this.policy = policy;
  }

  /** Jobs executing now. */
  get activeCount(): number {
    return this.executing;
  }

  /** Runs claimed ahead and waiting in the local queue. */
  get queuedLocally(): number {
    return this.ready.length;
  }

  /** How many runs the local queue may hold now: what this runner starts within ~100 ms. */
  get prefetchTarget(): number {
    return prefetchTarget({ limit: this.options.prefetch ?? 0, concurrency: this.options.concurrency, averageDurationMs: this.averageDurationMs });
  }

  /**
   * How many runs a claim may take now: free slots plus room in the local queue. Runs that ended
   * and wait for their outcome to be written occupy nothing (the database still counts them as
   * RUNNING against their queue's limit until then, which only errs on the safe side).
   */
  get freeSlots(): number {
    return Math.max(0, this.options.concurrency + this.prefetchTarget - this.executing - this.ready.length);
  }

  /** Claims as many runs as there is room for and starts them; returns how many were claimed. */
  async claimAndStart(): Promise<number> {
    while (this.claiming) await this.claiming;
    const capacity = this.freeSlots;
    if (capacity === 0) return 0;
    const now = new Date(this.options.clock.nowMs());
    const startNow = Math.max(0, this.options.concurrency - this.executing - this.ready.length);
    const work = this.database.db.transaction((tx) => claimRuns(tx, { ...this.claimRequest(now, capacity), startNow }));
    this.claiming = work;
    let claimed: ClaimedRun[];
    try {
      claimed = await work;
    } finally {
      this.claiming = undefined;
    }
    if (claimed.length > 0) {
      this.options.observer?.runsClaimed?.(claimed);
      await this.accept(claimed);
    }
    return claimed.length;
  }

  private claimRequest(now: Date, capacity: number): Parameters<typeof claimRuns>[1] {
    const queueLimits = Object.fromEntries(Object.entries(this.policy.queues).map(([name, limits]) => [name, limits.concurrency]));
    return { runnerId: this.options.runnerId, now, leaseMs: this.options.leaseMs, capacity, queueLimits, defaultQueueLimit: this.policy.queues.default?.concurrency ?? 5, queues: this.claimQueues };
  }

  /** Takes claimed runs into the local queue (fenced by their lease) and starts what fits. */
  private async accept(claimed: ClaimedRun[]): Promise<void> {
    const definitions = await this.definitions.require(
      this.database.db,
      claimed.map((r) => ({ scheduleId: r.scheduleId, version: r.scheduleVersion })),
    );
    // Only a later attempt (a retry, an approved run) can have reported items or an approval: no
    // read at all on the hot path of first attempts.
    const later = claimed.filter((r) => r.attempt > 1).map((r) => r.id);
    const prior = later.length > 0 ? await loadPriorProgress(this.database.db, later) : new Map<number, never>();
    const withDefinitions = claimed.map((run) => ({ run, definition: definitions.get(`${run.scheduleId}:${run.scheduleVersion}`) }));
    const needing = withDefinitions.filter((r) => needsFrozenContext(r.run, r.definition));
    const frozen = needing.length > 0 ? await freezeRunContexts(this.database.db, needing) : new Map<number, FrozenContext>();
    for (const { run, definition } of withDefinitions) {
      const progress = progressStateOf(definition, prior.get(run.id) ?? null);
      const context = frozen.get(run.id);
      const entry: InFlight = { run, definition, ...(context ? { frozen: context } : {}), controller: new AbortController(), abandoned: false, done: Promise.resolve(), startedMs: undefined, ended: false, progress, progressWritten: 0 };
      this.inFlight.set(run.id, entry);
      this.ready.push(entry);
      this.armFence(entry, run.leaseExpiresAt.getTime());
    }
    // Claims come sorted; a new claim may hold a run that must start before older local ones.
    if (this.ready.length > claimed.length) this.ready.sort((a, b) => a.run.priority - b.run.priority || a.run.scheduledFor.getTime() - b.run.scheduledFor.getTime() || a.run.id - b.run.id);
    this.startReady();
  }

  private startReady(): void {
    while (this.executing < this.options.concurrency && this.ready.length > 0) {
      const entry = this.ready.shift() as InFlight;
      // Past its fence, a job must not start: the fence's timer has not run yet (a loaded loop, or
      // the claim's definitions read waited for the database), and the lease may be about to
      // expire or have expired, with a retry on another runner soon after. Left to the reconciler.
      const deadlineMs = this.fence.deadlineOf(entry);
      if (deadlineMs !== undefined && this.options.clock.nowMs() >= deadlineMs) {
        this.abandon(entry.run.id);
        continue;
      }
      this.start(entry);
    }
  }

  private start(entry: InFlight): void {
    const { run, definition } = entry;
    entry.startedMs = this.options.clock.nowMs();
    this.executing += 1;
    this.options.observer?.attemptStarted?.(run, entry.startedMs);
    if (!run.openedRunning) {
      this.writer.addStart(() =>
        entry.ended || entry.abandoned ? undefined : { runId: run.id, slot: run.slot, attempt: run.attempt, startedAtMs: entry.startedMs ?? this.options.clock.nowMs() },
      );
    }
    if (definition?.job.type === 'queue') {
      entry.done = this.handOff(entry, definition, definition.job);
      return;
    }
    entry.done = executeClaimedRun(run, definition, entry.controller, this.execution, entry.progress, entry.frozen).then(
      (outcome) => this.record(entry, outcome),
      (error: unknown) => this.record(entry, { status: 'FAILED', exitCode: null, httpStatus: null, error: `runner error: ${(error as Error).message}`, stdoutTail: null, stderrTail: null, durationMs: 0 }),
    );
  }

  /**
   * A queue job: the attempt is over for this runner once the queue has it (the lease is the
   * queue's now, and the worker's reports or the reconciler end the run). A hand-off that failed
   * is an ordinary failed attempt; one whose lease was lost meanwhile is abandoned like any other.
   */
  private async handOff(entry: InFlight, definition: Definition, job: QueueJobDefinition): Promise<void> {
    const result = await handOffClaimedRun(this.database, entry.run, definition, job, { runnerId: this.options.runnerId, clock: this.options.clock, leaseMs: this.options.leaseMs, queueConnections: this.queueConnections });
    if (!result.handedOff) {
      if ('leaseLost' in result) entry.abandoned = true;
      this.record(entry, 'outcome' in result ? result.outcome : failedOutcome('lease lost before the hand-off', 0));
      return;
    }
    entry.ended = true;
    this.fence.disarm(entry);
    this.executing -= 1;
    if (this.inFlight.get(entry.run.id) === entry) this.inFlight.delete(entry.run.id);
    this.options.observer?.runHandedOff?.(entry.run, job, result.externalJobId);
    this.startReady();
    this.releaseWaiters();
    this.options.wake?.();
  }

  /**
   * Hand-offs to a queue in another database whose job id was never recorded (a crash or an error
   * after the intent): delivered again with the same key (queue-handoff.ts). Left a lease to the
   * runner that is handing one off right now.
   */
  redeliverHandOffs(): Promise<{ delivered: number; failed: number }> {
    return redeliverHandOffs(this.database, { clock: this.options.clock, queueConnections: this.queueConnections, retryAfterMs: this.options.leaseMs });
  }

  /** Closes the pools of queues in other databases (at runner stop). */
  closeQueueConnections(): Promise<void> {
    return this.queueConnections.close();
  }

  /**
   * Fencing. A lease this runner cannot renew (database unreachable, loop stuck) expires, and the
   * reconciler of another runner then starts the run again: the job must be gone by then, or two
   * attempts of one run execute at once. So the job is stopped killGraceMs before its lease runs
   * out (its process group is dead at expiry), but never before two heartbeats (leaseMs / 3 apart)
   * have been missed: then at expiry - leaseMs / 4, and a job that ignores SIGTERM may outlive
   * the lease by at most killGraceMs - leaseMs / 4, which the reconcilers wait out (they resolve
   * an expired lease only killGraceMs + STOP_MARGIN_MS after expiry; policy/lease.ts). The
   * outcome is not written: the reconciler resolves the run per onStall, like the run of a
   * runner that died. A run still in the local queue at its fence is never started (startReady).
   */
  private armFence(entry: InFlight, leaseExpiresAtMs: number): void {
    if (entry.ended) return;
    this.fence.arm(entry, fenceDeadlineMs(leaseExpiresAtMs, this.options.leaseMs, this.options.killGraceMs));
  }

  private record(entry: InFlight, outcome: ExecutionOutcome): void {
    entry.ended = true;
    this.fence.disarm(entry);
    this.executing -= 1;
    const finishedMs = this.options.clock.nowMs();
    const durationMs = finishedMs - (entry.startedMs ?? finishedMs);
    this.averageDurationMs = nextAverageDurationMs(this.averageDurationMs, durationMs);
    this.startReady();
    // A fenced job that ended on its own before the stop reached it (its exit was still unread
    // when the fence fired) keeps its outcome: written if the lease is still ours when the
    // database answers, refused if another runner has declared the attempt stalled meanwhile.
    if (entry.abandoned && !(entry.fenced && outcome.status !== 'CANCELLED')) {
      this.inFlight.delete(entry.run.id);
      return;
    }
    this.writer.addOutcome({ entry, outcome, durationMs }, attemptCompletionWithProgress(entry.run, outcome, entry.definition, { startedMs: entry.startedMs, finishedMs }, entry.progress));
    this.releaseWaiters();
    this.options.wake?.();
  }

  /**
   * The hot path, in two lanes on two connections at once: one writes the outcomes that finished
   * (a transaction per batch, whatever finished while the previous one was being written), the
   * other claims runs while there is room. They touch different rows, and a transaction's cost is
   * mostly waiting (statements, the COMMIT's WAL flush), so the lanes overlap; jobs keep starting
   * from the local queue meanwhile. Returns once there is nothing to claim and nothing to write,
   * or at `untilMs` (after the transactions in progress), so the runner loop still schedules,
   * heartbeats and reconciles on time under an endless backlog.
   */
  async flushAndClaim(options: { claim: boolean; untilMs?: number } = { claim: true }): Promise<{ flushed: number; claimed: number }> {
    const untilMs = options.untilMs ?? Number.NEGATIVE_INFINITY;
    this.interrupted = false;
    let claimLaneDone = false;
    const claimLane = async (): Promise<number> => {
      let claimed = 0;
      let contendedRetries = 0;
      try {
        while (options.claim && !this.interrupted) {
          // Short jobs (a local queue in use): claim the next batch once half the queue has
          // drained, while the other half keeps the slots busy, so that claiming and executing
          // overlap instead of taking turns. Otherwise claim whenever a slot is free.
          const target = this.prefetchTarget;
          const room = this.freeSlots;
          if (room === 0 || (target > 0 && room < target / 2 && this.ready.length > 0)) {
            if (target === 0 || this.options.clock.nowMs() >= untilMs) break;
            await this.waitForJobEnd(untilMs);
            continue;
          }
          const n = await this.claimAndStart();
          claimed += n;
          // Due runs were in queues another claim held and this one could not wait for (ClaimQueues):
          // the next claim may wait for them.
          if (n === 0 && this.claimQueues.contended === true && contendedRetries < 3) {
            contendedRetries += 1;
            continue;
          }
          if (n === 0 || this.options.clock.nowMs() >= untilMs) break;
        }
        return claimed;
      } finally {
        claimLaneDone = true;
        this.releaseWaiters();
      }
    };
    const flushLane = async (): Promise<number> => {
      let flushed = 0;
      for (;;) {
        if (this.pendingWrites > 0) flushed += await this.flushCompletions();
        else if (claimLaneDone) return flushed;
        else await this.waitForJobEnd(Number.POSITIVE_INFINITY);
      }
    };
    const [flushed, claimed] = await Promise.all([flushLane(), claimLane()]);
    return { flushed, claimed };
  }

  /** Ends a `flushAndClaim` that waits for room (a notification or shutdown needs the runner loop). */
  interrupt(): void {
    this.interrupted = true;
    this.releaseWaiters();
  }

  /** Resolves when a job ends, the other lane finishes, `interrupt()` is called, or at untilMs. */
  private waitForJobEnd(untilMs: number): Promise<void> {
    return new Promise((resolve) => {
      const cancelTimer = Number.isFinite(untilMs) ? this.options.clock.setTimer(untilMs - this.options.clock.nowMs(), resolve) : undefined;
      this.waiters.push(() => {
        cancelTimer?.();
        resolve();
      });
    });
  }

  private releaseWaiters(): void {
    for (const release of this.waiters.splice(0)) release();
  }

  /** Writes every buffered outcome and job start in one transaction (see OutcomeWriter). */
  async flushCompletions(): Promise<number> {
    const written = await this.writer.write(this.options.clock.nowMs());
    for (const { item, runStatus } of written) {
      const { entry, outcome, durationMs } = item;
      // The same run may already be held again (a retry due at once, claimed meanwhile).
      if (this.inFlight.get(entry.run.id) === entry) this.inFlight.delete(entry.run.id);
      this.options.observer?.attemptFinished?.(entry.run, outcome, runStatus, durationMs);
    }
    return written.length;
  }

  /** Outcomes and job starts waiting to be written. */
  get pendingWrites(): number {
    return this.writer.pending;
  }

  /** Extends our leases; runs whose lease we lost (cancelled, or taken over) are stopped. */
  async heartbeat(): Promise<void> {
    const running = [...this.inFlight.values()].filter((e) => !e.abandoned).map((e) => ({ runId: e.run.id, slot: e.run.slot }));
    const nowMs = this.options.clock.nowMs();
    const lost = new Set(await extendLeases(this.database.db, this.options.runnerId, running, new Date(nowMs), this.options.leaseMs));
    for (const { runId: id } of running) {
      const entry = this.inFlight.get(id);
      if (lost.has(id)) this.abandon(id);
      else if (entry && !entry.abandoned) this.armFence(entry, nowMs + this.options.leaseMs);
    }
    await this.writeLiveProgress(nowMs);
  }

  /**
   * Counts of running jobs that reported something since the last heartbeat, in one statement:
   * a job writing a line per item costs the database one row write per run per heartbeat, not one
   * per line. Items themselves are written once, with the outcome.
   */
  private async writeLiveProgress(nowMs: number): Promise<void> {
    const moved = [...this.inFlight.values()].filter((e) => !e.abandoned && !e.ended && e.progress.report.version > e.progressWritten);
    if (moved.length === 0) return;
    const rows: ProgressCounts[] = moved.map((entry) => {
      const summary = summarizeRunProgress(entry.progress.report, entry.progress.prior);
      return { runId: entry.run.id, attempt: entry.run.attempt, total: summary.total, done: summary.done, failed: summary.failed, wouldAffect: summary.wouldAffect, itemsTruncated: summary.itemsTruncated };
    });
    const versions = moved.map((entry) => entry.progress.report.version);
    await saveLiveProgress(this.database.db, this.options.runnerId, rows, new Date(nowMs));
    moved.forEach((entry, index) => {
      entry.progressWritten = versions[index] ?? 0;
    });
  }

  /**
   * A run cancelled by `cronform cancel` (told by NOTIFY): stop it like any abandoned run, and, if
   * this runner held it, report it (a log line). The CANCELLED status is counted from the outbox
   * the cancel wrote (db/final-event-queries.ts), not here: a dead holder would never count it.
   */
  cancel(runId: number): void {
    const entry = this.inFlight.get(runId);
    if (!entry || entry.abandoned) return;
    this.options.observer?.runCancelled?.(entry.run);
    this.abandon(runId);
  }

  /** Stop a run without writing its outcome (the database already moved it on). */
  abandon(runId: number): void {
    const entry = this.inFlight.get(runId);
    if (!entry) return;
    entry.abandoned = true;
    if (entry.startedMs === undefined) {
      // Still in the local queue: nothing runs, nothing to write.
      this.ready = this.ready.filter((e) => e !== entry);
      entry.ended = true;
      this.fence.disarm(entry);
      this.inFlight.delete(runId);
      return;
    }
    entry.controller.abort();
  }

  /**
   * Shutdown, first step: hand back the runs waiting in the local queue, untouched, so that
   * another replica starts them now instead of after this runner's drain.
   */
  async returnUnstarted(): Promise<number> {
    const unstarted = this.ready;
    this.ready = [];
    for (const entry of unstarted) {
      entry.ended = true;
      this.fence.disarm(entry);
    }
    if (unstarted.length === 0) return 0;
    try {
      const count = await this.database.db.transaction(async (tx) => {
        const count = await returnUnstartedRuns(tx, this.options.runnerId, unstarted.map((e) => ({ runId: e.run.id, slot: e.run.slot, attempt: e.run.attempt })));
        if (count > 0) await notifyRunsQueued(tx);
        return count;
      });
      // Guarded by our lease, which a shutting-down runner still holds: all or (lease lost) some went back.
      if (count > 0) this.options.observer?.runsReleased?.(unstarted.map((e) => e.run), 'unstarted');
      return count;
    } finally {
      // Returned, or (database unreachable) left to expire: the reconciler resolves them like a dead runner's.
      for (const entry of unstarted) this.inFlight.delete(entry.run.id);
    }
  }

  /**
   * Waits until every started attempt has finished executing (outcomes still to flush), or
   * `timeoutMs` by the clock. A zero timeout only asks whether they have, without a clock timer.
   */
  async waitForExecutions(timeoutMs: number): Promise<boolean> {
    const all = Promise.all([...this.inFlight.values()].map((e) => e.done)).then(() => true);
    let cancelTimer: CancelTimer | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      if (timeoutMs <= 0) return void setImmediate(() => resolve(false));
      cancelTimer = this.options.clock.setTimer(timeoutMs, () => resolve(false));
    });
    try {
      return await Promise.race([all, timeout]);
    } finally {
      cancelTimer?.();
    }
  }

  /**
   * Shutdown after the drain timeout: stop what still runs (process groups killed), then hand the
   * runs back so another replica starts them at once. Kill first: releasing first could let a
   * second attempt start while ours is still alive.
   */
  async releaseUnfinished(): Promise<number> {
    await this.returnUnstarted();
    const unfinished = [...this.inFlight.values()];
    for (const entry of unfinished) {
      entry.abandoned = true;
      entry.controller.abort();
    }
    await Promise.all(unfinished.map((e) => e.done));
    const ids = unfinished.map((e) => e.run.id);
    const released = await this.database.db.transaction(async (tx) => {
      const count = await releaseLeases(tx, this.options.runnerId, unfinished.map((e) => ({ runId: e.run.id, slot: e.run.slot })), new Date(this.options.clock.nowMs()));
      if (count > 0) await notifyRunsQueued(tx);
      return count;
    });
    for (const id of ids) this.inFlight.delete(id);
    if (released > 0) this.options.observer?.runsReleased?.(unfinished.map((e) => e.run), 'drain timeout');
    return released;
  }
}

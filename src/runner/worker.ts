/**
 * The worker claims runnable runs and executes them (SPEC §7). Claims are one statement with
 * SKIP LOCKED; each running attempt holds a lease that heartbeats extend; outcomes are written
 * in batches and only where the lease is still ours. A failing job is an outcome, not an error.
 */
import type { Definition } from '../compile/definition.js';
import type { Database } from '../db/client.js';
import type { StoredPolicy } from '../db/settings-queries.js';
import { claimRuns, completeAttempts, extendLeases, loadDefinitions, promotePendingRuns, releaseLeases, type AttemptCompletion, type ClaimedRun } from '../db/worker-queries.js';
import { notifyRunsQueued } from '../db/scheduler-queries.js';
import type { Clock } from '../shared/clock.js';
import { executeJob } from './executors/execute-job.js';
import type { ProcessGroupRegistry } from './executors/execute-options.js';
import { nextAttemptDecision } from './policy/backoff.js';
import type { ExecutionOutcome, RunContext } from './run-types.js';

export interface WorkerOptions {
  runnerId: string;
  clock: Clock;
  /** Most attempts this runner executes at once. */
  concurrency: number;
  leaseMs: number;
  killGraceMs: number;
  baseDir: string;
  env: NodeJS.ProcessEnv;
  /** Called when an outcome is recorded (metrics, logs, tests). */
  onOutcome?: (run: ClaimedRun, outcome: ExecutionOutcome) => void;
  /** Called when an outcome is ready to be written (the runner loop flushes and claims again). */
  wake?: () => void;
  /** Called when a job is stopped because its lease could not be renewed in time (see `armFence`). */
  onLeaseExpiring?: (run: ClaimedRun) => void;
  processGroups?: ProcessGroupRegistry;
  /**
   * How a job is performed; the real executors by default. Embedding cronform as a library (and
   * the engine benchmark, which measures claim/complete overhead with no-op jobs) may pass another.
   */
  execute?: typeof executeJob;
}

interface InFlight {
  run: ClaimedRun;
  controller: AbortController;
  done: Promise<void>;
  /** Set when the run must not be completed by us (lease lost, or released at shutdown). */
  abandoned: boolean;
  /** Stops the job if the lease is not renewed in time; cleared once the job has ended. */
  fence: NodeJS.Timeout | undefined;
  ended: boolean;
}

export class Worker {
  private readonly inFlight = new Map<number, InFlight>();
  private readonly definitions = new Map<string, Definition>();
  private completions: Array<{ run: ClaimedRun; completion: AttemptCompletion; outcome: ExecutionOutcome }> = [];
  private flushing: Promise<void> | undefined;
  private policy: StoredPolicy;

  constructor(
    private readonly database: Database,
    private readonly options: WorkerOptions,
    policy: StoredPolicy,
  ) {
    this.policy = policy;
  }

  setPolicy(policy: StoredPolicy): void {
    this.policy = policy;
  }

  get activeCount(): number {
    return this.inFlight.size;
  }

  get freeSlots(): number {
    return Math.max(0, this.options.concurrency - this.inFlight.size);
  }

  /** Claims as many runs as there is room for and starts them; returns how many started. */
  async claimAndStart(): Promise<number> {
    const capacity = this.freeSlots;
    if (capacity === 0) return 0;
    const now = new Date(this.options.clock.nowMs());
    const queueLimits = Object.fromEntries(Object.entries(this.policy.queues).map(([name, limits]) => [name, limits.concurrency]));
    const claimed = await this.database.db.transaction((tx) =>
      claimRuns(tx, { runnerId: this.options.runnerId, now, leaseMs: this.options.leaseMs, capacity, queueLimits, defaultQueueLimit: this.policy.queues.default?.concurrency ?? 5 }),
    );
    if (claimed.length === 0) return 0;
    await this.ensureDefinitions(claimed);
    for (const run of claimed) this.start(run);
    return claimed.length;
  }

  private async ensureDefinitions(runs: ClaimedRun[]): Promise<void> {
    const missing = runs.filter((r) => !this.definitions.has(`${r.scheduleId}:${r.scheduleVersion}`)).map((r) => ({ scheduleId: r.scheduleId, version: r.scheduleVersion }));
    if (missing.length === 0) return;
    for (const [key, definition] of await loadDefinitions(this.database.db, missing)) this.definitions.set(key, definition);
  }

  private start(run: ClaimedRun): void {
    const definition = this.definitions.get(`${run.scheduleId}:${run.scheduleVersion}`);
    const controller = new AbortController();
    const entry: InFlight = { run, controller, abandoned: false, done: Promise.resolve(), fence: undefined, ended: false };
    entry.done = this.execute(run, definition, controller.signal).then(
      (outcome) => this.record(entry, outcome),
      (error: unknown) => this.record(entry, { status: 'FAILED', exitCode: null, httpStatus: null, error: `runner error: ${(error as Error).message}`, stdoutTail: null, stderrTail: null, durationMs: 0 }),
    );
    this.inFlight.set(run.id, entry);
    this.armFence(entry, run.leaseExpiresAt.getTime());
  }

  /**
   * Fencing. A lease this runner cannot renew (database unreachable, loop stuck) expires, and the
   * reconciler of another runner then starts the run again: the job must be gone by then, or two
   * attempts of one run execute at once. So the job is stopped killGraceMs before its lease runs
   * out (its process group is dead at expiry), but never before two heartbeats (leaseMs / 3 apart)
   * have been missed: then at expiry - leaseMs / 4, and a job that ignores SIGTERM may outlive
   * the lease by at most killGraceMs - leaseMs / 4. The outcome is not written: the reconciler
   * resolves the run per onStall, like the run of a runner that died.
   */
  private armFence(entry: InFlight, leaseExpiresAtMs: number): void {
    clearTimeout(entry.fence);
    if (entry.ended) return;
    const fenceAtMs = leaseExpiresAtMs - Math.min(this.options.killGraceMs, this.options.leaseMs / 4);
    entry.fence = setTimeout(() => {
      if (entry.abandoned || this.inFlight.get(entry.run.id) !== entry) return;
      this.options.onLeaseExpiring?.(entry.run);
      this.abandon(entry.run.id);
    }, Math.max(0, fenceAtMs - this.options.clock.nowMs()));
    entry.fence.unref();
  }

  private async execute(run: ClaimedRun, definition: Definition | undefined, signal: AbortSignal): Promise<ExecutionOutcome> {
    if (!definition) {
      return { status: 'FAILED', exitCode: null, httpStatus: null, error: `definition v${run.scheduleVersion} of ${run.scheduleName} not found`, stdoutTail: null, stderrTail: null, durationMs: 0 };
    }
    const context: RunContext = {
      runId: run.id,
      schedule: run.scheduleName,
      scheduledFor: run.scheduledFor.toISOString(),
      businessDate: run.businessDate,
      idempotencyKey: run.idempotencyKey,
      attempt: run.attempt,
      trigger: run.triggerType,
      payload: definition.payload,
    };
    return (this.options.execute ?? executeJob)(definition.job, context, { timeoutMs: definition.timeoutMs, killGraceMs: this.options.killGraceMs, signal, env: this.options.env, baseDir: this.options.baseDir, clock: this.options.clock, ...(this.options.processGroups ? { processGroups: this.options.processGroups } : {}) });
  }

  private record(entry: InFlight, outcome: ExecutionOutcome): void {
    entry.ended = true;
    clearTimeout(entry.fence);
    if (entry.abandoned) {
      this.inFlight.delete(entry.run.id);
      return;
    }
    const { run } = entry;
    const definition = this.definitions.get(`${run.scheduleId}:${run.scheduleVersion}`);
    let runStatus: AttemptCompletion['runStatus'] = outcome.status === 'SUCCEEDED' ? 'SUCCESS' : outcome.status === 'CANCELLED' ? 'CANCELLED' : 'FAILED';
    let runAfter: Date | null = null;
    const finishedMs = this.options.clock.nowMs();
    if (runStatus === 'FAILED' && definition) {
      const decision = nextAttemptDecision({ attempts: run.attempt, maxAttempts: run.maxAttempts }, definition.retry, finishedMs);
      if (decision.status === 'RETRY_PENDING') {
        runStatus = 'RETRY_PENDING';
        runAfter = new Date(decision.runAfterMs);
      }
    }
    this.completions.push({
      run,
      outcome,
      completion: {
        runId: run.id,
        attempt: run.attempt,
        attemptStatus: outcome.status,
        runStatus,
        runAfter,
        exitCode: outcome.exitCode,
        httpStatus: outcome.httpStatus,
        error: outcome.error,
        stdoutTail: outcome.stdoutTail,
        stderrTail: outcome.stderrTail,
        finishedAt: new Date(finishedMs),
      },
    });
    this.options.wake?.();
  }

  /** Writes every buffered outcome in one transaction, then frees the slots. */
  async flushCompletions(): Promise<number> {
    return (await this.flushAndClaim({ claim: false })).flushed;
  }

  /**
   * The hot path: write the finished outcomes and claim the next runs in ONE transaction, so a
   * busy runner pays one round trip of BEGIN/COMMIT per batch instead of two.
   */
  async flushAndClaim(options: { claim: boolean } = { claim: true }): Promise<{ flushed: number; claimed: number }> {
    while (this.flushing) await this.flushing;
    const batch = this.completions;
    this.completions = [];
    const capacity = options.claim ? Math.max(0, this.options.concurrency - (this.inFlight.size - batch.length)) : 0;
    if (batch.length === 0 && capacity === 0) return { flushed: 0, claimed: 0 };
    let claimed: ClaimedRun[] = [];
    const work = (async () => {
      const now = new Date(this.options.clock.nowMs());
      const queueLimits = Object.fromEntries(Object.entries(this.policy.queues).map(([name, limits]) => [name, limits.concurrency]));
      claimed = await this.database.db.transaction(async (tx) => {
        if (batch.length > 0) {
          const done = await completeAttempts(tx, this.options.runnerId, batch.map((b) => b.completion), now);
          const ended = done.filter((d) => d.status !== 'RETRY_PENDING').map((d) => d.scheduleId);
          const promoted = await promotePendingRuns(tx, [...new Set(ended)]);
          if (promoted > 0 || done.some((d) => d.status === 'RETRY_PENDING')) await notifyRunsQueued(tx);
        }
        if (capacity === 0) return [];
        return claimRuns(tx, { runnerId: this.options.runnerId, now, leaseMs: this.options.leaseMs, capacity, queueLimits, defaultQueueLimit: this.policy.queues.default?.concurrency ?? 5 });
      });
    })();
    this.flushing = work;
    try {
      await work;
    } catch (error) {
      // Nothing was written: keep the outcomes for the next try (the database settles duplicates).
      this.completions = [...batch, ...this.completions];
      throw error;
    } finally {
      this.flushing = undefined;
    }
    for (const item of batch) {
      this.inFlight.delete(item.run.id);
      this.options.onOutcome?.(item.run, item.outcome);
    }
    if (claimed.length > 0) {
      await this.ensureDefinitions(claimed);
      for (const run of claimed) this.start(run);
    }
    return { flushed: batch.length, claimed: claimed.length };
  }

  get pendingCompletions(): number {
    return this.completions.length;
  }

  /** Extends our leases; runs whose lease we lost (cancelled, or taken over) are stopped. */
  async heartbeat(): Promise<void> {
    const running = [...this.inFlight.values()].filter((e) => !e.abandoned).map((e) => e.run.id);
    const nowMs = this.options.clock.nowMs();
    const lost = new Set(await extendLeases(this.database.db, this.options.runnerId, running, new Date(nowMs), this.options.leaseMs));
    for (const id of running) {
      const entry = this.inFlight.get(id);
      if (lost.has(id)) this.abandon(id);
      else if (entry && !entry.abandoned) this.armFence(entry, nowMs + this.options.leaseMs);
    }
  }

  /** Stop a run without writing its outcome (the database already moved it on). */
  abandon(runId: number): void {
    const entry = this.inFlight.get(runId);
    if (!entry) return;
    entry.abandoned = true;
    entry.controller.abort();
  }

  /** Waits until every started attempt has finished executing (outcomes still to flush). */
  async waitForExecutions(timeoutMs: number): Promise<boolean> {
    const all = Promise.all([...this.inFlight.values()].map((e) => e.done)).then(() => true);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      return await Promise.race([all, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Shutdown after the drain timeout: stop what still runs (process groups killed), then hand the
   * runs back so another replica starts them at once. Kill first: releasing first could let a
   * second attempt start while ours is still alive.
   */
  async releaseUnfinished(): Promise<number> {
    const unfinished = [...this.inFlight.values()];
    for (const entry of unfinished) {
      entry.abandoned = true;
      entry.controller.abort();
    }
    await Promise.all(unfinished.map((e) => e.done));
    const ids = unfinished.map((e) => e.run.id);
    const released = await this.database.db.transaction(async (tx) => {
      const count = await releaseLeases(tx, this.options.runnerId, ids, new Date(this.options.clock.nowMs()));
      if (count > 0) await notifyRunsQueued(tx);
      return count;
    });
    for (const id of ids) this.inFlight.delete(id);
    return released;
  }
}

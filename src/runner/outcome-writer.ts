/**
 * A worker's writes after the claim, buffered and written together: the outcomes of ended
 * attempts and the starts of jobs taken from the local queue (their attempts CLAIMED → RUNNING).
 * A transaction costs a few milliseconds whatever its size, so one per batch, holding whatever
 * ended meanwhile, is what lets a runner complete thousands of short jobs a second. In the same
 * transaction: QUEUE_NEW successors promoted, the DEPENDENCY runs of upstreams that succeeded
 * (dependency-runs.ts: they commit with the SUCCESS or not at all), and one NOTIFY if runs became
 * claimable.
 */
import { preferIndexScans, type Database } from '../db/client.js';
import { notifyRunsQueued } from '../db/scheduler-queries.js';
import { completeAttempts, markAttemptsStarted, promotePendingRuns, type AttemptCompletion } from '../db/worker-queries.js';
import { saveFinalProgress } from '../db/run-progress-queries.js';
import type { RunStatus } from '../db/run-vocabulary.js';
import { createDependencyRuns } from './dependency-runs.js';

export interface JobStart {
  runId: number;
  /** ClaimedRun.slot. */
  slot: string;
  attempt: number;
  startedAtMs: number;
}

export class OutcomeWriter<Item> {
  private outcomes: Array<{ item: Item; completion: AttemptCompletion }> = [];
  private starts: Array<() => JobStart | undefined> = [];
  private writing: Promise<unknown> | undefined;

  constructor(
    private readonly database: Database,
    private readonly runnerId: string,
  ) {}

  /** An attempt's outcome, to be written only while this runner still holds its lease. */
  addOutcome(item: Item, completion: AttemptCompletion): void {
    this.outcomes.push({ item, completion });
  }

  /**
   * A job that started from the local queue. `start` is read at write time: undefined when the
   * job has ended meanwhile (its outcome carries its start) or was abandoned.
   */
  addStart(start: () => JobStart | undefined): void {
    this.starts.push(start);
  }

  /** Outcomes and job starts waiting to be written. */
  get pending(): number {
    return this.outcomes.length + this.starts.length;
  }

  /**
   * Writes everything buffered in one transaction; returns the items whose outcome was in it
   * (written, with the run's status, or refused because the lease had moved on, with null: either
   * way, done with). On failure nothing was written and everything stays buffered for the next try.
   */
  async write(nowMs: number): Promise<Array<{ item: Item; runStatus: RunStatus | null }>> {
    while (this.writing) await this.writing;
    const outcomes = this.outcomes;
    const starts = this.starts;
    const startRows = starts.map((start) => start()).filter((s): s is JobStart => s !== undefined);
    if (outcomes.length === 0 && startRows.length === 0) {
      this.starts = [];
      return [];
    }
    this.outcomes = [];
    this.starts = [];
    let written = new Map<number, RunStatus>();
    const work = this.database.db.transaction(async (tx) => {
      await preferIndexScans(tx);
      await markAttemptsStarted(tx, this.runnerId, startRows.map((s) => ({ runId: s.runId, slot: s.slot, attempt: s.attempt, startedAt: new Date(s.startedAtMs) })));
      const done = await completeAttempts(tx, this.runnerId, outcomes.map((o) => o.completion), new Date(nowMs));
      written = new Map(done.map((d) => [d.runId, d.status as RunStatus]));
      // What jobs reported (SPEC §8a), for the runs whose outcome the lease let us write.
      const progress = outcomes.flatMap((o) => (o.completion.progress && written.has(o.completion.runId) ? [o.completion.progress] : []));
      await saveFinalProgress(tx, progress, new Date(nowMs));
      // QUEUE_NEW successors: only schedules that have PENDING runs need the promotion query.
      const ended = done.filter((d) => d.status !== 'RETRY_PENDING' && d.hasPending).map((d) => d.scheduleId);
      const promoted = ended.length > 0 ? await promotePendingRuns(tx, [...new Set(ended)]) : 0;
      // Only successes of schedules something runs after (completeAttempts' hasDependents); the
      // function decides the rest (active, enabled, joins).
      const dependencies = await createDependencyRuns(tx, done.filter((d) => d.hasDependents).map((d) => d.runId), new Date(nowMs));
      if (promoted > 0 || dependencies.queued > 0 || done.some((d) => d.status === 'RETRY_PENDING')) await notifyRunsQueued(tx);
    });
    this.writing = work;
    try {
      await work;
    } catch (error) {
      // Nothing was written: keep it all for the next try (the database settles duplicates).
      this.outcomes = [...outcomes, ...this.outcomes];
      this.starts = [...starts, ...this.starts];
      throw error;
    } finally {
      this.writing = undefined;
    }
    return outcomes.map((o) => ({ item: o.item, runStatus: written.get(o.completion.runId) ?? null }));
  }
}

/**
 * What `plan` reads from the database, read on a worker thread (stored-state-worker.ts) so that it
 * overlaps compiling the manifests: opening the database (embedded PGlite starts PostgreSQL in
 * WebAssembly, ~0.5 s of CPU) and listing 10,000 schedules no longer wait for the compile, and
 * PGlite's memory is freed when the worker exits, while the main thread diffs. Same reads, same
 * snapshot as `loadStoredState`; only the thread differs. The worker also does the plan's
 * repository-wide sums that need no compiled definition (the stored totals, the manifests'
 * herds from their timings), in time it would otherwise wait. It runs compiled JavaScript (dist/),
 * as the CLI does.
 */
import { Worker } from 'node:worker_threads';
import type { Definition } from '../compile/definition.js';
import type { Engine } from '../db/client.js';
import type { BuildPlanInput } from '../plan/build-plan.js';
import type { HerdColumns, SharedInstants, TimingTally } from '../plan/repository-totals.js';
import type { RunHistory, StoredScheduleSummary } from '../compile/stored-schedule.js';
import type { DatabaseChoice } from './database.js';

export type StoredStateRequest = { kind: 'herds'; columns: HerdColumns } | { kind: 'details'; definitionIds: number[]; archiveIds: number[]; herdNames: string[] } | { kind: 'cancel' };
export type StoredStateReply =
  | { kind: 'summaries'; engine: Engine; current: StoredScheduleSummary[] }
  | { kind: 'tally'; tally: TimingTally }
  | { kind: 'details'; storedDefinitions: Map<number, Definition>; history: Map<number, RunHistory>; storedPolicy: BuildPlanInput['storedPolicy']; storedRiskAcceptances: BuildPlanInput['storedRiskAcceptances']; herds: Map<string, SharedInstants> }
  | { kind: 'error'; error: unknown; details?: ErrorDetails };

/** The name and primitive fields of each level of an error's cause chain, outermost first. */
export type ErrorDetails = Array<Record<string, string | number | boolean>>;

/** Puts back what cloning the error dropped (see ErrorDetails). */
function restoreDetails(error: unknown, details: ErrorDetails): unknown {
  let level = error;
  for (const fields of details) {
    if (!(level instanceof Error)) break;
    Object.assign(level, fields);
    level = level.cause;
  }
  return error;
}

export type StoredState = Pick<BuildPlanInput, 'current' | 'storedDefinitions' | 'history' | 'storedPolicy' | 'storedRiskAcceptances'> & { engine: Engine };

export class StoredStateReader {
  private readonly worker: Worker;
  private readonly replies: Promise<StoredStateReply>[] = [];
  private readonly exited: Promise<void>;

  /** Starts opening the database and listing the stored schedules at once; their totals are tallied at `nowMs`. */
  constructor(choice: DatabaseChoice, nowMs: number) {
    // A small young generation: the worker's garbage is short-lived protocol buffers, and the
    // default (up to 48 MB more for a second isolate) added ~30 MB to plan's peak memory.
    this.worker = new Worker(new URL('./stored-state-worker.js', import.meta.url), { workerData: { choice, nowMs }, resourceLimits: { maxYoungGenerationSizeMb: 4 } });
    let settle!: (reply: StoredStateReply) => void;
    const expect = () => this.replies.push(new Promise((resolve) => (settle = resolve)));
    expect();
    this.worker.on('message', (reply: StoredStateReply) => {
      const current = settle;
      expect();
      current(reply);
    });
    // A crash or an exit before the reply is an error reply: the caller never waits forever.
    this.worker.on('error', (error) => settle({ kind: 'error', error }));
    this.exited = new Promise((resolve) => {
      this.worker.on('exit', (code) => {
        settle({ kind: 'error', error: new Error(`the database reader stopped (exit code ${code}) before replying`) });
        resolve();
      });
    });
  }

  private async nextReply(): Promise<Exclude<StoredStateReply, { kind: 'error' }>> {
    const reply = await this.replies.shift()!;
    if (reply.kind === 'error') throw restoreDetails(reply.error, reply.details ?? []);
    return reply;
  }

  /**
   * The stored schedules, listed while the caller compiled. `readStoredTally` and (after
   * `requestHerds` and `requestDetails`) `readDetails` follow.
   */
  async readSummaries(): Promise<{ engine: Engine; current: StoredScheduleSummary[] }> {
    const summaries = await this.nextReply();
    if (summaries.kind !== 'summaries') throw new Error(`the database reader replied ${summaries.kind} before the summaries`);
    return { engine: summaries.engine, current: summaries.current };
  }

  /**
   * The manifests' timings, for their herds (findSharedInstantsInColumns), found after the stored
   * tally: as early as possible, before `requestDetails` names the schedules whose herds it wants.
   */
  requestHerds(columns: HerdColumns): void {
    this.worker.postMessage({ kind: 'herds', columns } satisfies StoredStateRequest);
  }

  /**
   * Asks for what the plan reads beyond the summaries (see findStoredToLoad) and for the herds of
   * the named manifests (the ones it changes; sending every herd cost more than finding it);
   * `readDetails` returns both.
   */
  requestDetails(toLoad: { definitionIds: number[]; archiveIds: number[] }, herdNames: string[]): void {
    this.worker.postMessage({ kind: 'details', ...toLoad, herdNames } satisfies StoredStateRequest);
  }

  /** The stored schedules' totals (tallyStored of the summaries), tallied by the worker after sending them. */
  async readStoredTally(): Promise<TimingTally> {
    const reply = await this.nextReply();
    if (reply.kind !== 'tally') throw new Error(`the database reader replied ${reply.kind} instead of the stored totals`);
    return reply.tally;
  }

  async readDetails(): Promise<Pick<StoredState, 'storedDefinitions' | 'history' | 'storedPolicy' | 'storedRiskAcceptances'> & { herds: Map<string, SharedInstants> }> {
    const details = await this.nextReply();
    if (details.kind !== 'details') throw new Error(`the database reader replied ${details.kind} instead of the details`);
    return { storedDefinitions: details.storedDefinitions, history: details.history, storedPolicy: details.storedPolicy, storedRiskAcceptances: details.storedRiskAcceptances, herds: details.herds };
  }

  /**
   * Resolves when the worker has closed the database and exited, its memory (PGlite's included)
   * freed. Its teardown takes ~0.15 s after the details, and the caller need not wait for it to plan.
   */
  async stopped(): Promise<void> {
    await this.exited;
  }

  /** When the compile failed: the worker rolls back, closes the database and exits. */
  async cancel(): Promise<void> {
    this.worker.postMessage({ kind: 'cancel' } satisfies StoredStateRequest);
    await this.exited;
  }
}

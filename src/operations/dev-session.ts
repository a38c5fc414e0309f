/**
 * `cronform dev`: the newcomer's one command. Embedded PGlite (migrated automatically, owned by
 * this process and served to the other cronform commands), the manifests in `dir` planned and
 * applied, a runner in the same process, and a re-plan + apply whenever a manifest changes.
 * Invalid manifests are reported and leave the database as it was.
 */
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { Database } from '../db/client.js';
import { migrateDatabase, readSchemaStatus } from '../db/migrate.js';
import { planHasChanges, type Plan } from '../plan/plan-types.js';
import { Runner, type RunnerOptions } from '../runner/runner.js';
import type { Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
import { applyPlan } from './apply.js';
import { describeApplied, describePlanErrors, renderNextRuns } from './dev-report.js';
import { describeAddress, serveEmbeddedDatabase } from './embedded-database.js';
import { loadDesired, planAgainstDatabase } from './plan.js';
import { readScheduleStatus } from './runs/schedule-status.js';

/** Editors write a file in several steps (temp file, rename, chmod): re-plan once the burst settles. */
const SETTLE_MS = 300;

export interface DevSessionOptions extends Omit<RunnerOptions, 'clock' | 'logger'> {
  dir: string;
  cwd: string;
  clock: Clock;
  logger: Logger;
  /** A line for the person at the terminal. */
  print: (line: string) => void;
  /** Render a plan that has errors, with its context. */
  showPlan?: (plan: Plan) => void;
  settleMs?: number;
}

/** Runs `step`, printing `label …` first and `label: done (1.2 s)` after. */
async function timed<T>(print: (line: string) => void, clock: Clock, label: string, step: () => Promise<T>, done: (value: T) => string = () => 'done'): Promise<T> {
  print(`${label} …`);
  const startMs = clock.nowMs();
  const value = await step();
  print(`${label}: ${done(value)} (${((clock.nowMs() - startMs) / 1000).toFixed(1)} s)`);
  return value;
}

/** Opens (owns and serves) the embedded database in `dataDir` and migrates it, saying so as it goes. */
export async function openDevDatabase(dataDir: string, options: { clock: Clock; print: (line: string) => void; command?: string }): Promise<Database> {
  const { print, clock } = options;
  const served = await timed(print, clock, `opening the embedded database ${dataDir}`, () => serveEmbeddedDatabase(dataDir, options.command ?? 'cronform dev'));
  try {
    const status = await readSchemaStatus(served.database);
    if (!status.upToDate) await timed(print, clock, `migrating (${status.pending.length} migration${status.pending.length === 1 ? '' : 's'})`, () => migrateDatabase(served.database));
  } catch (error) {
    await served.database.close();
    throw error;
  }
  print(`serving it to other cronform commands at ${describeAddress(served.address)}`);
  return served.database;
}

export class DevSession {
  private runner: Runner | undefined;
  private watcher: FSWatcher | undefined;
  private debounce: NodeJS.Timeout | undefined;
  private syncing: Promise<void> = Promise.resolve();
  private readonly syncedListeners = new Set<() => void>();

  constructor(
    private readonly database: Database,
    private readonly options: DevSessionOptions,
  ) {}

  /** Plan and apply the manifests now; errors are shown, nothing is written. */
  async sync(): Promise<Plan> {
    const { print, clock } = this.options;
    const nowMs = clock.nowMs();
    const desired = await loadDesired({ dir: this.options.dir, cwd: this.options.cwd, nowMs });
    const plan = await planAgainstDatabase(this.database, desired, { nowMs });
    if (plan.errors.length > 0) {
      // The rendered plan carries each error's hint; without a renderer, one line per error.
      if (this.options.showPlan) this.options.showPlan(plan);
      else for (const line of describePlanErrors(plan)) print(line);
      print(`not applied: ${plan.errors.length} error${plan.errors.length === 1 ? '' : 's'}; the database is unchanged. Fix and save to try again.`);
      return plan;
    }
    if (!planHasChanges(plan)) {
      print('no changes');
      return plan;
    }
    const result = await applyPlan(this.database, plan, { author: { actor: 'cronform dev', reason: 'manifests changed', gitSha: null }, clock, lockTimeoutMs: 10_000 });
    for (const line of describeApplied(plan, result)) print(line);
    this.runner?.wake();
    await this.printNextRuns();
    return plan;
  }

  async printNextRuns(): Promise<void> {
    const nowMs = this.options.clock.nowMs();
    for (const line of renderNextRuns(await readScheduleStatus(this.database, { nowMs }), nowMs)) this.options.print(line);
  }

  /** The runner of the session, once started. */
  get currentRunner(): Runner | undefined {
    return this.runner;
  }

  async start(): Promise<void> {
    const { print, clock } = this.options;
    const first = await timed(print, clock, `applying ${this.options.dir}/`, () => this.sync(), (plan) => `${plan.changes.length} change${plan.changes.length === 1 ? '' : 's'}${plan.errors.length ? `, ${plan.errors.length} error${plan.errors.length === 1 ? '' : 's'}` : ''}`);
    if (!planHasChanges(first) || first.errors.length > 0) await this.printNextRuns();
    await timed(print, clock, 'starting the runner', async () => {
      // A fresh clone has no secrets: its jobs that need one end SKIPPED, naming what to set,
      // instead of FAILED as on a real runner (README, Quick start).
      this.runner = new Runner(this.database, { missingSecrets: 'skip', ...this.options, logger: this.options.logger });
      await this.runner.start();
    });
    await this.watch();
    print(`watching ${this.options.dir}/ — Ctrl-C to stop`);
  }

  /** Resolves after the next re-plan triggered by the watch (for tests and tools). */
  nextSync(): Promise<void> {
    return new Promise((resolve) => {
      const listener = () => {
        this.syncedListeners.delete(listener);
        resolve();
      };
      this.syncedListeners.add(listener);
    });
  }

  /**
   * chokidar watches the directory, not file handles: a save that writes a temp file and renames
   * it over the manifest (vim, JetBrains, `sed -i`) is a change of the name, and new files and
   * deletions are seen as well. Only YAML files count.
   */
  private async watch(): Promise<void> {
    const root = path.resolve(this.options.cwd, this.options.dir);
    this.watcher = watch(root, { ignoreInitial: true, ignored: (file, stats) => Boolean(stats?.isFile()) && !/\.ya?ml$/i.test(file) });
    this.watcher.on('all', (event, file) => {
      if ((event === 'addDir' || event === 'unlinkDir') && file !== root) return;
      if ((event === 'add' || event === 'change' || event === 'unlink') && !/\.ya?ml$/i.test(file)) return;
      clearTimeout(this.debounce);
      this.debounce = setTimeout(() => this.resync(), this.options.settleMs ?? SETTLE_MS);
    });
    this.watcher.on('error', (error) => this.options.logger.error('watching the manifests failed', { error: (error as Error).message }));
    await new Promise<void>((resolve) => this.watcher!.once('ready', resolve));
  }

  private resync(): void {
    this.syncing = this.syncing
      .then(() => this.sync().then(() => undefined))
      .catch((error: unknown) => this.options.print(`re-plan failed: ${(error as Error).message}`))
      .finally(() => {
        for (const listener of [...this.syncedListeners]) listener();
      });
  }

  async stop(): Promise<void> {
    clearTimeout(this.debounce);
    await this.watcher?.close();
    await this.syncing;
    await this.runner?.stop();
  }
}

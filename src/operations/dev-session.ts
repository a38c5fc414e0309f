/**
 * `cronform dev`: the newcomer's one command. Embedded PGlite (migrated automatically), the
 * manifests in `dir` planned and applied, a runner in the same process, and a re-plan + apply
 * whenever a manifest changes. Invalid manifests are reported and leave the database as it was.
 */
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { Database } from '../db/client.js';
import { planHasChanges, type Plan } from '../plan/plan-types.js';
import { Runner, type RunnerOptions } from '../runner/runner.js';
import type { Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
import { applyPlan } from './apply.js';
import { loadDesired, planAgainstDatabase } from './plan.js';

export interface DevSessionOptions extends Omit<RunnerOptions, 'clock' | 'logger'> {
  dir: string;
  cwd: string;
  clock: Clock;
  logger: Logger;
  /** Render a plan for the person at the terminal. */
  showPlan: (plan: Plan) => void;
}

export class DevSession {
  private runner: Runner | undefined;
  private watcher: FSWatcher | undefined;
  private debounce: NodeJS.Timeout | undefined;
  private syncing: Promise<void> = Promise.resolve();

  constructor(
    private readonly database: Database,
    private readonly options: DevSessionOptions,
  ) {}

  /** Plan and apply the manifests now; errors are shown, nothing is written. */
  async sync(): Promise<Plan> {
    const nowMs = this.options.clock.nowMs();
    const desired = await loadDesired({ dir: this.options.dir, cwd: this.options.cwd, nowMs });
    const plan = await planAgainstDatabase(this.database, desired, { nowMs });
    this.options.showPlan(plan);
    if (plan.errors.length === 0 && planHasChanges(plan)) {
      await applyPlan(this.database, plan, { author: { actor: 'cronform dev', reason: 'manifests changed', gitSha: null }, clock: this.options.clock, lockTimeoutMs: 10_000 });
      this.runner?.wake();
    }
    return plan;
  }

  /** The runner of the session, once started. */
  get currentRunner(): Runner | undefined {
    return this.runner;
  }

  async start(): Promise<void> {
    await this.sync();
    this.runner = new Runner(this.database, { ...this.options, logger: this.options.logger });
    await this.runner.start();
    this.watcher = watch(path.resolve(this.options.cwd, this.options.dir), { recursive: true }, (_event, file) => {
      if (file && !/\.ya?ml$/i.test(String(file))) return;
      clearTimeout(this.debounce);
      // Editors write files in several steps; wait for the burst to settle.
      this.debounce = setTimeout(() => {
        this.syncing = this.syncing.then(() => this.sync().then(() => undefined)).catch((error: unknown) => this.options.logger.error('re-plan failed', { error: (error as Error).message }));
      }, 300);
    });
  }

  async stop(): Promise<void> {
    clearTimeout(this.debounce);
    this.watcher?.close();
    await this.syncing;
    await this.runner?.stop();
  }
}

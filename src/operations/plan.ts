/**
 * Use case: compile manifests and diff them against the database (or a git ref) → Plan.
 */
import { compileSources, type CompileResult } from '../compile/compile-sources.js';
import type { Database } from '../db/client.js';
import { digestOf } from '../compile/digest.js';
import { buildPlan, collectRiskAcceptances, findStoredToLoad, pairSchedules, storablePolicy, storedToLoad, type BuildPlanInput } from '../plan/build-plan.js';
import { herdColumnsOf } from '../plan/repository-totals.js';
import type { Plan } from '../plan/plan-types.js';
import { definitionsById, type StoredSchedule } from '../compile/stored-schedule.js';
import type { DatabaseChoice } from './database.js';
import { explainMissingGrant } from './missing-grant-error.js';
import { StoredStateReader } from './stored-state-reader.js';
import { loadSourcesAtRef } from './git-ref.js';
import { validateManifests } from './validate.js';
import { DiagnosticCodes } from '../shared/diagnostic-codes.js';

export interface PlanOptions {
  dir: string;
  cwd: string;
  nowMs: number;
  againstRef?: string | undefined;
  allowMassArchive?: boolean;
  database: DatabaseChoice;
}

/**
 * The state at a git ref, shaped like the stored one: schedules (ids are positions, versions
 * unknown = 0), and the Policy and risk acceptances in force there, which judge the change as
 * the database's would.
 */
function storedFromRef(ref: string, dir: string, cwd: string, nowMs: number): Pick<BuildPlanInput, 'current' | 'storedDefinitions' | 'history' | 'storedPolicy' | 'storedRiskAcceptances'> {
  const compiled = compileSources(loadSourcesAtRef(ref, dir, cwd), nowMs);
  const policy = storablePolicy(compiled.policy);
  const acceptances = collectRiskAcceptances(compiled.schedules);
  const current: StoredSchedule[] = compiled.schedules.map((schedule, index) => ({
    id: index + 1,
    name: schedule.definition.name,
    version: 0,
    digest: schedule.digest,
    timing: schedule.definition,
    definition: schedule.definition,
    status: 'ACTIVE',
    managed: true,
    paused: null,
    versionDigest: digestOf(schedule.definition),
    nextRunAt: null,
  }));
  return {
    current,
    storedDefinitions: definitionsById(current),
    history: new Map(),
    storedPolicy: { policy, digest: digestOf(policy) },
    storedRiskAcceptances: { acceptances, digest: digestOf(acceptances) },
  };
}

export async function planChanges(options: PlanOptions): Promise<Plan> {
  try {
    return await planChangesAgainst(options);
  } catch (error) {
    throw explainMissingGrant(error, 'plan');
  }
}

async function planChangesAgainst(options: PlanOptions): Promise<Plan> {
  if (options.againstRef) {
    const desired = await loadDesired(options);
    const stored = storedFromRef(options.againstRef, options.dir, options.cwd, options.nowMs);
    return buildPlan({ desired, nowMs: options.nowMs, allowMassArchive: options.allowMassArchive ?? false, ...stored, against: { kind: 'git-ref', ref: options.againstRef } });
  }
  // The worker thread runs compiled JavaScript: run from the TypeScript sources (tests, tsx), plan
  // reads on this thread instead.
  if (import.meta.url.endsWith('.ts')) {
    const desired = await loadDesired(options);
    const { withDatabase } = await import('./database.js');
    return withDatabase(options.database, (database) => planAgainstDatabase(database, desired, options));
  }
  // On another thread while this one compiles the manifests: opening the database (embedded PGlite
  // starts PostgreSQL in WebAssembly, ~0.5 s of CPU), listing 10,000 schedules and tallying them.
  const reader = new StoredStateReader(options.database, options.nowMs);
  try {
    return await planWhileReading(reader, await loadDesired(options), options);
  } catch (error) {
    // The worker rolls back and exits (at once if it already stopped): the process must not wait on it.
    await reader.cancel();
    throw error;
  }
}

/**
 * The plan's work split between the threads: this one compiles, digests (pairing compares the
 * digests) and pairs; the worker reads the database, tallies the stored totals and finds the
 * manifests' herds from their timings meanwhile. Same plan as planAgainstDatabase.
 */
async function planWhileReading(reader: StoredStateReader, desired: CompileResult, options: PlanOptions): Promise<Plan> {
  const { nowMs } = options;
  reader.requestHerds(herdColumnsOf(desired.schedules));
  for (const schedule of desired.schedules) void schedule.digest;
  const { engine, current } = await reader.readSummaries();
  const pairings = pairSchedules(desired.schedules, current);
  reader.requestDetails(storedToLoad(pairings), pairings.flatMap((p) => (p.action !== 'unchanged' && p.desired ? [p.desired.definition.name] : [])));
  const storedTally = await reader.readStoredTally();
  const { herds: desiredHerds, ...details } = await reader.readDetails();
  const plan = buildPlan({ desired, current, ...details, nowMs, allowMassArchive: options.allowMassArchive ?? false, against: { kind: 'database', engine }, precomputed: { pairings, desiredHerds, storedTally } });
  // The database is closed before the caller moves on, as withDatabase does; the worker's teardown overlaps the diff.
  await reader.stopped();
  return plan;
}

export async function planAgainstDatabase(database: Database, desired: CompileResult, options: Pick<PlanOptions, 'nowMs' | 'allowMassArchive'>): Promise<Plan> {
  const stored = await loadStoredState(database, desired, options);
  return buildPlan({ desired, nowMs: options.nowMs, allowMassArchive: options.allowMassArchive ?? false, ...stored, against: { kind: 'database', engine: database.engine } });
}

/**
 * What buildPlan needs from the database, read in one snapshot: the definitions are read after the
 * summaries and must be of the same versions. The statements (and drizzle with them) load on first
 * use: the CLI's plan reads on its worker thread, and ~60 ms of imports stay off this thread.
 */
export async function loadStoredState(database: Database, desired: CompileResult, options: Pick<PlanOptions, 'nowMs'>): Promise<Pick<BuildPlanInput, 'current' | 'storedDefinitions' | 'history' | 'storedPolicy' | 'storedRiskAcceptances'>> {
  const { listStoredScheduleSummaries, loadDefinitions, loadRunHistory } = await import('../db/schedule-queries.js');
  const { readStoredPolicy, readStoredRiskAcceptances } = await import('../db/settings-queries.js');
  return database.db.transaction(
    async (tx) => {
      const current = await listStoredScheduleSummaries(tx);
      const { definitionIds, archiveIds } = findStoredToLoad(desired.schedules, current);
      const storedDefinitions = await loadDefinitions(tx, definitionIds);
      const history = await loadRunHistory(tx, archiveIds, options.nowMs);
      return { current, storedDefinitions, history, storedPolicy: await readStoredPolicy(tx), storedRiskAcceptances: await readStoredRiskAcceptances(tx) };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** Validate the manifests in `dir` for planning (CF009 is dropped under --allow-mass-archive). */
export async function loadDesired(options: Pick<PlanOptions, 'dir' | 'cwd' | 'nowMs' | 'allowMassArchive'>): Promise<CompileResult> {
  const validated = await validateManifests([options.dir], { cwd: options.cwd, nowMs: options.nowMs });
  // With --allow-mass-archive an empty directory is a deliberate "archive everything".
  return options.allowMassArchive ? { ...validated, diagnostics: validated.diagnostics.filter((d) => d.code !== DiagnosticCodes.NO_MANIFESTS) } : validated;
}

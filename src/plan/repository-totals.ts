/**
 * The repository-wide figures of a plan, one side at a time: what the manifests alone decide (runs
 * per day, peak runs per minute, thundering herds) and what the stored schedules alone decide (the
 * same totals before the change). Neither needs the other side, so `plan` computes the first while
 * the database is still being read and the second while the changed definitions are. Pure.
 */
import type { CompileResult } from '../compile/compile-sources.js';
import { averageRunsPerDay, computeMinuteLoad, findSharedInstants, type DefinitionTiming } from './figures.js';
import type { RiskInput } from './risk.js';
import type { StoredScheduleSummary } from './stored-schedule.js';

export type SharedInstants = NonNullable<RiskInput['sharedInstants']>;

export interface RepositoryTotals {
  runsPerDay: number;
  peakRunsPerMinute: number;
}

export interface DesiredTotals extends RepositoryTotals {
  /** Each schedule's herds, by name (see indexSharedInstants). */
  sharedInstantsByName: Map<string, SharedInstants>;
}

/**
 * The shared instants each schedule fires at, in findSharedInstants' order: risk only looks at a
 * change's own herds (RiskInput.sharedInstants), and 1,000 changes scanning every herd of 10,000
 * schedules would be quadratic.
 */
export function indexSharedInstants(sharedInstants: SharedInstants): Map<string, SharedInstants> {
  const byName = new Map<string, SharedInstants>();
  for (const shared of sharedInstants) {
    for (const name of shared.names) {
      const herds = byName.get(name);
      if (herds) herds.push(shared);
      else byName.set(name, [shared]);
    }
  }
  return byName;
}

function sumRunsPerDay(definitions: DefinitionTiming[], nowMs: number): number {
  let total = 0;
  for (const definition of definitions) if (definition.enabled) total += averageRunsPerDay(definition, nowMs);
  return Math.round(total * 100) / 100;
}

export function computeTotals(definitions: DefinitionTiming[], nowMs: number): RepositoryTotals {
  return { runsPerDay: sumRunsPerDay(definitions, nowMs), peakRunsPerMinute: computeMinuteLoad(definitions, nowMs).peakRunsPerMinute };
}

/** The timings of the stored schedules that fire today: archived ones do not. */
export function activeTimings(current: StoredScheduleSummary[]): DefinitionTiming[] {
  return current.filter((s) => s.status === 'ACTIVE').map((s) => s.timing);
}

export function computeStoredTotals(current: StoredScheduleSummary[], nowMs: number): RepositoryTotals {
  return computeTotals(activeTimings(current), nowMs);
}

/** The herds of the manifests' schedules, by name. */
export function findDesiredSharedInstants(desired: CompileResult, nowMs: number): Map<string, SharedInstants> {
  return indexSharedInstants(findSharedInstants(desired.schedules.map((s) => ({ name: s.definition.name, def: s.definition })), nowMs));
}

export function computeDesiredTotals(desired: CompileResult, nowMs: number): DesiredTotals {
  return { ...computeTotals(desired.schedules.map((s) => s.definition), nowMs), sharedInstantsByName: findDesiredSharedInstants(desired, nowMs) };
}

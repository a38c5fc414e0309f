/**
 * The repository-wide figures of a plan: runs per day and peak runs per minute over all schedules
 * before and after the change, and the thundering herds of the manifests' schedules. Pure.
 *
 * The totals are kept as a tally of integers (runs in the runs-per-day window, slots per UTC
 * minute), so the totals after a change are the stored ones adjusted by the schedules the plan
 * changes instead of a second pass over every schedule, exactly: with 10,000 schedules and 10%
 * changed that is a tenth of the work. `plan` tallies the stored side while the database is
 * still being read, on the thread that reads it.
 */
import type { CompiledSchedule, Definition, DefinitionTiming } from '../compile/definition.js';
import type { StoredScheduleSummary } from '../compile/stored-schedule.js';
import { addMinuteLoad, emptyMinuteLoad, findSharedInstants, peakOfMinuteLoad, sameTiming, type MinuteLoadTally } from './figures.js';
import type { RiskInput } from './risk.js';
import { RUNS_PER_DAY_WINDOW_DAYS } from '../time/runs-per-day.js';
import { runsInWindow } from '../time/timing-cache.js';

export type SharedInstants = NonNullable<RiskInput['sharedInstants']>;

export interface RepositoryTotals {
  runsPerDay: number;
  peakRunsPerMinute: number;
}

/** The totals of a set of schedules at `nowMs`, in a form that schedules can be added to and taken out of. */
export interface TimingTally {
  nowMs: number;
  /** Runs of all enabled schedules in the RUNS_PER_DAY_WINDOW_DAYS local days from `nowMs`. */
  windowRuns: number;
  minuteLoad: MinuteLoadTally;
}

function emptyTally(nowMs: number): TimingTally {
  return { nowMs, windowRuns: 0, minuteLoad: emptyMinuteLoad(nowMs) };
}

/** Adds (sign 1) or takes out (sign -1) one schedule; a disabled one counts for nothing. */
function addToTally(tally: TimingTally, def: DefinitionTiming, sign: 1 | -1 = 1): void {
  if (!def.enabled) return;
  tally.windowRuns += sign * runsInWindow(def, tally.nowMs);
  addMinuteLoad(tally.minuteLoad, def, sign);
}

export function tallyTimings(definitions: Iterable<DefinitionTiming>, nowMs: number): TimingTally {
  const tally = emptyTally(nowMs);
  for (const definition of definitions) addToTally(tally, definition);
  return tally;
}

/** Runs per day is the window's mean, rounded to hundredths. */
export function totalsOf(tally: TimingTally): RepositoryTotals {
  return { runsPerDay: Math.round((tally.windowRuns / RUNS_PER_DAY_WINDOW_DAYS) * 100) / 100, peakRunsPerMinute: peakOfMinuteLoad(tally.minuteLoad).peakRunsPerMinute };
}

/** The timings of the stored schedules that fire today: archived ones do not. */
function activeTimings(current: StoredScheduleSummary[]): DefinitionTiming[] {
  return current.filter((s) => s.status === 'ACTIVE').map((s) => s.timing);
}

export function tallyStored(current: StoredScheduleSummary[], nowMs: number): TimingTally {
  return tallyTimings(activeTimings(current), nowMs);
}

/**
 * The tally of the manifests' schedules, from the tally of the stored ones (`before`, of the same
 * `current`): every active stored schedule that is not paired with a manifest of the same timing
 * is taken out, and every manifest not paired with such a stored schedule is added. Timings are
 * compared rather than trusting an "unchanged" pairing, so the result is the tally of the
 * manifests whatever the stored digests say. `before` is left as it was.
 */
export function tallyDesired(before: TimingTally, pairings: ReadonlyArray<{ desired: CompiledSchedule | null; stored: StoredScheduleSummary | null }>, current: StoredScheduleSummary[]): TimingTally {
  const tally: TimingTally = { nowMs: before.nowMs, windowRuns: before.windowRuns, minuteLoad: { ...before.minuteLoad, load: before.minuteLoad.load.slice() } };
  const kept = new Set<number>();
  for (const { desired, stored } of pairings) {
    if (!desired) continue;
    if (stored?.status === 'ACTIVE' && !kept.has(stored.id) && sameTiming(stored.timing, desired.definition)) kept.add(stored.id);
    else addToTally(tally, desired.definition);
  }
  for (const stored of current) if (stored.status === 'ACTIVE' && !kept.has(stored.id)) addToTally(tally, stored.timing, -1);
  return tally;
}

/**
 * The shared instants each schedule fires at (findSharedInstants' herds, in its order), each with
 * its size: risk only looks at a change's own herds (RiskInput.sharedInstants), and 1,000 changes
 * scanning every herd of 10,000 schedules would be quadratic. With `only`, just those names.
 */
export function indexSharedInstants(herds: Array<{ instant: string; names: string[] }>, only?: ReadonlySet<string>): Map<string, SharedInstants> {
  const byName = new Map<string, SharedInstants>();
  for (const { instant, names } of herds) {
    const herd = { instant, size: names.length };
    for (const name of names) {
      if (only && !only.has(name)) continue;
      const ofName = byName.get(name);
      if (ofName) ofName.push(herd);
      else byName.set(name, [herd]);
    }
  }
  return byName;
}

/** The herds of the manifests' schedules, by name. */
export function findDesiredSharedInstants(desired: { schedules: CompiledSchedule[] }, nowMs: number): Map<string, SharedInstants> {
  return indexSharedInstants(findSharedInstants(desired.schedules.map((s) => ({ name: s.definition.name, def: s.definition })), nowMs));
}

/**
 * What findSharedInstants reads of each manifest, as columns of primitives: `plan` has another
 * thread find the herds, and 10,000 schedules cross to it as eight arrays far more cheaply than as
 * 10,000 objects.
 */
export interface HerdColumns {
  name: string[];
  cron: Array<string | null>;
  timezone: string[];
  enabled: boolean[];
  jitterMs: number[];
  dayMatch: Array<Definition['dayMatch']>;
  gap: Array<Definition['dst']['gap']>;
  fold: Array<Definition['dst']['fold']>;
}

export function herdColumnsOf(schedules: CompiledSchedule[]): HerdColumns {
  const columns: HerdColumns = { name: [], cron: [], timezone: [], enabled: [], jitterMs: [], dayMatch: [], gap: [], fold: [] };
  for (const { definition } of schedules) {
    columns.name.push(definition.name);
    columns.cron.push(definition.cron);
    columns.timezone.push(definition.timezone);
    columns.enabled.push(definition.enabled);
    columns.jitterMs.push(definition.jitterMs);
    columns.dayMatch.push(definition.dayMatch);
    columns.gap.push(definition.dst.gap);
    columns.fold.push(definition.dst.fold);
  }
  return columns;
}

/** findSharedInstants of the schedules in `columns`: the herds findDesiredSharedInstants indexes. */
export function findSharedInstantsInColumns(columns: HerdColumns, nowMs: number): Array<{ instant: string; names: string[] }> {
  const schedules = columns.name.map((name, index) => ({
    name,
    def: { name, cron: columns.cron[index] ?? null, timezone: columns.timezone[index]!, enabled: columns.enabled[index]!, jitterMs: columns.jitterMs[index]!, dayMatch: columns.dayMatch[index]!, dst: { gap: columns.gap[index]!, fold: columns.fold[index]! } },
  }));
  return findSharedInstants(schedules, nowMs);
}

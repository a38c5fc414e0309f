/**
 * Derived figures of compiled definitions for `plan`: runs per day, peak runs per minute, shortest
 * interval, next slots, and the repo-wide minute load and shared instants. Pure: `nowMs` is an input.
 *
 * A plan of 10,000 schedules asks the same questions of few distinct timings: the per-timing
 * answers come from the timing cache (time/timing-cache.ts), so the repo-wide figures cost one
 * computation per distinct timing, not per schedule.
 */
import type { Definition, DefinitionTiming } from '../compile/definition.js';
import type { ScheduleFigures } from './plan-types.js';
import { MS_PER_DAY, MS_PER_MINUTE } from '../time/civil.js';
import { timesPerDay } from '../time/day-match.js';
import { MINUTES_PER_DAY } from '../time/minute-load.js';
import { nextSlots, slotsBetween } from '../time/slots.js';
import { calendarOf, countSlotsBetween, minIntervalMsOf, minuteLoadOf, runsPerDayOf, timingOf, type Timing } from '../time/timing-cache.js';
import { getZoneRules } from '../time/zone.js';

const NEXT_SLOT_COUNT = 5;
/** A schedule firing more often than this per day is left out of shared-instant detection. */
const SHARED_INSTANT_MAX_RUNS_PER_DAY = 1440;

/** Whether two definitions fire at the same instants: every DefinitionTiming field but the name. */
export function sameTiming(a: DefinitionTiming, b: DefinitionTiming): boolean {
  return a.enabled === b.enabled && a.cron === b.cron && a.timezone === b.timezone && (a.dayMatch ?? null) === (b.dayMatch ?? null) && a.dst.gap === b.dst.gap && a.dst.fold === b.dst.fold;
}

/** What findSharedInstants reads of a definition: its timing, and its jitter (jittered schedules are spread, never a herd). */
export type HerdTiming = DefinitionTiming & Pick<Definition, 'jitterMs'>;

/**
 * Slots missed by an outage of `durationMs` ending at `outageEndMs`, and the runs the misfire policy
 * then creates. Slots older than the grace period are never auto-run, whatever the policy (the
 * runner records them as GRACE_EXCEEDED, MANUAL included); MANUAL runs wait for approval.
 */
export function countCatchUpRuns(def: Definition, outageEndMs: number, durationMs: number): { slots: number; runs: number } {
  const startMs = outageEndMs - durationMs;
  const slots = countSlotsBetween(def, startMs, outageEndMs);
  const eligible = () => countSlotsBetween(def, Math.max(startMs, outageEndMs - def.gracePeriodMs), outageEndMs);
  if (def.misfire === 'SKIP') return { slots, runs: 0 };
  if (def.misfire === 'MANUAL') return { slots, runs: eligible() };
  if (def.misfire === 'RUN_ONCE') return { slots, runs: Math.min(eligible(), 1) };
  return { slots, runs: Math.min(eligible(), def.maxCatchUp) };
}

export function computeFigures(def: Definition, nowMs: number): ScheduleFigures {
  const timing = timingOf(def);
  const { cron } = timing;
  const calendar = calendarOf(timing, def);
  const runsPerDay = runsPerDayOf(timing, def, nowMs);
  const slots = nextSlots(calendar, nowMs, NEXT_SLOT_COUNT);
  return {
    // The window (RUNS_PER_DAY_WINDOW_DAYS from now) misses a cron that fires only in some months
    // (`*/2 * * 3 *` in December: none), so the peak is at least what one firing day holds, as
    // validation's maxRunsPerDay check counts it: a plan must never read such a change as fewer runs.
    runsPerDayPeak: def.cron === null ? runsPerDay.peak : Math.max(runsPerDay.peak, timesPerDay(cron)),
    runsPerDayAverage: runsPerDay.average,
    // All slots of one minute share the minute and differ only in the seconds field (see
    // time/minute-load.ts), and on any ordinary firing day some minute has all of them: the peak is exact.
    peakRunsPerMinute: slots.length > 0 ? cron.seconds.length : 0,
    minIntervalMs: minIntervalMsOf(timing, def),
    nextSlots: slots.map((ms) => new Date(ms).toISOString()),
    nextSlotsLocal: slots.map((ms) => formatLocalSlot(ms, def.timezone)),
  };
}

/**
 * `2026-12-01 19:30:00 +09:00`: the offset keeps a repeated (fold) hour unambiguous. Same text as
 * luxon's `toFormat('yyyy-MM-dd HH:mm:ss ZZ')`, from the zone's offset table instead of an Intl
 * call per slot.
 */
export function formatLocalSlot(ms: number, timezone: string): string {
  const offsetMs = getZoneRules(timezone).offsetAt(ms);
  const wall = new Date(ms + offsetMs).toISOString();
  const offsetMinutes = Math.abs(offsetMs) / MS_PER_MINUTE;
  const offset = `${offsetMs < 0 ? '-' : '+'}${String(Math.floor(offsetMinutes / 60)).padStart(2, '0')}:${String(offsetMinutes % 60).padStart(2, '0')}`;
  return `${wall.slice(0, 10)} ${wall.slice(11, 19)} ${offset}`;
}

/**
 * Slots per UTC minute of the 1,440 minutes starting with the one that contains `startMs`, as an
 * additive tally: `load` per minute plus `everyMinute` (schedules that fire in every minute are
 * a constant, so 10,000 schedules, some per second, cost one pass over each one's firing
 * minutes). Integers, so taking a schedule out (`sign` -1) is exact.
 */
export interface MinuteLoadTally {
  startMs: number;
  load: Int32Array;
  everyMinute: number;
}

export function emptyMinuteLoad(nowMs: number): MinuteLoadTally {
  return { startMs: Math.floor(nowMs / MS_PER_MINUTE) * MS_PER_MINUTE, load: new Int32Array(MINUTES_PER_DAY), everyMinute: 0 };
}

/** Adds (sign 1) or takes out (sign -1) one definition's slots; disabled definitions have none. */
export function addMinuteLoad(tally: MinuteLoadTally, def: DefinitionTiming, sign: 1 | -1 = 1): void {
  if (!def.enabled) return;
  const { startMs, load } = tally;
  const timing = timingOf(def);
  const minutes = minuteLoadOf(timing, def, startMs);
  const step = sign * timing.cron.seconds.length;
  if (minutes.everyMinute) tally.everyMinute += step;
  // An index loop: this runs once, cold, and a cold for-of over a typed array allocates a result per item.
  else for (let index = 0; index < minutes.minuteIndexes.length; index += 1) load[minutes.minuteIndexes[index]!]! += step;
}

export function peakOfMinuteLoad({ startMs, load, everyMinute }: MinuteLoadTally): { peakRunsPerMinute: number; peakMinute: string | null } {
  let peakIndex = 0;
  for (let index = 1; index < MINUTES_PER_DAY; index += 1) if (load[index]! > load[peakIndex]!) peakIndex = index;
  const peak = load[peakIndex]! + everyMinute;
  return { peakRunsPerMinute: peak, peakMinute: peak > 0 ? new Date(startMs + peakIndex * MS_PER_MINUTE).toISOString() : null };
}

/** Slots per UTC minute summed over all enabled schedules, for the 1,440 minutes starting with the one that contains `nowMs`: the busiest. */
export function computeMinuteLoad(defs: DefinitionTiming[], nowMs: number): { peakRunsPerMinute: number; peakMinute: string | null } {
  const tally = emptyMinuteLoad(nowMs);
  for (const def of defs) addMinuteLoad(tally, def);
  return peakOfMinuteLoad(tally);
}

/**
 * Instants in the next 24 hours at which at least `threshold` schedules fire in the same second
 * (a thundering herd). Jittered schedules are left out: their starts are spread. Schedules firing
 * more than 1,440 times a day are left out too: they touch most seconds of the day, so they would
 * join every herd without telling the reader anything new (CF102/CF103 report them), and
 * enumerating them would make this O(86,400) per schedule.
 */
export function findSharedInstants(schedules: Array<{ name: string; def: HerdTiming }>, nowMs: number, threshold = 10): Array<{ instant: string; names: string[] }> {
  // Schedules with the same timing share their slots: enumerate each timing once.
  const byTiming = new Map<Timing, { timing: Timing; def: HerdTiming; names: string[] }>();
  for (const { name, def } of schedules) {
    if (!def.enabled || def.jitterMs > 0) continue;
    const timing = timingOf(def);
    if (timesPerDay(timing.cron) > SHARED_INSTANT_MAX_RUNS_PER_DAY) continue;
    const group = byTiming.get(timing);
    if (group) group.names.push(name);
    else byTiming.set(timing, { timing, def, names: [name] });
  }
  const groups = [...byTiming.values()];
  const groupsByInstant = new Map<number, number[]>();
  groups.forEach(({ timing, def }, group) => {
    for (const slot of slotsBetween(calendarOf(timing, def), nowMs, nowMs + MS_PER_DAY)) {
      const atInstant = groupsByInstant.get(slot);
      if (atInstant) atInstant.push(group);
      else groupsByInstant.set(slot, [group]);
    }
  });
  const sizeOf = (atInstant: number[]) => atInstant.reduce((count, group) => count + groups[group]!.names.length, 0);
  const herds = [...groupsByInstant.entries()].filter(([, atInstant]) => sizeOf(atInstant) >= threshold).sort(([a], [b]) => a - b);
  if (herds.length === 0) return [];
  // Herds can hold thousands of names: sort each by a rank taken from one sort of all names (the
  // same order as sorting the strings themselves), comparing numbers instead of strings.
  const inHerds = [...new Set(herds.flatMap(([, atInstant]) => atInstant))];
  const sortedNames = [...new Set(inHerds.flatMap((group) => groups[group]!.names))].sort();
  const rank = new Map(sortedNames.map((name, index) => [name, index]));
  const ranksOf = new Map(inHerds.map((group) => [group, new Int32Array(groups[group]!.names.map((name) => rank.get(name)!))]));
  return herds.map(([ms, atInstant]) => {
    const ranks = new Int32Array(sizeOf(atInstant));
    let filled = 0;
    for (const group of atInstant) {
      ranks.set(ranksOf.get(group)!, filled);
      filled += groups[group]!.names.length;
    }
    ranks.sort();
    const names = new Array<string>(ranks.length);
    for (let index = 0; index < ranks.length; index += 1) names[index] = sortedNames[ranks[index]!]!;
    return { instant: new Date(ms).toISOString(), names };
  });
}

/**
 * Derived figures of compiled definitions for `plan`: runs per day, peak runs per minute, shortest
 * interval, next slots, and the repo-wide minute load and shared instants. Pure: `nowMs` is an input.
 *
 * Whole-minute arithmetic below relies on one fact: every zone offset and DST shift in use today is
 * a whole number of minutes, so the slots inside one UTC minute are exactly that minute's start plus
 * the cron's seconds values (a gap shift moves a whole minute; a fold repeats a whole minute).
 *
 * A plan of 10,000 schedules asks the same questions of few distinct timings (cron, timezone, dst,
 * dayMatch): parsed crons, calendars and per-timing answers are cached, so the repo-wide figures
 * cost one computation per distinct timing, not per schedule.
 */
import type { Definition } from '../compile/definition.js';
import type { ScheduleFigures } from './plan-types.js';
import { MS_PER_DAY, MS_PER_MINUTE, MS_PER_SECOND } from '../time/civil.js';
import { parseCron, type CronExpression } from '../time/cron-parse.js';
import { timesPerDay } from '../time/day-match.js';
import { minIntervalSeconds } from '../time/interval.js';
import { countRunsPerDay, type RunsPerDay } from '../time/runs-per-day.js';
import { createSlotCalendar, nextSlots, slotsBetween, type SlotCalendar } from '../time/slots.js';
import { getZoneRules } from '../time/zone.js';

const NEXT_SLOT_COUNT = 5;
const MINUTES_PER_DAY = 1440;
/** A schedule firing more often than this per day is left out of shared-instant detection. */
const SHARED_INSTANT_MAX_RUNS_PER_DAY = 1440;

/**
 * The fields of a Definition that decide when it fires: all the repository-wide figures (runs per
 * day, minute load) need, so a plan can load just these for the schedules it does not change.
 */
export type DefinitionTiming = Pick<Definition, 'name' | 'cron' | 'timezone' | 'enabled' | 'dayMatch' | 'dst'>;

/** Whether two definitions fire at the same instants: every DefinitionTiming field but the name. */
export function sameTiming(a: DefinitionTiming, b: DefinitionTiming): boolean {
  return a.enabled === b.enabled && a.cron === b.cron && a.timezone === b.timezone && (a.dayMatch ?? null) === (b.dayMatch ?? null) && a.dst.gap === b.dst.gap && a.dst.fold === b.dst.fold;
}

/** What findSharedInstants reads of a definition: its timing, and its jitter (jittered schedules are spread, never a herd). */
export type HerdTiming = DefinitionTiming & Pick<Definition, 'jitterMs'>;

/**
 * One distinct timing (cron, timezone, dst, dayMatch) and what follows from it, each computed on
 * first use and never mutated after. Answers that depend on `nowMs` keep only the latest instant:
 * a plan asks at one instant, and a runner moving on must not keep every previous answer.
 */
interface Timing {
  readonly gap: Definition['dst']['gap'];
  readonly fold: Definition['dst']['fold'];
  readonly dayMatch: Definition['dayMatch'];
  readonly cron: CronExpression;
  calendar?: SlotCalendar;
  minuteCalendar?: { calendar: SlotCalendar; seconds: number[] };
  minIntervalMs?: number;
  runsPerDay?: { nowMs: number; value: RunsPerDay };
  minuteLoad?: { startMs: number; value: MinuteLoad };
}

type MinuteLoad = { everyMinute: true } | { everyMinute: false; minuteIndexes: Uint16Array };

/**
 * Timings by cron, then timezone, then the few dst/dayMatch variants: looked up by the
 * definition's own strings, without building a key for each of 20,000 definitions. Bounded
 * because the runner is long-lived: past the limit the caches start over, which costs only time.
 */
const timings = new Map<string, Map<string, Timing[]>>();
const TIMING_CACHE_LIMIT = 20_000;
let timingCount = 0;
/** Many timings share an expression (the same cron in other zones). */
const parsedCrons = new Map<string, CronExpression>();

function timingOf(def: DefinitionTiming): Timing {
  const dayMatch = def.dayMatch ?? null;
  const variants = timings.get(def.cron)?.get(def.timezone);
  const known = variants?.find((timing) => timing.gap === def.dst.gap && timing.fold === def.dst.fold && timing.dayMatch === dayMatch);
  if (known) return known;
  if (timingCount >= TIMING_CACHE_LIMIT) {
    timings.clear();
    parsedCrons.clear();
    timingCount = 0;
  }
  const timing: Timing = { gap: def.dst.gap, fold: def.dst.fold, dayMatch, cron: parseDefinitionCron(def) };
  let byZone = timings.get(def.cron);
  if (!byZone) {
    byZone = new Map();
    timings.set(def.cron, byZone);
  }
  byZone.set(def.timezone, [...(byZone.get(def.timezone) ?? []), timing]);
  timingCount += 1;
  return timing;
}

function parseDefinitionCron(def: DefinitionTiming): CronExpression {
  let cron = parsedCrons.get(def.cron);
  if (!cron) {
    const parsed = parseCron(def.cron);
    // Definitions are compiled from validated manifests or read back from the database.
    if (!parsed.ok) throw new Error(`definition ${def.name} has an invalid cron: ${parsed.error.message}`);
    cron = parsed.cron;
    parsedCrons.set(def.cron, cron);
  }
  return cron;
}

function createCalendar(def: DefinitionTiming, cron: CronExpression): SlotCalendar {
  return createSlotCalendar({ cron, timezone: def.timezone, dst: def.dst, dayMatch: def.dayMatch ?? undefined });
}

/*
 * The helpers below take the Timing that `def` resolved to: the repository-wide figures make
 * several passes over 10,000 definitions, and each pass looks a definition's timing up once.
 */

function calendarOf(timing: Timing, def: DefinitionTiming): SlotCalendar {
  timing.calendar ??= createCalendar(def, timing.cron);
  return timing.calendar;
}

export function calendarForDefinition(def: DefinitionTiming): SlotCalendar {
  return calendarOf(timingOf(def), def);
}

/**
 * A calendar firing once per firing minute (at the first seconds value) plus the seconds values:
 * iterating it costs at most 1,440 slots a day even for `* * * * * *`.
 */
function minuteCalendarOf(timing: Timing, def: DefinitionTiming): { calendar: SlotCalendar; seconds: number[] } {
  const { cron } = timing;
  // With a single seconds value (most expressions) that is the schedule's own calendar.
  timing.minuteCalendar ??= { calendar: cron.seconds.length === 1 ? calendarOf(timing, def) : createCalendar(def, { ...cron, seconds: [cron.seconds[0]!] }), seconds: cron.seconds };
  return timing.minuteCalendar;
}

function runsPerDayOf(timing: Timing, def: DefinitionTiming, nowMs: number): RunsPerDay {
  if (timing.runsPerDay?.nowMs !== nowMs) timing.runsPerDay = { nowMs, value: countRunsPerDay(calendarOf(timing, def), nowMs) };
  return timing.runsPerDay.value;
}

/**
 * The runs in the runs-per-day window (RUNS_PER_DAY_WINDOW_DAYS local days from `nowMs`): an
 * integer, so the repository's total can be adjusted schedule by schedule exactly.
 */
export function runsInWindow(def: DefinitionTiming, nowMs: number): number {
  return runsPerDayOf(timingOf(def), def, nowMs).total;
}

function minIntervalMsOf(timing: Timing, def: DefinitionTiming): number {
  // Same fallback as compile: a schedule with a single slot per cycle counts as daily.
  timing.minIntervalMs ??= (minIntervalSeconds(timing.cron, def.dayMatch ?? undefined) ?? 86_400) * MS_PER_SECOND;
  return timing.minIntervalMs;
}

/** Exact number of slots with fromMs <= slot < toMs, enumerating minutes, never seconds. */
export function countSlotsBetween(def: Definition, fromMs: number, toMs: number): number {
  const { calendar, seconds } = minuteCalendarOf(timingOf(def), def);
  const firstSecondMs = seconds[0]! * MS_PER_SECOND;
  let count = 0;
  const startMinuteMs = Math.floor(fromMs / MS_PER_MINUTE) * MS_PER_MINUTE;
  for (const slot of slotsBetween(calendar, startMinuteMs + firstSecondMs, toMs + firstSecondMs)) {
    const minuteMs = slot - firstSecondMs;
    if (minuteMs >= fromMs && minuteMs + MS_PER_MINUTE <= toMs) count += seconds.length;
    else count += seconds.filter((s) => minuteMs + s * MS_PER_SECOND >= fromMs && minuteMs + s * MS_PER_SECOND < toMs).length;
  }
  return count;
}

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
    runsPerDayPeak: runsPerDay.peak,
    runsPerDayAverage: runsPerDay.average,
    // All slots of one minute share the minute and differ only in the seconds field (see the
    // header), and on any ordinary firing day some minute has all of them: the peak is exact.
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

/** True when every real minute of [fromMs, toMs) has all the cron's seconds (no enumeration needed). */
function firesEveryMinute(calendar: SlotCalendar, fromMs: number, toMs: number): boolean {
  const { cron } = calendar.rules;
  if (cron.minutes.length !== 60 || cron.hours.length !== 24) return false;
  const firstDay = Math.floor(calendar.zone.wallFromInstant(fromMs) / MS_PER_DAY);
  const lastDay = Math.floor(calendar.zone.wallFromInstant(toMs) / MS_PER_DAY);
  for (let day = firstDay; day <= lastDay; day += 1) {
    if (!calendar.days.matches(day)) return false;
    // On a DST day a fixed-time schedule follows dst.gap/fold and may leave minutes empty.
    if (!cron.intervalLike && !calendar.isRegularDay(day)) return false;
  }
  return true;
}

/** The minutes of [startMs, endMs) in which one timing fires, as indexes from `startMs`. */
function countMinuteLoad(calendar: SlotCalendar, seconds: number[], startMs: number, endMs: number): MinuteLoad {
  if (firesEveryMinute(calendar, startMs, endMs)) return { everyMinute: true };
  const firstSecondMs = seconds[0]! * MS_PER_SECOND;
  const slots = slotsBetween(calendar, startMs, endMs);
  const minuteIndexes = new Uint16Array(slots.length);
  for (let index = 0; index < slots.length; index += 1) minuteIndexes[index] = Math.floor((slots[index]! - firstSecondMs - startMs) / MS_PER_MINUTE);
  return { everyMinute: false, minuteIndexes };
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
  const { calendar, seconds } = minuteCalendarOf(timing, def);
  if (timing.minuteLoad?.startMs !== startMs) timing.minuteLoad = { startMs, value: countMinuteLoad(calendar, seconds, startMs, startMs + MINUTES_PER_DAY * MS_PER_MINUTE) };
  const minutes = timing.minuteLoad.value;
  const step = sign * seconds.length;
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

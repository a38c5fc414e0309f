/**
 * The process-wide cache of timings: parsed crons, slot calendars and the per-timing answers
 * derived from them. A plan of 10,000 schedules, and a runner of as many, ask the same questions
 * of few distinct timings (cron, timezone, dst, dayMatch): each is computed once per distinct
 * timing, not per schedule. Pure apart from the cache: `nowMs` is an input.
 *
 * Whole-minute arithmetic below relies on the fact stated in minute-load.ts: zone offsets and DST
 * shifts are whole minutes, so the slots inside one UTC minute are that minute's start plus the
 * cron's seconds values.
 */
import { MS_PER_MINUTE, MS_PER_SECOND } from './civil.js';
import { parseCron, type CronExpression, type DayMatch } from './cron-parse.js';
import { minIntervalSeconds } from './interval.js';
import { countMinuteLoad, MINUTES_PER_DAY, type MinuteLoad } from './minute-load.js';
import { countRunsPerDay, type RunsPerDay } from './runs-per-day.js';
import { createSlotCalendar, slotsBetween, type DstPolicy, type SlotCalendar } from './slots.js';

/**
 * What decides when a schedule fires, named for error messages. Structural, so time needs no
 * compiled Definition: compile's `DefinitionTiming` (a Pick of Definition) has exactly these fields.
 */
export interface ScheduleTiming {
  name: string;
  /** Null: the schedule has no slots of its own (a dependent that runs after its upstream). */
  cron: string | null;
  timezone: string;
  enabled: boolean;
  dayMatch: DayMatch | null;
  dst: DstPolicy;
}

/**
 * One distinct timing (cron, timezone, dst, dayMatch) and what follows from it, each computed on
 * first use and never mutated after. Answers that depend on `nowMs` keep only the latest instant:
 * a plan asks at one instant, and a runner moving on must not keep every previous answer.
 */
export interface Timing {
  readonly gap: DstPolicy['gap'];
  readonly fold: DstPolicy['fold'];
  readonly dayMatch: DayMatch | null;
  readonly cron: CronExpression;
  calendar?: SlotCalendar;
  minuteCalendar?: { calendar: SlotCalendar; seconds: number[] };
  minIntervalMs?: number;
  runsPerDay?: { nowMs: number; value: RunsPerDay };
  minuteLoad?: { startMs: number; value: MinuteLoad };
}

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

/**
 * The timing of a schedule without a cron: an expression that matches no day (30 February), so
 * every figure and slot question answers "none" without a special case in each caller.
 */
const NO_SLOTS_CRON = '0 0 30 2 *';

export function timingOf(def: ScheduleTiming): Timing {
  if (def.cron === null) return timingOf({ ...def, cron: NO_SLOTS_CRON });
  return timingOfCron(def as ScheduleTiming & { cron: string });
}

function timingOfCron(def: ScheduleTiming & { cron: string }): Timing {
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

function parseDefinitionCron(def: ScheduleTiming & { cron: string }): CronExpression {
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

function createCalendar(def: Pick<ScheduleTiming, 'timezone' | 'dst' | 'dayMatch'>, cron: CronExpression): SlotCalendar {
  return createSlotCalendar({ cron, timezone: def.timezone, dst: def.dst, dayMatch: def.dayMatch ?? undefined });
}

/*
 * The functions below taking a Timing take the one `def` resolved to: the repository-wide figures
 * make several passes over 10,000 definitions, and each pass looks a definition's timing up once.
 */

export function calendarOf(timing: Timing, def: ScheduleTiming): SlotCalendar {
  timing.calendar ??= createCalendar(def, timing.cron);
  return timing.calendar;
}

export function calendarForDefinition(def: ScheduleTiming): SlotCalendar {
  return calendarOf(timingOf(def), def);
}

/**
 * A calendar firing once per firing minute (at the first seconds value) plus the seconds values:
 * iterating it costs at most 1,440 slots a day even for `* * * * * *`.
 */
function minuteCalendarOf(timing: Timing, def: ScheduleTiming): { calendar: SlotCalendar; seconds: number[] } {
  const { cron } = timing;
  // With a single seconds value (most expressions) that is the schedule's own calendar.
  timing.minuteCalendar ??= { calendar: cron.seconds.length === 1 ? calendarOf(timing, def) : createCalendar(def, { ...cron, seconds: [cron.seconds[0]!] }), seconds: cron.seconds };
  return timing.minuteCalendar;
}

export function runsPerDayOf(timing: Timing, def: ScheduleTiming, nowMs: number): RunsPerDay {
  if (timing.runsPerDay?.nowMs !== nowMs) timing.runsPerDay = { nowMs, value: countRunsPerDay(calendarOf(timing, def), nowMs) };
  return timing.runsPerDay.value;
}

/**
 * The runs in the runs-per-day window (RUNS_PER_DAY_WINDOW_DAYS local days from `nowMs`): an
 * integer, so the repository's total can be adjusted schedule by schedule exactly.
 */
export function runsInWindow(def: ScheduleTiming, nowMs: number): number {
  return runsPerDayOf(timingOf(def), def, nowMs).total;
}

export function minIntervalMsOf(timing: Timing, def: ScheduleTiming): number {
  // Same fallback as compile: a schedule with a single slot per cycle counts as daily.
  timing.minIntervalMs ??= (minIntervalSeconds(timing.cron, def.dayMatch ?? undefined) ?? 86_400) * MS_PER_SECOND;
  return timing.minIntervalMs;
}

/**
 * The minutes of the day (MINUTES_PER_DAY minutes) starting at `startMs` in which the timing fires;
 * each holds `timing.cron.seconds.length` slots.
 */
export function minuteLoadOf(timing: Timing, def: ScheduleTiming, startMs: number): MinuteLoad {
  const { calendar, seconds } = minuteCalendarOf(timing, def);
  if (timing.minuteLoad?.startMs !== startMs) timing.minuteLoad = { startMs, value: countMinuteLoad(calendar, seconds, startMs, startMs + MINUTES_PER_DAY * MS_PER_MINUTE) };
  return timing.minuteLoad.value;
}

/** Exact number of slots with fromMs <= slot < toMs, enumerating minutes, never seconds. */
export function countSlotsBetween(def: ScheduleTiming, fromMs: number, toMs: number): number {
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

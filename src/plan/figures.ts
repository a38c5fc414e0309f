/**
 * Derived figures of compiled definitions for `plan`: runs per day, peak runs per minute, shortest
 * interval, next slots, and the repo-wide minute load and shared instants. Pure: `nowMs` is an input.
 *
 * Whole-minute arithmetic below relies on one fact: every zone offset and DST shift in use today is
 * a whole number of minutes, so the slots inside one UTC minute are exactly that minute's start plus
 * the cron's seconds values (a gap shift moves a whole minute; a fold repeats a whole minute).
 */
import { DateTime } from 'luxon';
import type { Definition } from '../compile/definition.js';
import type { ScheduleFigures } from './plan-types.js';
import { MS_PER_DAY, MS_PER_MINUTE, MS_PER_SECOND } from '../time/civil.js';
import { parseCron, type CronExpression } from '../time/cron-parse.js';
import { timesPerDay } from '../time/day-match.js';
import { minIntervalSeconds } from '../time/interval.js';
import { countRunsPerDay } from '../time/runs-per-day.js';
import { createSlotCalendar, nextSlots, slotsBetween, type SlotCalendar } from '../time/slots.js';

const NEXT_SLOT_COUNT = 5;
const MINUTES_PER_DAY = 1440;
/** A schedule firing more often than this per day is left out of shared-instant detection. */
const SHARED_INSTANT_MAX_RUNS_PER_DAY = 1440;

function parseDefinitionCron(def: Definition): CronExpression {
  const parsed = parseCron(def.cron);
  // Definitions are compiled from validated manifests or read back from the database.
  if (!parsed.ok) throw new Error(`definition ${def.name} has an invalid cron: ${parsed.error.message}`);
  return parsed.cron;
}

function createCalendar(def: Definition, cron: CronExpression): SlotCalendar {
  return createSlotCalendar({ cron, timezone: def.timezone, dst: def.dst, dayMatch: def.dayMatch ?? undefined });
}

export function calendarForDefinition(def: Definition): SlotCalendar {
  return createCalendar(def, parseDefinitionCron(def));
}

/**
 * A calendar firing once per firing minute (at the first seconds value) plus the seconds values:
 * iterating it costs at most 1,440 slots a day even for `* * * * * *`.
 */
function minuteCalendarFor(def: Definition): { calendar: SlotCalendar; seconds: number[] } {
  const cron = parseDefinitionCron(def);
  return { calendar: createCalendar(def, { ...cron, seconds: [cron.seconds[0]!] }), seconds: cron.seconds };
}

/** Exact number of slots with fromMs <= slot < toMs, enumerating minutes, never seconds. */
export function countSlotsBetween(def: Definition, fromMs: number, toMs: number): number {
  const { calendar, seconds } = minuteCalendarFor(def);
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
  const cron = parseDefinitionCron(def);
  const calendar = createCalendar(def, cron);
  const runsPerDay = countRunsPerDay(calendar, nowMs);
  const slots = nextSlots(calendar, nowMs, NEXT_SLOT_COUNT);
  return {
    runsPerDayPeak: runsPerDay.peak,
    runsPerDayAverage: runsPerDay.average,
    // All slots of one minute share the minute and differ only in the seconds field (see the
    // header), and on any ordinary firing day some minute has all of them: the peak is exact.
    peakRunsPerMinute: slots.length > 0 ? cron.seconds.length : 0,
    // Same fallback as compile: a schedule with a single slot per cycle counts as daily.
    minIntervalMs: (minIntervalSeconds(cron, def.dayMatch ?? undefined) ?? 86_400) * MS_PER_SECOND,
    nextSlots: slots.map((ms) => new Date(ms).toISOString()),
    nextSlotsLocal: slots.map((ms) => formatLocalSlot(ms, def.timezone)),
  };
}

/** `2026-12-01 19:30:00 +09:00`: the offset keeps a repeated (fold) hour unambiguous. */
export function formatLocalSlot(ms: number, timezone: string): string {
  return DateTime.fromMillis(ms, { zone: timezone }).toFormat('yyyy-MM-dd HH:mm:ss ZZ');
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

/**
 * Slots per UTC minute summed over all enabled schedules, for the 1,440 minutes starting with the
 * one that contains `nowMs`. Schedules that fire in every minute are added as a constant, so
 * 10,000 schedules (some per second) cost one pass over each schedule's firing minutes.
 */
export function computeMinuteLoad(defs: Definition[], nowMs: number): { peakRunsPerMinute: number; peakMinute: string | null } {
  const startMs = Math.floor(nowMs / MS_PER_MINUTE) * MS_PER_MINUTE;
  const endMs = startMs + MINUTES_PER_DAY * MS_PER_MINUTE;
  const load = new Int32Array(MINUTES_PER_DAY);
  let everyMinute = 0;
  for (const def of defs) {
    if (!def.enabled) continue;
    const { calendar, seconds } = minuteCalendarFor(def);
    if (firesEveryMinute(calendar, startMs, endMs)) {
      everyMinute += seconds.length;
      continue;
    }
    const firstSecondMs = seconds[0]! * MS_PER_SECOND;
    for (const slot of slotsBetween(calendar, startMs, endMs)) load[Math.floor((slot - firstSecondMs - startMs) / MS_PER_MINUTE)]! += seconds.length;
  }
  let peakIndex = 0;
  for (let index = 1; index < MINUTES_PER_DAY; index += 1) if (load[index]! > load[peakIndex]!) peakIndex = index;
  const peak = load[peakIndex]! + everyMinute;
  return { peakRunsPerMinute: peak, peakMinute: peak > 0 ? new Date(startMs + peakIndex * MS_PER_MINUTE).toISOString() : null };
}

/**
 * Instants in the next 24 hours at which at least `threshold` schedules fire in the same second
 * (a thundering herd). Jittered schedules are left out: their starts are spread. Schedules firing
 * more than 1,440 times a day are left out too: they touch most seconds of the day, so they would
 * join every herd without telling the reader anything new (CF102/CF103 report them), and
 * enumerating them would make this O(86,400) per schedule.
 */
export function findSharedInstants(schedules: Array<{ name: string; def: Definition }>, nowMs: number, threshold = 10): Array<{ instant: string; names: string[] }> {
  const byInstant = new Map<number, string[]>();
  for (const { name, def } of schedules) {
    if (!def.enabled || def.jitterMs > 0) continue;
    const cron = parseDefinitionCron(def);
    if (timesPerDay(cron) > SHARED_INSTANT_MAX_RUNS_PER_DAY) continue;
    for (const slot of slotsBetween(createCalendar(def, cron), nowMs, nowMs + MS_PER_DAY)) {
      const names = byInstant.get(slot);
      if (names) names.push(name);
      else byInstant.set(slot, [name]);
    }
  }
  return [...byInstant.entries()]
    .filter(([, names]) => names.length >= threshold)
    .sort(([a], [b]) => a - b)
    .map(([ms, names]) => ({ instant: new Date(ms).toISOString(), names: [...names].sort() }));
}

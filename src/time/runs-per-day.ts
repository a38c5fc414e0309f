/**
 * Exact runs per local calendar day, computed from the structure of the cron expression rather
 * than by enumerating slots: a regular day has |hours|·|minutes|·|seconds| runs; a DST day is
 * corrected by counting matching wall times inside its gap or fold. `* * * * * *` costs the same
 * as `@daily`.
 */
import { formatCivilDate, civilFromDays, MS_PER_DAY, SECONDS_PER_DAY } from './civil.js';
import { countTimesBefore, countTimesInRange, timesPerDay, type DayMatcher } from './day-match.js';
import type { SlotCalendar } from './slots.js';
import { wallRangesBefore, wallRangesOnDay, type WallRange } from './wall-ranges.js';

export interface RunsPerDay {
  /** Largest count on any local day of the window. */
  peak: number;
  /** Local date (YYYY-MM-DD) of the first day reaching the peak. */
  peakDate: string;
  /** Mean over the window's days, including days without runs. */
  average: number;
  days: number;
  total: number;
}

export const RUNS_PER_DAY_WINDOW_DAYS = 35;

/**
 * Slots whose instant falls on local day `dayNumber`, whichever day's wall time produced them: a
 * time shifted over a gap just before midnight (America/Nuuk: Saturday 23:00 → Sunday 00:00) runs,
 * and counts, on the next day, once even when that day has its own slot at the same instant.
 */
export function countRunsOnDay(calendar: SlotCalendar, dayNumber: number): number {
  const { cron, dst } = calendar.rules;
  const matches = calendar.days.matches(dayNumber);
  const shifts = !cron.intervalLike && dst.gap === 'shift';
  if (!matches && !shifts) return 0;
  if (calendar.isRegularDay(dayNumber)) return matches ? timesPerDay(cron) : 0;
  let count = 0;
  if (matches) {
    count = timesPerDay(cron);
    for (const range of wallRangesOnDay(calendar.zone, dayNumber)) count += correctionFor(calendar, range);
  }
  if (shifts) count += countShiftedArrivals(calendar, dayNumber, matches);
  return count;
}

function correctionFor(calendar: SlotCalendar, range: WallRange): number {
  const { cron, dst } = calendar.rules;
  const inside = countTimesInRange(cron, range.fromSecond, range.toSecond);
  if (range.kind === 'fold') return cron.intervalLike || dst.fold === 'both' ? inside : 0;
  if (cron.intervalLike || dst.gap === 'skip') return -inside;
  return -countShiftedAway(calendar, range);
}

/**
 * Gap times that, shifted by the gap length, are no slot of their own: they land on a wall time
 * of the same day that is itself a slot, or on a later day (counted there).
 */
function countShiftedAway(calendar: SlotCalendar, range: WallRange): number {
  const times = calendar.times;
  let away = 0;
  for (let index = countTimesBefore(times, range.fromSecond); index < times.length && times[index]! < range.toSecond; index += 1) {
    const shifted = times[index]! + range.lengthSeconds;
    if (shifted >= SECONDS_PER_DAY || isTimeOf(times, shifted)) away += 1;
  }
  return away;
}

/** Gap times of earlier days that, shifted, land on local day `dayNumber` and are not one of its own slots. */
function countShiftedArrivals(calendar: SlotCalendar, dayNumber: number, dayMatches: boolean): number {
  const times = calendar.times;
  let arrivals = 0;
  for (const range of wallRangesBefore(calendar.zone, dayNumber)) {
    if (range.kind !== 'gap' || !calendar.days.matches(range.dayNumber)) continue;
    for (let index = countTimesBefore(times, range.fromSecond); index < times.length && times[index]! < range.toSecond; index += 1) {
      const shifted = times[index]! + range.lengthSeconds;
      const landingDay = range.dayNumber + Math.floor(shifted / SECONDS_PER_DAY);
      if (landingDay === dayNumber && !(dayMatches && isTimeOf(times, shifted % SECONDS_PER_DAY))) arrivals += 1;
    }
  }
  return arrivals;
}

function isTimeOf(times: readonly number[], second: number): boolean {
  return times[countTimesBefore(times, second)] === second;
}

/**
 * Matching days of a window, by day matcher and first day: the calendars of 10,000 schedules share
 * a few dozen matchers, and at one instant most windows start on one of two days. Bounded per
 * matcher because a runner moves on day after day.
 */
interface MatchingDays {
  days: number;
  count: number;
  first: number | undefined;
}
const matchingDaysCache = new WeakMap<DayMatcher, Map<number, MatchingDays>>();
const MATCHING_DAYS_CACHE_LIMIT = 64;

function countMatchingDays(matcher: DayMatcher, startDay: number, days: number): MatchingDays {
  let byStartDay = matchingDaysCache.get(matcher);
  const cached = byStartDay?.get(startDay);
  if (cached?.days === days) return cached;
  let count = 0;
  let first: number | undefined;
  for (let day = startDay; day < startDay + days; day += 1) {
    if (!matcher.matches(day)) continue;
    count += 1;
    first ??= day;
  }
  const counted = { days, count, first };
  if (!byStartDay || byStartDay.size >= MATCHING_DAYS_CACHE_LIMIT) matchingDaysCache.set(matcher, (byStartDay = new Map()));
  byStartDay.set(startDay, counted);
  return counted;
}

export function countRunsPerDay(calendar: SlotCalendar, fromMs: number, days = RUNS_PER_DAY_WINDOW_DAYS): RunsPerDay {
  const startDay = Math.floor(calendar.zone.wallFromInstant(fromMs) / MS_PER_DAY);
  // A day is irregular when an offset change falls within a day of it (SlotCalendar.isRegularDay):
  // with none anywhere near the window, which is most windows, every matching day has the base count.
  const allRegular = calendar.zone.transitionsBetween((startDay - 1) * MS_PER_DAY, (startDay + days + 1) * MS_PER_DAY).length === 0;
  const base = timesPerDay(calendar.rules.cron);
  if (allRegular) {
    // The first matching day is the busiest (base runs each, base >= 1); without one, every day has 0.
    const matching = countMatchingDays(calendar.days, startDay, days);
    const total = matching.count * base;
    const peakDay = matching.first ?? startDay;
    return { peak: matching.count > 0 ? base : 0, peakDate: formatCivilDate(civilFromDays(peakDay)), average: total / days, days, total };
  }
  let peak = -1;
  let peakDay = startDay;
  let total = 0;
  for (let day = startDay; day < startDay + days; day += 1) {
    const count = countRunsOnDay(calendar, day);
    total += count;
    if (count > peak) {
      peak = count;
      peakDay = day;
    }
  }
  return { peak: Math.max(peak, 0), peakDate: formatCivilDate(civilFromDays(peakDay)), average: total / days, days, total };
}

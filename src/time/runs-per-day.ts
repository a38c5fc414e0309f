/**
 * Exact runs per local calendar day, computed from the structure of the cron expression rather
 * than by enumerating slots: a regular day has |hours|·|minutes|·|seconds| runs; a DST day is
 * corrected by counting matching wall times inside its gap or fold. `* * * * * *` costs the same
 * as `@daily`.
 */
import { formatCivilDate, civilFromDays, MS_PER_DAY } from './civil.js';
import { countTimesInRange, timesPerDay, type DayMatcher } from './day-match.js';
import type { SlotCalendar } from './slots.js';
import { wallRangesOnDay, type WallRange } from './wall-ranges.js';

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

export function countRunsOnDay(calendar: SlotCalendar, dayNumber: number): number {
  if (!calendar.days.matches(dayNumber)) return 0;
  const base = timesPerDay(calendar.rules.cron);
  if (calendar.isRegularDay(dayNumber)) return base;
  let count = base;
  for (const range of wallRangesOnDay(calendar.zone, dayNumber)) count += correctionFor(calendar, range);
  return count;
}

function correctionFor(calendar: SlotCalendar, range: WallRange): number {
  const { cron, dst } = calendar.rules;
  const inside = countTimesInRange(cron, range.fromSecond, range.toSecond);
  if (range.kind === 'fold') return cron.intervalLike || dst.fold === 'both' ? inside : 0;
  if (cron.intervalLike || dst.gap === 'skip') return -inside;
  return -countShiftCollisions(calendar, range);
}

/** Gap times that, shifted by the gap length, land on a wall time that is itself a slot. */
function countShiftCollisions(calendar: SlotCalendar, range: WallRange): number {
  const { cron } = calendar.rules;
  const hours = new Set(cron.hours);
  const minutes = new Set(cron.minutes);
  const seconds = new Set(cron.seconds);
  let collisions = 0;
  for (const time of calendar.times) {
    if (time < range.fromSecond) continue;
    if (time >= range.toSecond) break;
    const shifted = time + range.lengthSeconds;
    if (shifted >= 86_400) continue;
    const matches = hours.has(Math.floor(shifted / 3600)) && minutes.has(Math.floor(shifted / 60) % 60) && seconds.has(shifted % 60);
    if (matches) collisions += 1;
  }
  return collisions;
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

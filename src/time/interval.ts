/**
 * The shortest wall-clock distance between two consecutive slots, from the structure of the
 * expression (no enumeration). DST is ignored here on purpose: it is the schedule's *designed*
 * cadence that the Policy's minInterval limits; DST effects are reported separately by plan.
 */
import type { CronExpression } from './cron-parse.js';
import { createDayMatcher, dayFieldsKey } from './day-match.js';
import type { DayMatch } from './cron-parse.js';
import { daysFromCivil } from './civil.js';

function smallestStep(values: number[]): number | undefined {
  let best: number | undefined;
  for (let i = 1; i < values.length; i += 1) {
    const step = values[i]! - values[i - 1]!;
    if (best === undefined || step < best) best = step;
  }
  return best;
}

/**
 * Smallest day gap by day fields: thousands of schedules share a handful of day patterns, and a
 * weekly or monthly pattern scans the whole 4-year cycle, so the answer is cached.
 */
const dayGapCache = new Map<string, number | undefined>();

function smallestDayGap(cron: CronExpression, dayMatch: DayMatch | undefined): number | undefined {
  const key = dayFieldsKey(cron, dayMatch);
  if (dayGapCache.has(key)) return dayGapCache.get(key);
  const gap = scanSmallestDayGap(cron, dayMatch);
  dayGapCache.set(key, gap);
  return gap;
}

/** Smallest gap in days between matching days over a 4-year cycle (leap years included). */
function scanSmallestDayGap(cron: CronExpression, dayMatch: DayMatch | undefined): number | undefined {
  const matcher = createDayMatcher(cron, dayMatch);
  const start = daysFromCivil(2024, 1, 1);
  let previous: number | undefined;
  let best: number | undefined;
  for (let day = start; day < start + 366 * 4 + 7; day += 1) {
    if (!matcher.matches(day)) continue;
    if (previous !== undefined && (best === undefined || day - previous < best)) best = day - previous;
    if (best === 1) return 1;
    previous = day;
  }
  return best;
}

/**
 * Answers by expression object: parsed expressions are shared and frozen (parseCron), and validate
 * asks twice per schedule (the Policy's minInterval, then the default timeout and grace period).
 */
const intervalCache = new WeakMap<CronExpression, Map<DayMatch | undefined, number | undefined>>();

export function minIntervalSeconds(cron: CronExpression, dayMatch?: DayMatch): number | undefined {
  let byDayMatch = intervalCache.get(cron);
  if (byDayMatch?.has(dayMatch)) return byDayMatch.get(dayMatch);
  const seconds = computeMinIntervalSeconds(cron, dayMatch);
  if (Object.isFrozen(cron)) {
    byDayMatch ??= new Map();
    byDayMatch.set(dayMatch, seconds);
    intervalCache.set(cron, byDayMatch);
  }
  return seconds;
}

function computeMinIntervalSeconds(cron: CronExpression, dayMatch: DayMatch | undefined): number | undefined {
  const { seconds, minutes, hours } = cron;
  const firstSecond = seconds[0]!;
  const lastSecond = seconds[seconds.length - 1]!;
  const firstInHour = minutes[0]! * 60 + firstSecond;
  const lastInHour = minutes[minutes.length - 1]! * 60 + lastSecond;
  const candidates: number[] = [];
  const secondStep = smallestStep(seconds);
  if (secondStep !== undefined) candidates.push(secondStep);
  const minuteStep = smallestStep(minutes);
  if (minuteStep !== undefined) candidates.push(minuteStep * 60 + firstSecond - lastSecond);
  const hourStep = smallestStep(hours);
  if (hourStep !== undefined) candidates.push(hourStep * 3600 + firstInHour - lastInHour);
  const dayGap = smallestDayGap(cron, dayMatch);
  if (dayGap !== undefined) {
    const firstOfDay = hours[0]! * 3600 + firstInHour;
    const lastOfDay = hours[hours.length - 1]! * 3600 + lastInHour;
    candidates.push(dayGap * 86_400 + firstOfDay - lastOfDay);
  }
  return candidates.length > 0 ? Math.min(...candidates) : undefined;
}

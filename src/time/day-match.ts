/**
 * Which local calendar days a cron expression fires on. Pure calendar logic, no zones.
 */
import type { CronExpression, DayMatch } from './cron-parse.js';
import { civilFromDays, daysInMonth, weekdayFromDays } from './civil.js';

export interface DayMatcher {
  matches(dayNumber: number): boolean;
}

/**
 * When both day-of-month and day-of-week are restricted, `any` is the classic Vixie/POSIX rule
 * (either matches) and `all` requires both. Validation insists the manifest says which; the
 * fallback here is `any` because that is what plain cron would have done.
 */
export function createDayMatcher(cron: CronExpression, dayMatch: DayMatch | undefined): DayMatcher {
  const months = new Set(cron.months);
  const daysOfMonth = new Set(cron.daysOfMonth);
  const daysOfWeek = new Set(cron.daysOfWeek);
  const mode: DayMatch = dayMatch ?? 'any';
  return {
    matches(dayNumber: number): boolean {
      const date = civilFromDays(dayNumber);
      if (!months.has(date.month)) return false;
      const domMatch = daysOfMonth.has(date.day) || (cron.lastDayOfMonth && date.day === daysInMonth(date.year, date.month));
      const dowMatch = daysOfWeek.has(weekdayFromDays(dayNumber));
      if (cron.dayOfMonthRestricted && cron.dayOfWeekRestricted) return mode === 'any' ? domMatch || dowMatch : domMatch && dowMatch;
      if (cron.dayOfMonthRestricted) return domMatch;
      if (cron.dayOfWeekRestricted) return dowMatch;
      return true;
    },
  };
}

/**
 * A key that is equal for two expressions exactly when their day fields (and `dayMatch`) are, for
 * caches of answers that depend on the days only. Months, days of month and weekdays are bit sets:
 * joining the value arrays (31 numbers for `*`) as text cost more than the answers they cached.
 */
export function dayFieldsKey(cron: CronExpression, dayMatch: DayMatch | undefined): string {
  const months = bitsOf(cron.months);
  const daysOfMonth = bitsOf(cron.daysOfMonth);
  const daysOfWeek = bitsOf(cron.daysOfWeek);
  if (months === undefined || daysOfMonth === undefined || daysOfWeek === undefined) {
    return `${cron.months.join()}|${cron.daysOfMonth.join()}|${cron.daysOfWeek.join()}|${cron.lastDayOfMonth}|${cron.dayOfMonthRestricted}|${cron.dayOfWeekRestricted}|${dayMatch ?? ''}`;
  }
  const flags = (cron.lastDayOfMonth ? 1 : 0) + (cron.dayOfMonthRestricted ? 2 : 0) + (cron.dayOfWeekRestricted ? 4 : 0);
  return `${months}:${daysOfMonth}:${daysOfWeek}:${flags}:${dayMatch ?? ''}`;
}

/** Values 0-31 as a bit set; undefined for anything else (the text key is used then). */
function bitsOf(values: readonly number[]): number | undefined {
  let bits = 0;
  for (const value of values) {
    if (!(value >= 0 && value <= 31 && (value | 0) === value)) return undefined;
    // 1 << 31 is negative in 32-bit arithmetic; every bit below it is exact either way.
    bits += value === 31 ? 2_147_483_648 : 1 << value;
  }
  return bits;
}

/** Local wall times of a matching day, as seconds of the day, ascending. */
export function secondsOfDay(cron: CronExpression): number[] {
  const result: number[] = [];
  for (const hour of cron.hours) for (const minute of cron.minutes) for (const second of cron.seconds) result.push(hour * 3600 + minute * 60 + second);
  return result;
}

/** Number of `times` (ascending seconds of the day) below `second`: where a range of them starts. */
export function countTimesBefore(times: readonly number[], second: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (times[middle]! < second) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Number of matching wall times per day, without enumerating them. */
export function timesPerDay(cron: CronExpression): number {
  return cron.hours.length * cron.minutes.length * cron.seconds.length;
}

/** Number of matching wall times t with fromSecond <= t < toSecond (seconds of the day, clamped). */
export function countTimesInRange(cron: CronExpression, fromSecond: number, toSecond: number): number {
  const from = Math.max(0, fromSecond);
  const to = Math.min(86_400, toSecond);
  if (from >= to) return 0;
  let count = 0;
  const fullMinute = cron.seconds.length;
  for (const hour of cron.hours) {
    const hourStart = hour * 3600;
    if (hourStart + 3600 <= from || hourStart >= to) continue;
    for (const minute of cron.minutes) {
      const minuteStart = hourStart + minute * 60;
      if (minuteStart + 60 <= from || minuteStart >= to) continue;
      if (minuteStart >= from && minuteStart + 60 <= to) {
        count += fullMinute;
        continue;
      }
      for (const second of cron.seconds) {
        const t = minuteStart + second;
        if (t >= from && t < to) count += 1;
      }
    }
  }
  return count;
}

/**
 * The UTC minutes of a window in which one calendar fires. Whole-minute arithmetic relies on one
 * fact: every zone offset and DST shift in use today is a whole number of minutes, so the slots
 * inside one UTC minute are exactly that minute's start plus the cron's seconds values (a gap
 * shift moves a whole minute; a fold repeats a whole minute).
 */
import { MS_PER_DAY, MS_PER_MINUTE, MS_PER_SECOND } from './civil.js';
import { slotsBetween, type SlotCalendar } from './slots.js';

export const MINUTES_PER_DAY = 1440;

export type MinuteLoad = { everyMinute: true } | { everyMinute: false; minuteIndexes: Uint16Array };

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
 * The minutes of [startMs, endMs) in which one timing fires, as indexes from `startMs`. `calendar`
 * fires once per firing minute, at `seconds[0]` (see `minuteCalendarOf` in timing-cache.ts).
 */
export function countMinuteLoad(calendar: SlotCalendar, seconds: number[], startMs: number, endMs: number): MinuteLoad {
  if (firesEveryMinute(calendar, startMs, endMs)) return { everyMinute: true };
  const firstSecondMs = seconds[0]! * MS_PER_SECOND;
  const slots = slotsBetween(calendar, startMs, endMs);
  const minuteIndexes = new Uint16Array(slots.length);
  for (let index = 0; index < slots.length; index += 1) minuteIndexes[index] = Math.floor((slots[index]! - firstSecondMs - startMs) / MS_PER_MINUTE);
  return { everyMinute: false, minuteIndexes };
}

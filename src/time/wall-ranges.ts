/**
 * DST transitions seen from the wall clock: a gap is a range of local times that never happens,
 * a fold a range that happens twice. Ranges are split per local day.
 */
import { MS_PER_DAY, MS_PER_SECOND } from './civil.js';
import type { Transition, ZoneRules } from './zone.js';

export interface WallRange {
  kind: 'gap' | 'fold';
  transition: Transition;
  dayNumber: number;
  /** Seconds of the local day, [fromSecond, toSecond). */
  fromSecond: number;
  toSecond: number;
  /** Length of the whole gap or fold in seconds (the shift applied to a gap's wall times). */
  lengthSeconds: number;
}

export function wallRangesOf(transition: Transition): WallRange[] {
  const wallBefore = transition.atMs + transition.offsetBeforeMs;
  const wallAfter = transition.atMs + transition.offsetAfterMs;
  const kind = wallAfter > wallBefore ? 'gap' : 'fold';
  const start = Math.min(wallBefore, wallAfter);
  const end = Math.max(wallBefore, wallAfter);
  const lengthSeconds = (end - start) / MS_PER_SECOND;
  const ranges: WallRange[] = [];
  for (let day = Math.floor(start / MS_PER_DAY); day * MS_PER_DAY < end; day += 1) {
    const dayStart = day * MS_PER_DAY;
    ranges.push({
      kind,
      transition,
      dayNumber: day,
      fromSecond: Math.max(0, (start - dayStart) / MS_PER_SECOND),
      toSecond: Math.min(86_400, (end - dayStart) / MS_PER_SECOND),
      lengthSeconds,
    });
  }
  return ranges;
}

/** Gaps and folds touching local day `dayNumber`. */
export function wallRangesOnDay(zone: ZoneRules, dayNumber: number): WallRange[] {
  const around = zone.transitionsBetween((dayNumber - 2) * MS_PER_DAY, (dayNumber + 3) * MS_PER_DAY);
  return around.flatMap(wallRangesOf).filter((range) => range.dayNumber === dayNumber);
}

/** Gaps and folds of the two local days before `dayNumber`, whose times `gap: shift` can move onto it. */
export function wallRangesBefore(zone: ZoneRules, dayNumber: number): WallRange[] {
  const around = zone.transitionsBetween((dayNumber - 4) * MS_PER_DAY, (dayNumber + 2) * MS_PER_DAY);
  return around.flatMap(wallRangesOf).filter((range) => range.dayNumber < dayNumber && range.dayNumber >= dayNumber - 2);
}

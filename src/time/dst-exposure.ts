/**
 * DST exposure: the next transitions (12 months by default) that touch a schedule, with the
 * exact local and UTC instants and what the dst policy does about them.
 */
import { civilFromDays, formatCivilDate, MS_PER_DAY, MS_PER_SECOND } from './civil.js';
import { countTimesInRange } from './day-match.js';
import type { SlotCalendar } from './slots.js';
import { wallRangesOf, type WallRange } from './wall-ranges.js';

export type DstEffect = 'shift' | 'skip' | 'first' | 'second' | 'both' | 'interval-gap' | 'interval-fold';

export interface DstExposure {
  kind: 'gap' | 'fold';
  /** UTC instant of the transition. */
  transitionAt: string;
  localDate: string;
  /** Local wall range [from, to) that is skipped (gap) or repeated (fold), HH:MM:SS. */
  localFrom: string;
  localTo: string;
  effect: DstEffect;
  /** How many of the schedule's wall times fall in the range that day. */
  affectedTimes: number;
  /** For fixed-time schedules: each affected local time and the UTC instants it fires at. */
  examples: Array<{ local: string; utc: string[] }>;
  description: string;
}

const MAX_EXAMPLES = 3;

export function formatSecondOfDay(second: number): string {
  const h = Math.floor(second / 3600);
  const m = Math.floor(second / 60) % 60;
  const s = second % 60;
  return [h, m, s].map((n) => String(n).padStart(2, '0')).join(':');
}

export function findDstExposure(calendar: SlotCalendar, fromMs: number, days = 366): DstExposure[] {
  const transitions = calendar.zone.transitionsBetween(fromMs, fromMs + days * MS_PER_DAY);
  const exposures: DstExposure[] = [];
  for (const range of transitions.flatMap(wallRangesOf)) {
    if (!calendar.days.matches(range.dayNumber)) continue;
    const affected = countTimesInRange(calendar.rules.cron, range.fromSecond, range.toSecond);
    if (affected === 0) continue;
    exposures.push(describeExposure(calendar, range, affected));
  }
  return exposures;
}

function effectOf(calendar: SlotCalendar, kind: WallRange['kind']): DstEffect {
  const { cron, dst } = calendar.rules;
  if (cron.intervalLike) return kind === 'gap' ? 'interval-gap' : 'interval-fold';
  return kind === 'gap' ? dst.gap : dst.fold;
}

function describeExposure(calendar: SlotCalendar, range: WallRange, affected: number): DstExposure {
  const effect = effectOf(calendar, range.kind);
  const localDate = formatCivilDate(civilFromDays(range.dayNumber));
  const localFrom = formatSecondOfDay(range.fromSecond);
  const localTo = range.toSecond >= 86_400 ? '24:00:00' : formatSecondOfDay(range.toSecond);
  const examples = calendar.rules.cron.intervalLike ? [] : exampleSlots(calendar, range);
  const span = `${localFrom}–${localTo}`;
  const descriptions: Record<DstEffect, string> = {
    'interval-gap': `${span} does not exist on ${localDate}: ${affected} slot(s) in it do not happen (interval-like schedule)`,
    'interval-fold': `${span} happens twice on ${localDate}: ${affected} extra slot(s) (interval-like schedule fires in both passes)`,
    shift: `${span} does not exist on ${localDate}: ${affected} slot(s) shift forward by ${range.lengthSeconds / 60} min (dst.gap: shift)`,
    skip: `${span} does not exist on ${localDate}: ${affected} slot(s) do not run that day (dst.gap: skip)`,
    first: `${span} happens twice on ${localDate}: ${affected} slot(s) run once, at the first occurrence (dst.fold: first)`,
    second: `${span} happens twice on ${localDate}: ${affected} slot(s) run once, at the second occurrence (dst.fold: second)`,
    both: `${span} happens twice on ${localDate}: ${affected} slot(s) run twice (dst.fold: both)`,
  };
  return {
    kind: range.kind,
    transitionAt: new Date(range.transition.atMs).toISOString(),
    localDate,
    localFrom,
    localTo,
    effect,
    affectedTimes: affected,
    examples,
    description: descriptions[effect],
  };
}

function exampleSlots(calendar: SlotCalendar, range: WallRange): DstExposure['examples'] {
  const daySlots = calendar.slotsOfDay(range.dayNumber);
  const examples: DstExposure['examples'] = [];
  for (const second of calendar.times) {
    if (second < range.fromSecond) continue;
    if (second >= range.toSecond || examples.length >= MAX_EXAMPLES) break;
    const wall = range.dayNumber * MS_PER_DAY + second * MS_PER_SECOND;
    const instants = calendar.zone.instantsForWall(wall);
    const candidates = instants.length > 0 ? instants : [calendar.zone.instantShiftedOverGap(wall)];
    const fired = candidates.filter((instant) => daySlots.includes(instant));
    examples.push({ local: formatSecondOfDay(second), utc: fired.map((ms) => new Date(ms).toISOString()) });
  }
  return examples;
}

/**
 * Slot iteration: the instants at which a schedule is due, per SPEC §4.
 *
 * Cron is evaluated in the schedule's local wall time; slots are UTC instants. On days without
 * a DST transition the local→UTC offset is constant and slots are produced lazily. On transition
 * days every local time is mapped explicitly and the policy decides:
 * - interval-like schedules (hour field `*`) fire at every real instant whose local time matches:
 *   nothing in a gap, both passes of a fold;
 * - fixed-time schedules obey `dst.gap` (shift: same wall time moved by the gap length; skip)
 *   and `dst.fold` (first, second, both).
 */
import type { CronExpression, DayMatch } from './cron-parse.js';
import { MS_PER_DAY, MS_PER_SECOND, SECONDS_PER_DAY } from './civil.js';
import { countTimesBefore, createDayMatcher, dayFieldsKey, secondsOfDay, type DayMatcher } from './day-match.js';
import { wallRangesOnDay, type WallRange } from './wall-ranges.js';
import { getZoneRules, type ZoneRules } from './zone.js';

export type DstGapPolicy = 'shift' | 'skip';
export type DstFoldPolicy = 'first' | 'second' | 'both';

export interface DstPolicy {
  gap: DstGapPolicy;
  fold: DstFoldPolicy;
}

export interface SlotRules {
  cron: CronExpression;
  timezone: string;
  dst: DstPolicy;
  dayMatch?: DayMatch | undefined;
}

/** A generator gives up after this many consecutive local days without a slot. */
const MAX_EMPTY_DAYS = 366 * 8;

/** Longest run of consecutive transition days merged into one ordered stream. */
const MAX_IRREGULAR_RUN_DAYS = 16;

/**
 * Day matchers are stateless and depend on the day fields and dayMatch only (the inputs of
 * createDayMatcher): the calendars of a 10,000-schedule plan share a few dozen of them.
 */
const dayMatchers = new Map<string, DayMatcher>();
const DAY_MATCHER_CACHE_LIMIT = 1_000;

/** The same, by expression object: parsed expressions are shared and frozen, so most lookups skip the key. */
const dayMatchersByExpression = new WeakMap<CronExpression, Map<DayMatch | undefined, DayMatcher>>();

function dayMatcherFor(cron: CronExpression, dayMatch: DayMatch | undefined): DayMatcher {
  let byDayMatch = dayMatchersByExpression.get(cron);
  let matcher = byDayMatch?.get(dayMatch);
  if (matcher) return matcher;
  matcher = dayMatcherByFields(cron, dayMatch);
  if (Object.isFrozen(cron)) {
    byDayMatch ??= new Map();
    byDayMatch.set(dayMatch, matcher);
    dayMatchersByExpression.set(cron, byDayMatch);
  }
  return matcher;
}

function dayMatcherByFields(cron: CronExpression, dayMatch: DayMatch | undefined): DayMatcher {
  const key = dayFieldsKey(cron, dayMatch);
  let matcher = dayMatchers.get(key);
  if (!matcher) {
    if (dayMatchers.size >= DAY_MATCHER_CACHE_LIMIT) dayMatchers.clear();
    matcher = createDayMatcher(cron, dayMatch);
    dayMatchers.set(key, matcher);
  }
  return matcher;
}

/**
 * A day's wall times by expression object: the calendars of one expression in several zones (6,700
 * calendars share 4,200 expressions in the validate benchmark) share one frozen list.
 */
const wallTimesByExpression = new WeakMap<CronExpression, readonly number[]>();

function wallTimesOf(cron: CronExpression): readonly number[] {
  let times = wallTimesByExpression.get(cron);
  if (times) return times;
  times = Object.freeze(secondsOfDay(cron));
  if (Object.isFrozen(cron)) wallTimesByExpression.set(cron, times);
  return times;
}

/**
 * Wall times `fromSecond <= t < toSecond` of the local day starting at `dayStartWall` that fire at
 * the instant `dayStartWall + t s - offsetMs`: one constant offset, so the piece's slots ascend
 * with its wall times and can be found by binary search.
 */
interface SlotPiece {
  dayStartWall: number;
  fromSecond: number;
  toSecond: number;
  offsetMs: number;
}

export class SlotCalendar {
  readonly zone: ZoneRules;
  readonly days: DayMatcher;
  private wallTimes: readonly number[] | undefined;

  constructor(readonly rules: SlotRules) {
    this.zone = getZoneRules(rules.timezone);
    this.days = dayMatcherFor(rules.cron, rules.dayMatch);
  }

  /** Matching local times of a day, seconds of the day ascending (computed once). */
  get times(): readonly number[] {
    this.wallTimes ??= wallTimesOf(this.rules.cron);
    return this.wallTimes;
  }

  /** True when no offset change can affect local day `dayNumber`. */
  isRegularDay(dayNumber: number): boolean {
    return !this.zone.hasTransitionNear(dayNumber * MS_PER_DAY + MS_PER_DAY / 2, MS_PER_DAY / 2);
  }

  /**
   * The slots that the wall times of local day `dayNumber` produce (the day is assumed to match),
   * ascending and unique. A time shifted over a gap can land on the next local day, where it may
   * also be that day's own slot: `iterate` merges such days, this list does not.
   */
  slotsOfDay(dayNumber: number): number[] {
    return [...mergePieces(this.times, this.piecesOfDay(dayNumber), Number.NEGATIVE_INFINITY)];
  }

  /**
   * A day's wall times cut where a gap or fold starts or ends, each part with the offsets it fires
   * at: one outside transitions, none in a skipped or interval-like gap, the offset before the gap
   * for `gap: shift` (02:30 at the old offset is 03:30 at the new one), one or both offsets in a fold.
   */
  private piecesOfDay(dayNumber: number): SlotPiece[] {
    const dayStartWall = dayNumber * MS_PER_DAY;
    const pieces: SlotPiece[] = [];
    const addRegular = (fromSecond: number, toSecond: number): void => {
      if (fromSecond >= toSecond) return;
      const middleWall = dayStartWall + Math.floor((fromSecond + toSecond) / 2) * MS_PER_SECOND;
      const instant = this.zone.instantsForWall(middleWall)[0] ?? this.zone.instantShiftedOverGap(middleWall);
      pieces.push({ dayStartWall, fromSecond, toSecond, offsetMs: middleWall - instant });
    };
    let cursor = 0;
    const ranges = wallRangesOnDay(this.zone, dayNumber).sort((a, b) => a.fromSecond - b.fromSecond);
    for (const range of ranges) {
      addRegular(cursor, range.fromSecond);
      for (const offsetMs of this.offsetsFiringIn(range)) pieces.push({ dayStartWall, fromSecond: range.fromSecond, toSecond: range.toSecond, offsetMs });
      cursor = Math.max(cursor, range.toSecond);
    }
    addRegular(cursor, SECONDS_PER_DAY);
    return pieces;
  }

  private offsetsFiringIn(range: WallRange): number[] {
    const { cron, dst } = this.rules;
    const { offsetBeforeMs, offsetAfterMs } = range.transition;
    if (range.kind === 'gap') return !cron.intervalLike && dst.gap === 'shift' ? [offsetBeforeMs] : [];
    if (cron.intervalLike || dst.fold === 'both') return [offsetBeforeMs, offsetAfterMs];
    return [dst.fold === 'first' ? offsetBeforeMs : offsetAfterMs];
  }

  /**
   * Slots strictly after `afterMs`, strictly ascending, lazily; stops after 8 years without a slot.
   * A matching day can have no slot (its only times fall in a DST gap under `gap: skip`), so it
   * counts as empty: counting matching days instead would loop forever on such a schedule.
   *
   * Consecutive transition days are merged into one stream, because their slots interleave: a
   * repeated hour that crosses local midnight (America/St_Johns 2006: 23:01–00:01) fires the
   * second pass of 23:30 after the first pass of 00:00, and a time shifted over a gap just before
   * midnight (America/Nuuk: 23:00 → 00:00) is the next day's own midnight slot. A slot is an
   * instant: two wall times that reach the same instant are one slot, reported (preview,
   * businessDate, runs per day) at the local time it really happens, 00:00 of the next day.
   */
  *iterate(afterMs: number): Generator<number, void, undefined> {
    const times = this.times;
    let day = Math.floor(this.zone.wallFromInstant(afterMs) / MS_PER_DAY) - 1;
    // Start with the run of transition days that holds the day before `afterMs`: its earlier days
    // can have slots later than `afterMs`.
    for (let back = 0; back < MAX_IRREGULAR_RUN_DAYS && !this.isRegularDay(day - 1); back += 1) day -= 1;
    let lastMs = afterMs;
    let emptyDays = 0;
    while (emptyDays < MAX_EMPTY_DAYS) {
      if (!this.days.matches(day)) {
        emptyDays += 1;
        day += 1;
        continue;
      }
      if (this.isRegularDay(day)) {
        emptyDays = 0;
        const dayStartWall = day * MS_PER_DAY;
        const offsetMs = this.zone.offsetAt(dayStartWall);
        for (const slot of mergePieces(times, [{ dayStartWall, fromSecond: 0, toSecond: SECONDS_PER_DAY, offsetMs }], lastMs)) yield (lastMs = slot);
        day += 1;
        continue;
      }
      const pieces: SlotPiece[] = [];
      const firstDay = day;
      do {
        if (this.days.matches(day)) pieces.push(...this.piecesOfDay(day));
        day += 1;
      } while (!this.isRegularDay(day) && day - firstDay < MAX_IRREGULAR_RUN_DAYS);
      const fires = pieces.some((piece) => countTimesBefore(times, piece.toSecond) > countTimesBefore(times, piece.fromSecond));
      emptyDays = fires ? 0 : emptyDays + (day - firstDay);
      for (const slot of mergePieces(times, pieces, lastMs)) yield (lastMs = slot);
    }
  }
}

/**
 * The slots of `pieces` strictly after `afterMs`, strictly ascending: a merge of one ascending
 * stream per piece, each entered by binary search, so a per-second schedule (86,400 times a day)
 * yields its first slot without mapping the whole day. Equal instants from two pieces (a shifted
 * time and the wall time it lands on) come out once.
 */
function* mergePieces(times: readonly number[], pieces: readonly SlotPiece[], afterMs: number): Generator<number, void, undefined> {
  const next: number[] = [];
  const ends: number[] = [];
  for (const piece of pieces) {
    // First time t of the piece with dayStartWall + t s - offsetMs > afterMs.
    const afterSecond = Math.floor((afterMs - piece.dayStartWall + piece.offsetMs) / MS_PER_SECOND) + 1;
    next.push(countTimesBefore(times, Math.max(piece.fromSecond, afterSecond)));
    ends.push(countTimesBefore(times, piece.toSecond));
  }
  let lastMs = afterMs;
  for (;;) {
    let best = -1;
    let bestMs = Number.POSITIVE_INFINITY;
    for (let index = 0; index < pieces.length; index += 1) {
      if (next[index]! >= ends[index]!) continue;
      const piece = pieces[index]!;
      const slotMs = piece.dayStartWall + times[next[index]!]! * MS_PER_SECOND - piece.offsetMs;
      if (slotMs < bestMs) {
        bestMs = slotMs;
        best = index;
      }
    }
    if (best < 0) return;
    next[best]! += 1;
    if (bestMs > lastMs) yield (lastMs = bestMs);
  }
}

export function createSlotCalendar(rules: SlotRules): SlotCalendar {
  return new SlotCalendar(rules);
}

export function nextSlots(rules: SlotRules | SlotCalendar, afterMs: number, count: number): number[] {
  const calendar = rules instanceof SlotCalendar ? rules : new SlotCalendar(rules);
  const result: number[] = [];
  if (count <= 0) return result;
  for (const slot of calendar.iterate(afterMs)) {
    result.push(slot);
    if (result.length >= count) break;
  }
  return result;
}

export function nextSlot(rules: SlotRules | SlotCalendar, afterMs: number): number | undefined {
  return nextSlots(rules, afterMs, 1)[0];
}

/** Slots with fromMs <= slot < toMs, capped at `limit` (callers must bound high-frequency schedules). */
export function slotsBetween(rules: SlotRules | SlotCalendar, fromMs: number, toMs: number, limit = Number.POSITIVE_INFINITY): number[] {
  const calendar = rules instanceof SlotCalendar ? rules : new SlotCalendar(rules);
  const result: number[] = [];
  for (const slot of calendar.iterate(fromMs - 1)) {
    if (slot >= toMs || result.length >= limit) break;
    result.push(slot);
  }
  return result;
}

/** Whether any local day in [fromMs, fromMs + days) matches the day fields (Feb 30 never does). */
export function firesWithinDays(rules: SlotRules | SlotCalendar, fromMs: number, days: number): boolean {
  const calendar = rules instanceof SlotCalendar ? rules : new SlotCalendar(rules);
  const startDay = Math.floor(calendar.zone.wallFromInstant(fromMs) / MS_PER_DAY);
  for (let day = startDay; day < startDay + days; day += 1) if (calendar.days.matches(day)) return true;
  return false;
}

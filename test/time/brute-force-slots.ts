/**
 * A brute-force oracle for `src/time`, written from SPEC §4 with nothing from the engine: offsets
 * come straight from `Intl.DateTimeFormat` (`longOffset`), transitions from a coarse scan and a
 * bisection of its own, calendar fields from `Date`'s UTC getters.
 * - Interval-like schedules (hour field `*`): every real instant of the window, minute by minute
 *   (second by second when the cron has a seconds field), whose local time matches.
 * - Fixed-time schedules: every matching local date and wall time, mapped to the instants that
 *   show it (none in a gap, two in a fold) and then to the dst policy.
 * Either way a slot is an instant: a set, so two wall times reaching one instant are one slot.
 */
import type { DstPolicy } from '../../src/time/slots.js';

const SECOND_MS = 1000;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The fields of a cron as sets of values, as the generator that wrote its text meant them. */
export interface CronFields {
  seconds: number[];
  minutes: number[];
  hours: number[];
  daysOfMonth: number[];
  /** `L`: the last day of the month. */
  lastDayOfMonth: boolean;
  months: number[];
  /** 0 = Sunday. */
  daysOfWeek: number[];
  dayOfMonthRestricted: boolean;
  dayOfWeekRestricted: boolean;
  intervalLike: boolean;
  hasSecondsField: boolean;
}

export interface OracleTransition {
  atMs: number;
  offsetBeforeMs: number;
  offsetAfterMs: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset at an instant, by Intl, to the second: "GMT", "GMT+05:30", "GMT-00:21:16". */
export function intlOffsetMs(zone: string, utcMs: number): number {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    formats.set(zone, format);
  }
  // "1/1/1900, GMT-00:16:08": the date part is not needed, the offset name ends the text.
  const text = format.format(utcMs);
  if (text.endsWith(' GMT')) return 0;
  const match = /GMT([+-])(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (!match) throw new Error(`unexpected offset text ${text} in ${zone}`);
  const magnitude = Number(match[2]) * HOUR_MS + Number(match[3]) * MINUTE_MS + Number(match[4] ?? 0) * SECOND_MS;
  return match[1] === '-' ? -magnitude : magnitude;
}

/** The first instant in (lowMs, highMs] whose offset differs from the offset at lowMs, to the second. */
function bisectTransition(zone: string, lowMs: number, highMs: number): OracleTransition {
  const before = intlOffsetMs(zone, lowMs);
  let low = lowMs;
  let high = highMs;
  while (high - low > SECOND_MS) {
    const middle = low + Math.floor((high - low) / 2 / SECOND_MS) * SECOND_MS;
    if (intlOffsetMs(zone, middle) === before) low = middle;
    else high = middle;
  }
  return { atMs: high, offsetBeforeMs: before, offsetAfterMs: intlOffsetMs(zone, high) };
}

/** Transitions in [fromMs, toMs), by sampling every `stepMs` and bisecting where the offset changed. */
export function findTransitions(zone: string, fromMs: number, toMs: number, stepMs: number, limit = Number.POSITIVE_INFINITY): OracleTransition[] {
  const found: OracleTransition[] = [];
  let previousMs = fromMs - SECOND_MS;
  let previous = intlOffsetMs(zone, previousMs);
  for (let sampleMs = fromMs; previousMs < toMs && found.length < limit; sampleMs = Math.min(sampleMs + stepMs, toMs)) {
    const offset = intlOffsetMs(zone, sampleMs);
    if (offset !== previous) {
      // A second transition inside one step would hide here; steps are far shorter than any real interval between two.
      const transition = bisectTransition(zone, previousMs, sampleMs);
      if (transition.atMs >= fromMs && transition.atMs < toMs) found.push(transition);
    }
    previous = offset;
    previousMs = sampleMs;
    if (sampleMs === toMs) break;
  }
  return found;
}

/** The zone's offsets over a window, from a scan every two hours: a table of transitions. */
export class OracleZone {
  readonly transitions: OracleTransition[];
  private readonly startOffsetMs: number;

  constructor(
    readonly zone: string,
    readonly fromMs: number,
    readonly toMs: number,
  ) {
    this.transitions = findTransitions(zone, fromMs, toMs, 2 * HOUR_MS);
    this.startOffsetMs = intlOffsetMs(zone, fromMs - SECOND_MS);
  }

  offsetAt(utcMs: number): number {
    if (utcMs < this.fromMs - SECOND_MS || utcMs >= this.toMs) throw new Error('instant outside the oracle window');
    let offset = this.startOffsetMs;
    for (const transition of this.transitions) if (transition.atMs <= utcMs) offset = transition.offsetAfterMs;
    return offset;
  }

  /** Days since 1970-01-01 of the local date of an instant. */
  localDayOf(utcMs: number): number {
    return Math.floor((utcMs + this.offsetAt(utcMs)) / DAY_MS);
  }

  offsets(): number[] {
    return [...new Set([this.startOffsetMs, ...this.transitions.map((t) => t.offsetAfterMs)])];
  }
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** SPEC §3.1 day matching: `dayMatch: any` when both day fields are restricted is classic cron's "either". */
export function dayMatches(fields: CronFields, dayMatch: 'any' | 'all' | undefined, localDay: number): boolean {
  const date = new Date(localDay * DAY_MS);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + 1;
  const day = date.getUTCDate();
  if (!fields.months.includes(month)) return false;
  const domMatch = fields.daysOfMonth.includes(day) || (fields.lastDayOfMonth && day === daysInMonth(year, month));
  const dowMatch = fields.daysOfWeek.includes(date.getUTCDay());
  if (fields.dayOfMonthRestricted && fields.dayOfWeekRestricted) return (dayMatch ?? 'any') === 'any' ? domMatch || dowMatch : domMatch && dowMatch;
  if (fields.dayOfMonthRestricted) return domMatch;
  if (fields.dayOfWeekRestricted) return dowMatch;
  return true;
}

/**
 * Interval-like: every real instant of [fromMs, toMs) whose local time matches, minute by minute
 * (second by second with a seconds field). Local minutes start on whole UTC minutes only when the
 * offset has no seconds (local mean time had: Africa/Abidjan was -00:16:08), so each offset of the
 * window is scanned on its own grid.
 */
function scanRealInstants(oracle: OracleZone, fields: CronFields, dayMatch: 'any' | 'all' | undefined, fromMs: number, toMs: number): number[] {
  const stepMs = fields.hasSecondsField ? SECOND_MS : MINUTE_MS;
  const slots: number[] = [];
  for (const offsetMs of oracle.offsets()) {
    const phase = (((-offsetMs % stepMs) + stepMs) % stepMs);
    for (let utcMs = Math.ceil((fromMs - phase) / stepMs) * stepMs + phase; utcMs < toMs; utcMs += stepMs) {
      if (oracle.offsetAt(utcMs) !== offsetMs) continue;
      const wall = new Date(utcMs + offsetMs);
      if (!fields.seconds.includes(wall.getUTCSeconds()) || !fields.minutes.includes(wall.getUTCMinutes()) || !fields.hours.includes(wall.getUTCHours())) continue;
      if (dayMatches(fields, dayMatch, Math.floor(wall.getTime() / DAY_MS))) slots.push(utcMs);
    }
  }
  return slots.sort((a, b) => a - b);
}

/** Fixed-time: each matching local date's wall times, mapped to instants by the dst policy. */
function walkLocalDays(oracle: OracleZone, fields: CronFields, dayMatch: 'any' | 'all' | undefined, dst: DstPolicy, fromMs: number, toMs: number): number[] {
  const offsets = oracle.offsets();
  const slots = new Set<number>();
  const firstDay = Math.floor(fromMs / DAY_MS) - 3;
  const lastDay = Math.floor(toMs / DAY_MS) + 3;
  for (let day = firstDay; day <= lastDay; day += 1) {
    if (!dayMatches(fields, dayMatch, day)) continue;
    for (const hour of fields.hours) {
      for (const minute of fields.minutes) {
        for (const second of fields.seconds) {
          const wall = day * DAY_MS + hour * HOUR_MS + minute * MINUTE_MS + second * SECOND_MS;
          for (const instant of instantsFor(oracle, offsets, wall, dst)) if (instant >= fromMs && instant < toMs) slots.add(instant);
        }
      }
    }
  }
  return [...slots].sort((a, b) => a - b);
}

function instantsFor(oracle: OracleZone, offsets: number[], wall: number, dst: DstPolicy): number[] {
  const real = [...new Set(offsets.map((offset) => wall - offset))].filter((instant) => withinOracle(oracle, instant) && instant + oracle.offsetAt(instant) === wall).sort((a, b) => a - b);
  if (real.length === 1) return real;
  if (real.length >= 2) {
    if (dst.fold === 'both') return real;
    return [dst.fold === 'first' ? real[0]! : real[real.length - 1]!];
  }
  if (dst.gap === 'skip') return [];
  // In a gap: the same wall time shifted by the gap's length, i.e. read with the offset before it.
  const gap = oracle.transitions.find((t) => t.offsetAfterMs > t.offsetBeforeMs && t.atMs + t.offsetBeforeMs <= wall && wall < t.atMs + t.offsetAfterMs);
  return gap ? [wall - gap.offsetBeforeMs] : [];
}

function withinOracle(oracle: OracleZone, instant: number): boolean {
  return instant >= oracle.fromMs - SECOND_MS && instant < oracle.toMs;
}

/** Slots in [fromMs, toMs) per SPEC §4. The oracle must cover the window with a day or two to spare. */
export function bruteForceSlots(oracle: OracleZone, fields: CronFields, dayMatch: 'any' | 'all' | undefined, dst: DstPolicy, fromMs: number, toMs: number): number[] {
  return fields.intervalLike ? scanRealInstants(oracle, fields, dayMatch, fromMs, toMs) : walkLocalDays(oracle, fields, dayMatch, dst, fromMs, toMs);
}

/**
 * Whether [fromMs, toMs) holds every instant of local day `day`. Instants of one local day need not
 * be contiguous (a repeated hour across midnight interleaves two days), but offsets stay within
 * ±16 hours, so a margin that wide is enough.
 */
export function coversLocalDay(fromMs: number, toMs: number, day: number): boolean {
  return fromMs <= day * DAY_MS - 16 * HOUR_MS && (day + 1) * DAY_MS + 16 * HOUR_MS <= toMs;
}

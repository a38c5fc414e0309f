/**
 * Time-zone offsets and the mapping from local wall time to UTC instants.
 *
 * Offsets come from the platform's IANA database through Intl (`zone-offset.ts`). Per zone we build, lazily and
 * per calendar year, a table of transitions (found by sampling daily and bisecting to the
 * second), so that the hot paths (slot iteration, runs-per-day) do binary searches instead of
 * Intl calls. Assumption, documented: a zone changes offset at most once in any 24 hours.
 */
import { MS_PER_DAY, MS_PER_MINUTE, MS_PER_SECOND } from './civil.js';
import { isKnownZone, ZoneOffsetReader } from './zone-offset.js';

export interface Transition {
  /** The UTC instant at which the new offset starts. */
  atMs: number;
  offsetBeforeMs: number;
  offsetAfterMs: number;
}

interface YearTable {
  startOffsetMs: number;
  transitions: Transition[];
}

const MAX_DATE_MS = 8.64e15;
const FIXED_OFFSET_PATTERN = /^(UTC|GMT|Z)?\s*[+-]\s*\d{1,2}(:?\d{2})?$/i;

/** Asking Intl costs tens of microseconds, and a repository names the same few zones thousands of times. */
const validity = new Map<string, boolean>();
const VALIDITY_CACHE_LIMIT = 1_000;

export function isValidTimezone(name: string): boolean {
  if (isUtc(name)) return true;
  // Bare abbreviations (EST, KST, CET…) are rejected even where Intl accepts them: several are
  // fixed offsets that silently ignore DST, and the others are ambiguous to readers.
  if (!name.includes('/')) return false;
  let valid = validity.get(name);
  if (valid === undefined) {
    valid = isKnownZone(name);
    if (validity.size < VALIDITY_CACHE_LIMIT) validity.set(name, valid);
  }
  return valid;
}

function isUtc(name: string): boolean {
  return name === 'UTC' || name === 'Etc/UTC';
}

export function isFixedOffsetName(name: string): boolean {
  return FIXED_OFFSET_PATTERN.test(name.trim());
}

const ZONE_HINTS: Record<string, string> = {
  KST: 'Asia/Seoul',
  JST: 'Asia/Tokyo',
  CST: 'America/Chicago (or Asia/Shanghai)',
  EST: 'America/New_York',
  EDT: 'America/New_York',
  PST: 'America/Los_Angeles',
  PDT: 'America/Los_Angeles',
  MST: 'America/Denver',
  CET: 'Europe/Berlin',
  CEST: 'Europe/Berlin',
  BST: 'Europe/London',
  GMT: 'Europe/London (or UTC)',
  IST: 'Asia/Kolkata (or Europe/Dublin)',
  AEST: 'Australia/Sydney',
  AEDT: 'Australia/Sydney',
};

export function suggestTimezone(name: string): string | undefined {
  const known = ZONE_HINTS[name.toUpperCase()];
  if (known) return `use an IANA zone name such as ${known}`;
  if (isFixedOffsetName(name)) return 'fixed offsets are rejected: name the place, e.g. Asia/Seoul for +09:00, or use Etc/GMT-9 if you really mean a fixed offset (note the inverted sign)';
  const lower = name.toLowerCase();
  const match = Intl.supportedValuesOf('timeZone').find((zone) => zone.toLowerCase() === lower || zone.toLowerCase().endsWith(`/${lower}`));
  return match ? `did you mean "${match}"?` : 'use an IANA zone name, e.g. Europe/Berlin or America/New_York';
}

export class ZoneRules {
  /** Undefined for UTC, whose offset is always 0: a UTC-only repository then never starts Intl's time zones (~15-30 ms). */
  private readonly offsets: ZoneOffsetReader | undefined;
  private readonly years = new Map<number, YearTable>();
  private lastYear = Number.NaN;
  private lastYearStartMs = Number.POSITIVE_INFINITY;
  private lastYearEndMs = Number.NEGATIVE_INFINITY;

  constructor(readonly name: string) {
    if (isUtc(name)) {
      this.offsets = undefined;
      return;
    }
    if (!isKnownZone(name)) throw new Error(`invalid time zone ${name}`);
    this.offsets = new ZoneOffsetReader(name);
  }

  private rawOffsetMs(utcMs: number): number {
    if (this.offsets) return this.offsets.offsetMinutes(utcMs) * MS_PER_MINUTE;
    // NaN beyond the instants a Date can hold, as for every other zone.
    return Math.abs(utcMs) <= MAX_DATE_MS ? 0 : Number.NaN;
  }

  private tableFor(year: number): YearTable {
    let table = this.years.get(year);
    if (!table) {
      table = this.buildYear(year);
      this.years.set(year, table);
    }
    return table;
  }

  private buildYear(year: number): YearTable {
    const startMs = Date.UTC(year, 0, 1);
    const endMs = Date.UTC(year + 1, 0, 1);
    // The table starts with the offset of the second before the year: a transition exactly at
    // 1 January 00:00 UTC (Antarctica/Casey 1969, Europe/Lisbon 1912…) is this year's first one.
    // Sampling from the year's first instant would start after it, and the previous year's table
    // stops before it, so it fell in neither and the year before kept its offset.
    const startOffsetMs = this.rawOffsetMs(startMs - MS_PER_SECOND);
    const offsetAtStart = this.rawOffsetMs(startMs);
    const transitions: Transition[] = [];
    if (!Object.is(offsetAtStart, startOffsetMs)) transitions.push({ atMs: startMs, offsetBeforeMs: startOffsetMs, offsetAfterMs: offsetAtStart });
    let previousMs = startMs;
    let previousOffset = offsetAtStart;
    for (let sampleMs = startMs + MS_PER_DAY; sampleMs <= endMs; sampleMs += MS_PER_DAY) {
      const offset = this.rawOffsetMs(sampleMs);
      if (offset !== previousOffset) {
        transitions.push({ atMs: this.bisect(previousMs, sampleMs, previousOffset), offsetBeforeMs: previousOffset, offsetAfterMs: offset });
        previousOffset = offset;
      }
      previousMs = sampleMs;
    }
    // A transition exactly at the year boundary belongs to the next year's table.
    return { startOffsetMs, transitions: transitions.filter((t) => t.atMs < endMs) };
  }

  /** Smallest instant in (lowMs, highMs] whose offset differs from `offsetAtLow`, to the second. */
  private bisect(lowMs: number, highMs: number, offsetAtLow: number): number {
    let low = lowMs;
    let high = highMs;
    while (high - low > MS_PER_SECOND) {
      const mid = low + Math.floor((high - low) / 2 / MS_PER_SECOND) * MS_PER_SECOND;
      if (this.rawOffsetMs(mid) === offsetAtLow) low = mid;
      else high = mid;
    }
    return high;
  }

  /** The UTC year of an instant; the last year asked is kept, as callers walk days in order. */
  private yearOf(utcMs: number): number {
    if (utcMs >= this.lastYearStartMs && utcMs < this.lastYearEndMs) return this.lastYear;
    const year = new Date(utcMs).getUTCFullYear();
    this.lastYear = year;
    this.lastYearStartMs = Date.UTC(year, 0, 1);
    this.lastYearEndMs = Date.UTC(year + 1, 0, 1);
    return year;
  }

  offsetAt(utcMs: number): number {
    const table = this.tableFor(this.yearOf(utcMs));
    let offset = table.startOffsetMs;
    for (const transition of table.transitions) {
      if (transition.atMs > utcMs) break;
      offset = transition.offsetAfterMs;
    }
    return offset;
  }

  /** Transitions with `fromMs <= atMs < toMs`, in order. */
  transitionsBetween(fromMs: number, toMs: number): Transition[] {
    const result: Transition[] = [];
    const firstYear = new Date(fromMs).getUTCFullYear();
    const lastYear = new Date(toMs).getUTCFullYear();
    for (let year = firstYear; year <= lastYear; year += 1) {
      for (const transition of this.tableFor(year).transitions) {
        if (transition.atMs >= fromMs && transition.atMs < toMs) result.push(transition);
      }
    }
    return result;
  }

  hasTransitionNear(wallMs: number, spanMs: number): boolean {
    // transitionsBetween(from, to).length > 0, without building the list: asked for every day of
    // every schedule when counting runs per day.
    const fromMs = wallMs - spanMs - MS_PER_DAY;
    const toMs = wallMs + spanMs + MS_PER_DAY;
    const lastYear = this.yearOf(toMs);
    for (let year = this.yearOf(fromMs); year <= lastYear; year += 1) {
      for (const transition of this.tableFor(year).transitions) if (transition.atMs >= fromMs && transition.atMs < toMs) return true;
    }
    return false;
  }

  /**
   * All UTC instants whose local wall time is `wallMs` (local-as-UTC milliseconds): one normally,
   * none in a DST gap, two in a DST fold (in order).
   */
  instantsForWall(wallMs: number): number[] {
    const before = this.offsetAt(wallMs - MS_PER_DAY);
    const after = this.offsetAt(wallMs + MS_PER_DAY);
    const instants: number[] = [];
    for (const offset of before === after ? [before] : [before, after]) {
      const candidate = wallMs - offset;
      if (this.offsetAt(candidate) === offset) instants.push(candidate);
    }
    return instants.sort((a, b) => a - b);
  }

  /** For a wall time inside a DST gap: the instant reached by applying the offset from before the gap. */
  instantShiftedOverGap(wallMs: number): number {
    return wallMs - this.offsetAt(wallMs - MS_PER_DAY);
  }

  wallFromInstant(utcMs: number): number {
    return utcMs + this.offsetAt(utcMs);
  }
}

const cache = new Map<string, ZoneRules>();

export function getZoneRules(name: string): ZoneRules {
  let rules = cache.get(name);
  if (!rules) {
    rules = new ZoneRules(name);
    cache.set(name, rules);
  }
  return rules;
}

/**
 * Counting and ranking the slots of a due window without necessarily holding them: from an
 * enumerated list (the usual tick), or from the calendar by counting minutes (a long outage of a
 * per-second schedule, where enumerating would mean hundreds of thousands of slots).
 */
import type { Definition } from '../../compile/definition.js';
import { countSlotsBetween } from '../../time/timing-cache.js';
import { MS_PER_MINUTE } from '../../time/civil.js';

export interface SlotIndex {
  /** Slots with fromMs <= slot < toMs (finite bounds). */
  count(fromMs: number, toMs: number): number;
  /** The n-th newest slot (n >= 1) of [fromMs, toMs); the caller guarantees there are at least n. */
  nthNewest(fromMs: number, toMs: number, n: number): number;
}

function lowerBound(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

export function createListIndex(sortedSlots: readonly number[]): SlotIndex {
  return {
    count: (fromMs, toMs) => Math.max(0, lowerBound(sortedSlots, toMs) - lowerBound(sortedSlots, fromMs)),
    nthNewest: (_fromMs, toMs, n) => sortedSlots[lowerBound(sortedSlots, toMs) - n]!,
  };
}

export function createCalendarIndex(definition: Definition): SlotIndex {
  const count = (fromMs: number, toMs: number) => (fromMs < toMs ? countSlotsBetween(definition, fromMs, toMs) : 0);
  return {
    count,
    nthNewest(fromMs, toMs, n) {
      // Gallop back from toMs until the window holds n slots, then bisect to the millisecond: the
      // counts stay proportional to the newest n slots, not to the length of the outage.
      // Invariant: count(low, toMs) >= n > count(high, toMs); the answer is the largest such low.
      let high = toMs;
      let low = fromMs;
      for (let spanMs = MS_PER_MINUTE; toMs - spanMs > fromMs; spanMs *= 2) {
        if (count(toMs - spanMs, toMs) >= n) {
          low = toMs - spanMs;
          break;
        }
        high = toMs - spanMs;
      }
      while (high - low > 1) {
        const mid = low + Math.floor((high - low) / 2);
        if (count(mid, toMs) >= n) low = mid;
        else high = mid;
      }
      return low;
    },
  };
}

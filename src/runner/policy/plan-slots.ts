/**
 * The scheduler's decision for one due schedule (SPEC §7): every slot in [nextRunAtMs, horizonMs]
 * becomes exactly one planned row, in ascending slot order, and `nextRunAtMs` moves past them.
 * The caller inserts the rows, then advances next_run_at, in one transaction.
 *
 * No slot vanishes silently, but a tick writes at most `maxRowsPerTick` rows: after a very long
 * outage the OLDEST excess slots are folded into a summary row (status MISSED, the reason they
 * would have had, `summarizedSlots` = how many). Folded slots are counted by minutes, never
 * enumerated, so a `* * * * * *` schedule after a 2-day outage plans in milliseconds. Folded
 * slots with different reasons (a pause ending mid-outage, the grace boundary…) get one summary
 * row per reason, so there can be up to four; the usual long outage has one (GRACE_EXCEEDED).
 * A folded slot that would have run (or waited for approval) is summarized as MISFIRE: a tick
 * would rather lose the replay of its oldest slots than write an unbounded number of rows.
 */
import type { Definition } from '../../compile/definition.js';
import { calendarForDefinition } from '../../time/timing-cache.js';
import type { SlotCalendar } from '../../time/slots.js';
import { nextSlot } from '../../time/slots.js';
import type { PlannedSlot } from '../run-types.js';
import type { SkipReason } from '../../db/run-vocabulary.js';
import { businessDateFor } from './business-date.js';
import { buildDueSlotRules, type DueSlotRules, type SlotDecision } from './due-slot-rules.js';
import { jitterFor } from './jitter.js';
import { createCalendarIndex, createListIndex, type SlotIndex } from './slot-index.js';

export const DEFAULT_MAX_ROWS_PER_TICK = 1000;
/** Room for the (at most four) summary rows plus at least one slot of its own. */
export const MIN_ROWS_PER_TICK = 5;

export interface DueSlotsInput {
  name: string;
  definition: Definition;
  /** First slot not yet turned into a run. */
  nextRunAtMs: number;
  nowMs: number;
  /**
   * Slots up to this instant become runs now (default: nowMs). The runner plans a moment ahead so
   * that only the claim stands between a slot and its start; a run planned ahead waits QUEUED
   * until its run_after. Lateness (misfire, grace) is still judged at nowMs.
   */
  horizonMs?: number;
  misfireThresholdMs: number;
  paused: { untilMs: number | null } | null;
  maxRowsPerTick?: number;
}

export interface DueSlotsPlan {
  slots: PlannedSlot[];
  /** First slot strictly after the horizon (and not before the input nextRunAtMs); null if none within 8 years. */
  nextRunAtMs: number | null;
}

export function planDueSlots(input: DueSlotsInput): DueSlotsPlan {
  const maxRows = input.maxRowsPerTick ?? DEFAULT_MAX_ROWS_PER_TICK;
  if (!Number.isInteger(maxRows) || maxRows < MIN_ROWS_PER_TICK) throw new RangeError(`maxRowsPerTick must be an integer >= ${MIN_ROWS_PER_TICK} (got ${maxRows})`);
  // A disabled schedule keeps its history and has no next run (SPEC §3.1 `enabled`).
  if (!input.definition.enabled) return { slots: [], nextRunAtMs: null };

  const calendar = calendarForDefinition(input.definition);
  const horizonMs = Math.max(input.nowMs, input.horizonMs ?? input.nowMs);
  const nextRunAtMs = nextSlot(calendar, Math.max(horizonMs, input.nextRunAtMs - 1)) ?? null;
  if (input.nextRunAtMs > horizonMs) return { slots: [], nextRunAtMs };

  const window = { ...input, horizonMs, fromMs: input.nextRunAtMs };
  // One more than fits tells us whether this is a long outage, without counting anything.
  const due = takeSlots(calendar, input.nextRunAtMs, horizonMs, maxRows + 1);
  if (due.length <= maxRows) {
    const rules = buildDueSlotRules(window, createListIndex(due));
    return { slots: toRows(input, due, rules, nextRunAtMs), nextRunAtMs };
  }

  const index = createCalendarIndex(input.definition);
  const rules = buildDueSlotRules(window, index);
  const endMs = horizonMs + 1;
  let summaries: PlannedSlot[] = [];
  let firstKeptMs = endMs;
  // Each summary row takes the place of a slot row; more reasons in the fold → fewer slot rows.
  // The number of summary rows only grows with the fold and is at most 4, so this ends quickly.
  for (let reserved = 1; ; reserved = summaries.length) {
    firstKeptMs = index.nthNewest(input.nextRunAtMs, endMs, maxRows - reserved);
    summaries = foldSlots(input, calendar, index, rules, firstKeptMs);
    if (summaries.length <= reserved) break;
  }
  const kept = takeSlots(calendar, firstKeptMs, horizonMs, maxRows);
  return { slots: [...summaries, ...toRows(input, kept, rules, nextRunAtMs)], nextRunAtMs };
}

/** Slots with fromMs <= slot <= toMs, at most `limit`. */
function takeSlots(calendar: SlotCalendar, fromMs: number, toMs: number, limit: number): number[] {
  const slots: number[] = [];
  for (const slot of calendar.iterate(fromMs - 1)) {
    if (slot > toMs || slots.length >= limit) break;
    slots.push(slot);
  }
  return slots;
}

function toRows(input: DueSlotsInput, slots: number[], rules: DueSlotRules, nextAfterLastMs: number | null): PlannedSlot[] {
  const { definition } = input;
  return slots.map((slotMs, position) => {
    const decision = rules.decide(slotMs);
    const nextMs = slots[position + 1] ?? nextAfterLastMs;
    return {
      scheduledForMs: slotMs,
      status: decision.status,
      reason: decision.reason,
      runAfterMs: slotMs + jitterFor(input.name, slotMs, definition.jitterMs, nextMs),
      businessDate: businessDateFor(slotMs, definition.timezone, definition.businessDate.offsetDays),
      summarizedSlots: null,
    };
  });
}

function summaryReason(decision: SlotDecision): SkipReason {
  return decision.status === 'SKIPPED' ? decision.reason : 'MISFIRE';
}

/** Summary rows for the slots in [window start, endMs): one per run of equal reasons, oldest first. */
function foldSlots(input: DueSlotsInput, calendar: SlotCalendar, index: SlotIndex, rules: DueSlotRules, endMs: number): PlannedSlot[] {
  const { definition } = input;
  const cuts = [input.nextRunAtMs, ...rules.cutPoints.filter((cut) => cut > input.nextRunAtMs && cut < endMs), endMs].sort((a, b) => a - b);
  const rows: PlannedSlot[] = [];
  for (let position = 0; position + 1 < cuts.length; position += 1) {
    const fromMs = cuts[position]!;
    const count = index.count(fromMs, cuts[position + 1]!);
    if (count === 0) continue;
    // `decide` is constant between two cut points, so the range's start stands for all its slots.
    const reason = summaryReason(rules.decide(fromMs));
    const previous = rows[rows.length - 1];
    if (previous && previous.reason === reason) {
      previous.summarizedSlots! += count;
      continue;
    }
    const firstMs = nextSlot(calendar, fromMs - 1)!;
    rows.push({
      scheduledForMs: firstMs,
      status: 'MISSED',
      reason,
      // Never run as such: a summary row starts nothing, so it gets no jitter.
      runAfterMs: firstMs,
      businessDate: businessDateFor(firstMs, definition.timezone, definition.businessDate.offsetDays),
      summarizedSlots: count,
    });
  }
  return rows;
}

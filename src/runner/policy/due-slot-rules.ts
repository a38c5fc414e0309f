/**
 * The decision for each due slot (SPEC §7 misfire, grace, pause, approval), as thresholds on the
 * slot instant so that it can be applied to one slot or to a whole range of slots at once.
 *
 * A slot's fate is the first rule that applies, in this order:
 * 1. paused (slot < until, or no until) → SKIPPED/PAUSED: the pause is why it did not run.
 * 2. older than gracePeriod (now - slot > grace) → SKIPPED/GRACE_EXCEEDED, whatever the misfire
 *    policy, MANUAL included: nobody should be asked to approve a run that is already too late.
 *    Under SKIP the old slots therefore read GRACE_EXCEEDED and the recent missed ones MISFIRE.
 * 3. on time (now - slot <= misfireThreshold) → runs.
 * 4. missed (and within grace), by policy:
 *    SKIP → SKIPPED/MISFIRE; MANUAL → MANUAL_REQUIRED;
 *    RUN_ONCE → the latest missed slot runs, the others SKIPPED/MISFIRE; but when an on-time slot
 *      runs in the same tick none of the missed ones does: the on-time run already brings the job
 *      up to date, and RUN_ONCE means at most one run for the outage;
 *    CATCH_UP_ALL → the newest maxCatchUp missed slots run (oldest first), older ones
 *      SKIPPED/CATCH_UP_CAP. On-time slots do not count against the cap: they are not catch-up.
 * "Runs" means QUEUED, or MANUAL_REQUIRED when the schedule needs approval.
 */
import type { Definition } from '../../compile/definition.js';
import type { SkipReason } from '../../db/run-vocabulary.js';
import type { SlotIndex } from './slot-index.js';

export type SlotDecision = { status: 'QUEUED' | 'MANUAL_REQUIRED'; reason: null } | { status: 'SKIPPED'; reason: SkipReason };

export interface DueWindow {
  definition: Definition;
  /** First slot not yet turned into a run: the window is [fromMs, horizonMs]. */
  fromMs: number;
  /** When the decision is made: slots older than nowMs - misfireThreshold are missed. */
  nowMs: number;
  /** Last instant whose slots are planned now (default nowMs); later than nowMs when planning ahead. */
  horizonMs?: number;
  misfireThresholdMs: number;
  paused: { untilMs: number | null } | null;
}

export interface DueSlotRules {
  decide(slotMs: number): SlotDecision;
  /** Every instant at which `decide` may change: between two of them it is constant. */
  cutPoints: number[];
}

const skipped = (reason: SkipReason): SlotDecision => ({ status: 'SKIPPED', reason });

export function buildDueSlotRules(window: DueWindow, index: SlotIndex): DueSlotRules {
  const { definition, fromMs, nowMs } = window;
  const endMs = Math.max(nowMs, window.horizonMs ?? nowMs) + 1;
  const pausedBeforeMs = window.paused === null ? Number.NEGATIVE_INFINITY : (window.paused.untilMs ?? Number.POSITIVE_INFINITY);
  const graceFromMs = nowMs - definition.gracePeriodMs;
  const onTimeFromMs = nowMs - window.misfireThresholdMs;

  // Missed slots that the policy may still run: not paused, within grace, later than the threshold.
  const missedFromMs = Math.max(fromMs, pausedBeforeMs, graceFromMs);
  const missedEndMs = Math.min(onTimeFromMs, endMs);
  const missedCount = missedFromMs < missedEndMs ? index.count(missedFromMs, missedEndMs) : 0;
  const onTimeFromEligibleMs = Math.max(missedFromMs, onTimeFromMs);
  const onTimeCount = onTimeFromEligibleMs < endMs ? index.count(onTimeFromEligibleMs, endMs) : 0;

  /** Missed slots at or after this instant run (newest first by rank); earlier ones are skipped. */
  let runFromMs = Number.POSITIVE_INFINITY;
  if (definition.misfire === 'RUN_ONCE' && onTimeCount === 0 && missedCount > 0) {
    runFromMs = index.nthNewest(missedFromMs, missedEndMs, 1);
  } else if (definition.misfire === 'CATCH_UP_ALL' && definition.maxCatchUp > 0) {
    runFromMs = missedCount > definition.maxCatchUp ? index.nthNewest(missedFromMs, missedEndMs, definition.maxCatchUp) : Number.NEGATIVE_INFINITY;
  }

  const run: SlotDecision = { status: definition.approval === 'required' ? 'MANUAL_REQUIRED' : 'QUEUED', reason: null };
  const missedSkip = skipped(definition.misfire === 'CATCH_UP_ALL' ? 'CATCH_UP_CAP' : 'MISFIRE');
  return {
    decide(slotMs) {
      if (slotMs < pausedBeforeMs) return skipped('PAUSED');
      if (slotMs < graceFromMs) return skipped('GRACE_EXCEEDED');
      if (slotMs >= onTimeFromMs) return run;
      if (definition.misfire === 'MANUAL') return { status: 'MANUAL_REQUIRED', reason: null };
      return slotMs >= runFromMs ? run : missedSkip;
    },
    cutPoints: [pausedBeforeMs, graceFromMs, onTimeFromMs, runFromMs].filter(Number.isFinite),
  };
}

/**
 * Overlap (SPEC §7), applied to the slots the scheduler just planned, in slot order. "Active" =
 * QUEUED, RUNNING or RETRY_PENDING of the same schedule: `hasActiveRun` says whether one exists in
 * the database, and every slot this batch leaves QUEUED becomes active for the slots after it.
 *
 * MANUAL_REQUIRED slots are neither active nor affected: they hold no execution slot until someone
 * approves them, possibly much later, and approve applies overlap at that moment (→ QUEUED, or
 * PENDING behind an active run). Deciding now would judge them against runs that will be long gone.
 */
import type { Overlap } from '../../compile/definition.js';
import type { PlannedSlot } from '../run-types.js';

export function applyOverlap(slots: PlannedSlot[], overlap: Overlap, hasActiveRun: boolean): PlannedSlot[] {
  let active = hasActiveRun;
  return slots.map((slot) => {
    if (slot.status !== 'QUEUED') return slot;
    if (!active || overlap === 'ALLOW') {
      active = true;
      return slot;
    }
    // QUEUE_NEW: PENDING runs are promoted one at a time, in slot order, when the active run ends.
    if (overlap === 'QUEUE_NEW') return { ...slot, status: 'PENDING', reason: null };
    return { ...slot, status: 'SKIPPED', reason: 'OVERLAP' };
  });
}

/**
 * Deadline slots (docs/workflows.md, Dependencies): a dependent that has a cron as well as
 * `spec.after` runs when its upstream succeeds (a DEPENDENCY run), and its own slots only check
 * that this happened in time. A slot that would have run becomes SKIPPED/UPSTREAM_SUCCEEDED when a
 * DEPENDENCY run exists for the slot's business date, else MISSED/UPSTREAM_NOT_READY: a final
 * status the missed-slot alert rules and `report` count. An upstream that succeeds after the
 * deadline still creates its DEPENDENCY run (late data beats none); the MISSED row stays as the
 * record that it was late. Pure: the caller looks up which dates are met.
 */
import type { Definition } from '../../compile/definition.js';
import type { PlannedSlot } from '../run-types.js';

export function isDeadlineSchedule(definition: Definition): boolean {
  return definition.cron !== null && (definition.after?.length ?? 0) > 0;
}

export function applyDeadlines(slots: PlannedSlot[], metDates: ReadonlySet<string>): PlannedSlot[] {
  return slots.map((slot) => {
    if (slot.status !== 'QUEUED' && slot.status !== 'PENDING' && slot.status !== 'MANUAL_REQUIRED') return slot;
    return metDates.has(slot.businessDate)
      ? { ...slot, status: 'SKIPPED', reason: 'UPSTREAM_SUCCEEDED' }
      : { ...slot, status: 'MISSED', reason: 'UPSTREAM_NOT_READY' };
  });
}

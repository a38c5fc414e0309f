/**
 * What a backfill does with each slot (SPEC §7 operations), decided purely from the slots and the
 * SCHEDULED/BACKFILL runs that already exist for them:
 * - no run yet → a new BACKFILL run (the default: only missing slots);
 * - `--reprocess failed`: a slot whose run ended FAILED, MISSED or SKIPPED runs again: its BACKFILL
 *   run is put back in line, or, when only the SCHEDULED run exists, a new BACKFILL run is created
 *   (the scheduled run keeps its history);
 * - `--reprocess all`: the same for every slot whose run has ended, whatever the outcome.
 * A slot whose BACKFILL run has not ended (waiting, queued, running) is never touched: it is
 * already being processed. The BACKFILL run of a slot, when there is one, is what counts.
 */
import type { RunStatus, TriggerType } from '../../db/run-vocabulary.js';

export type Reprocess = 'none' | 'failed' | 'all';

export interface ExistingSlotRun {
  id: number;
  scheduledForMs: number;
  triggerType: TriggerType;
  status: RunStatus;
}

export type SlotAction = { slotMs: number; action: 'create' } | { slotMs: number; action: 'requeue'; run: ExistingSlotRun };

const FAILED_OUTCOMES: readonly RunStatus[] = ['FAILED', 'MISSED', 'SKIPPED'];
const ENDED: readonly RunStatus[] = ['SUCCESS', 'PARTIAL_SUCCESS', 'FAILED', 'MISSED', 'SKIPPED', 'CANCELLED'];

function reprocesses(status: RunStatus, reprocess: Reprocess): boolean {
  if (reprocess === 'failed') return FAILED_OUTCOMES.includes(status);
  if (reprocess === 'all') return ENDED.includes(status);
  return false;
}

/** Slots ascending in, actions ascending out; slots that need nothing are left out. */
export function planBackfillSlots(slotsMs: readonly number[], existing: readonly ExistingSlotRun[], reprocess: Reprocess): SlotAction[] {
  const bySlot = new Map<number, { scheduled?: ExistingSlotRun; backfill?: ExistingSlotRun }>();
  for (const run of existing) {
    const entry = bySlot.get(run.scheduledForMs) ?? {};
    if (run.triggerType === 'BACKFILL') entry.backfill = run;
    else if (run.triggerType === 'SCHEDULED') entry.scheduled = run;
    bySlot.set(run.scheduledForMs, entry);
  }
  const actions: SlotAction[] = [];
  for (const slotMs of slotsMs) {
    const { scheduled, backfill } = bySlot.get(slotMs) ?? {};
    if (backfill) {
      if (reprocesses(backfill.status, reprocess)) actions.push({ slotMs, action: 'requeue', run: backfill });
    } else if (!scheduled || reprocesses(scheduled.status, reprocess)) {
      actions.push({ slotMs, action: 'create' });
    }
  }
  return actions;
}

import { describe, expect, it } from 'vitest';
import type { Overlap } from '../../../src/compile/definition.js';
import { applyOverlap } from '../../../src/runner/policy/overlap.js';
import type { PlannedSlot } from '../../../src/runner/run-types.js';
import { at, HOUR_MS } from './definition-fixture.js';

const FIRST = at('2026-03-03T00:00:00Z');

function slot(index: number, status: PlannedSlot['status'], reason: PlannedSlot['reason'] = null): PlannedSlot {
  const scheduledForMs = FIRST + index * HOUR_MS;
  return { scheduledForMs, status, reason, runAfterMs: scheduledForMs + 1234, businessDate: '2026-03-03', summarizedSlots: null };
}

// A batch with a skip, two runnable slots around a slot waiting for approval, and a last runnable one.
const BATCH: PlannedSlot[] = [slot(0, 'SKIPPED', 'MISFIRE'), slot(1, 'QUEUED'), slot(2, 'MANUAL_REQUIRED'), slot(3, 'QUEUED'), slot(4, 'QUEUED')];

const decisions = (slots: PlannedSlot[]) => slots.map((planned) => `${planned.status}${planned.reason ? `/${planned.reason}` : ''}`);

describe('applyOverlap', () => {
  it.each<{ overlap: Overlap; hasActiveRun: boolean; expected: string[] }>([
    { overlap: 'ALLOW', hasActiveRun: false, expected: ['SKIPPED/MISFIRE', 'QUEUED', 'MANUAL_REQUIRED', 'QUEUED', 'QUEUED'] },
    { overlap: 'ALLOW', hasActiveRun: true, expected: ['SKIPPED/MISFIRE', 'QUEUED', 'MANUAL_REQUIRED', 'QUEUED', 'QUEUED'] },
    { overlap: 'SKIP_NEW', hasActiveRun: false, expected: ['SKIPPED/MISFIRE', 'QUEUED', 'MANUAL_REQUIRED', 'SKIPPED/OVERLAP', 'SKIPPED/OVERLAP'] },
    { overlap: 'SKIP_NEW', hasActiveRun: true, expected: ['SKIPPED/MISFIRE', 'SKIPPED/OVERLAP', 'MANUAL_REQUIRED', 'SKIPPED/OVERLAP', 'SKIPPED/OVERLAP'] },
    { overlap: 'QUEUE_NEW', hasActiveRun: false, expected: ['SKIPPED/MISFIRE', 'QUEUED', 'MANUAL_REQUIRED', 'PENDING', 'PENDING'] },
    { overlap: 'QUEUE_NEW', hasActiveRun: true, expected: ['SKIPPED/MISFIRE', 'PENDING', 'MANUAL_REQUIRED', 'PENDING', 'PENDING'] },
  ])('$overlap with an active run: $hasActiveRun', ({ overlap, hasActiveRun, expected }) => {
    expect(decisions(applyOverlap(BATCH, overlap, hasActiveRun))).toEqual(expected);
  });

  it('keeps slot order, instants, start times and business dates, and does not touch its input', () => {
    const before = structuredClone(BATCH);
    const result = applyOverlap(BATCH, 'QUEUE_NEW', true);
    expect(BATCH).toEqual(before);
    expect(result.map(({ scheduledForMs, runAfterMs, businessDate }) => ({ scheduledForMs, runAfterMs, businessDate }))).toEqual(
      BATCH.map(({ scheduledForMs, runAfterMs, businessDate }) => ({ scheduledForMs, runAfterMs, businessDate })),
    );
  });

  it('a MANUAL_REQUIRED slot alone never makes later slots wait: it is not active', () => {
    expect(decisions(applyOverlap([slot(0, 'MANUAL_REQUIRED'), slot(1, 'QUEUED')], 'SKIP_NEW', false))).toEqual(['MANUAL_REQUIRED', 'QUEUED']);
  });

  it('an empty batch stays empty', () => {
    expect(applyOverlap([], 'SKIP_NEW', true)).toEqual([]);
  });
});

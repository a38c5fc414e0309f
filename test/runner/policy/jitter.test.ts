import { describe, expect, it } from 'vitest';
import { jitterFor } from '../../../src/runner/policy/jitter.js';
import { at, HOUR_MS } from './definition-fixture.js';

const SLOT = at('2026-03-01T10:30:00Z');
const TEN_MINUTES_MS = 600_000;

describe('jitterFor', () => {
  it('is a fixed function of (schedule, slot): pinned, because every runner version must agree', () => {
    expect(jitterFor('daily-report', SLOT, TEN_MINUTES_MS, null)).toBe(95_010);
    expect(jitterFor('daily-report', at('2026-03-02T10:30:00Z'), TEN_MINUTES_MS, null)).toBe(84_178);
    expect(jitterFor('nightly-export', SLOT, TEN_MINUTES_MS, null)).toBe(72_667);
    expect(jitterFor('daily-report', SLOT, TEN_MINUTES_MS, null)).toBe(jitterFor('daily-report', SLOT, TEN_MINUTES_MS, SLOT + 2 * HOUR_MS));
  });

  it.each([
    { case: 'no jitter', jitterMs: 0, nextSlotMs: null, expected: 0 },
    { case: 'next slot 1 s later, 1 h of jitter', jitterMs: HOUR_MS, nextSlotMs: SLOT + 1000, expected: 999 },
    { case: 'next slot 1 ms later', jitterMs: HOUR_MS, nextSlotMs: SLOT + 1, expected: 0 },
    { case: 'jitter of 1 ms', jitterMs: 1, nextSlotMs: null, expected: 0 },
  ])('$case → $expected', ({ jitterMs, nextSlotMs, expected }) => {
    expect(jitterFor('daily-report', SLOT, jitterMs, nextSlotMs)).toBe(expected);
  });

  it('stays in [0, jitterMs) and strictly before the next slot, and spreads slots over the range', () => {
    const spreads: number[] = [];
    for (let hour = 0; hour < 2000; hour += 1) {
      const slotMs = SLOT + hour * HOUR_MS;
      const spread = jitterFor('hourly-sync', slotMs, TEN_MINUTES_MS, slotMs + HOUR_MS);
      expect(spread).toBeGreaterThanOrEqual(0);
      expect(spread).toBeLessThan(TEN_MINUTES_MS);
      spreads.push(spread);
    }
    expect(new Set(spreads).size).toBeGreaterThan(1990);
    const meanMs = spreads.reduce((sum, spread) => sum + spread, 0) / spreads.length;
    expect(meanMs).toBeGreaterThan(0.45 * TEN_MINUTES_MS);
    expect(meanMs).toBeLessThan(0.55 * TEN_MINUTES_MS);
    // Each tenth of the range gets between 5% and 15% of the slots.
    for (let decile = 0; decile < 10; decile += 1) {
      const share = spreads.filter((spread) => Math.floor(spread / (TEN_MINUTES_MS / 10)) === decile).length / spreads.length;
      expect(share).toBeGreaterThan(0.05);
      expect(share).toBeLessThan(0.15);
    }
  });

  it('never reaches the next slot, whatever the jitter', () => {
    for (let second = 0; second < 500; second += 1) {
      const slotMs = SLOT + second * 1000;
      expect(jitterFor('per-second', slotMs, HOUR_MS, slotMs + 1000)).toBeLessThanOrEqual(999);
    }
  });
});

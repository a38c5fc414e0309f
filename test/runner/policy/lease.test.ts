import { describe, expect, it } from 'vitest';
import type { OnStall, RetryDefinition } from '../../../src/compile/definition.js';
import { fenceDeadlineMs, isLeaseExpired, leaseExpiresAt, stallDecision, stallResolvableAtMs, STOP_MARGIN_MS } from '../../../src/runner/policy/lease.js';
import { at } from './definition-fixture.js';

const NOW = at('2026-03-03T00:00:00Z');
const RETRY: RetryDefinition = { maxAttempts: 3, backoff: 'exponential', initialDelayMs: 30_000, maxDelayMs: 600_000 };

describe('leases', () => {
  it('expire at their expiry instant, not a millisecond later', () => {
    const expiresAtMs = leaseExpiresAt(NOW, 30_000);
    expect(expiresAtMs).toBe(at('2026-03-03T00:00:30Z'));
    expect(isLeaseExpired(expiresAtMs, expiresAtMs - 1)).toBe(false);
    expect(isLeaseExpired(expiresAtMs, expiresAtMs)).toBe(true);
    expect(isLeaseExpired(expiresAtMs, expiresAtMs + 1)).toBe(true);
  });
});

describe('stallDecision', () => {
  it.each<{ onStall: OnStall; attempts: number; expected: unknown }>([
    { onStall: 'retry', attempts: 1, expected: { status: 'RETRY_PENDING', runAfterMs: NOW + 30_000 } },
    { onStall: 'retry', attempts: 2, expected: { status: 'RETRY_PENDING', runAfterMs: NOW + 60_000 } },
    { onStall: 'retry', attempts: 3, expected: { status: 'FAILED' } }, // the stalled attempt was the last one
    { onStall: 'fail', attempts: 1, expected: { status: 'FAILED' } },
    { onStall: 'manual', attempts: 1, expected: { status: 'MANUAL_REQUIRED' } },
    { onStall: 'manual', attempts: 3, expected: { status: 'MANUAL_REQUIRED' } },
  ])('onStall $onStall after attempt $attempts of 3', ({ onStall, attempts, expected }) => {
    expect(stallDecision({ attempts, maxAttempts: 3 }, onStall, RETRY, NOW)).toEqual(expected);
  });
});

describe('when a stopped job is certainly dead, and when its run may be retried', () => {
  it('fences killGrace before expiry, but never before two heartbeats (lease/3 apart) were missed', () => {
    expect(fenceDeadlineMs(NOW + 4_000, 4_000, 1_000)).toBe(NOW + 3_000);
    expect(fenceDeadlineMs(NOW + 30_000, 30_000, 5_000)).toBe(NOW + 25_000);
    // A kill grace longer than lease/4: SIGTERM at expiry - lease/4, SIGKILL after expiry.
    expect(fenceDeadlineMs(NOW + 4_000, 4_000, 3_000)).toBe(NOW + 3_000);
  });

  it('retries only once the SIGKILL of any stop path has landed: expiry + the owner\'s kill grace + the margin', () => {
    for (const [leaseMs, killGraceMs] of [[4_000, 1_000], [4_000, 3_000], [30_000, 5_000], [2_000, 1_500]] as const) {
      const expiresMs = NOW + leaseMs;
      const resolvableMs = stallResolvableAtMs(expiresMs, killGraceMs);
      // The fence's SIGKILL (its runner alive but cut off).
      expect(fenceDeadlineMs(expiresMs, leaseMs, killGraceMs) + killGraceMs + STOP_MARGIN_MS).toBeLessThanOrEqual(resolvableMs);
      // The reaper's SIGKILL of a runner killed at the last instant of its lease.
      expect(expiresMs + killGraceMs + STOP_MARGIN_MS).toBeLessThanOrEqual(resolvableMs);
      expect(resolvableMs).toBeGreaterThan(expiresMs + killGraceMs);
    }
  });
});

import { describe, expect, it } from 'vitest';
import type { OnStall, RetryDefinition } from '../../../src/compile/definition.js';
import { isLeaseExpired, leaseExpiresAt, stallDecision } from '../../../src/runner/policy/lease.js';
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

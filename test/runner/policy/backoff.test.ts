import { describe, expect, it } from 'vitest';
import type { RetryDefinition } from '../../../src/compile/definition.js';
import { nextAttemptDecision, retryDelayMs, runStatusAfterAttempt } from '../../../src/runner/policy/backoff.js';
import { at } from './definition-fixture.js';

const EXPONENTIAL: RetryDefinition = { maxAttempts: 5, backoff: 'exponential', initialDelayMs: 30_000, maxDelayMs: 600_000 };
const FIXED: RetryDefinition = { maxAttempts: 5, backoff: 'fixed', initialDelayMs: 30_000, maxDelayMs: 600_000 };
const NOW = at('2026-03-03T00:00:00Z');

describe('retryDelayMs', () => {
  it.each([
    { attempt: 1, exponential: 30_000, fixed: 30_000 },
    { attempt: 2, exponential: 60_000, fixed: 30_000 },
    { attempt: 3, exponential: 120_000, fixed: 30_000 },
    { attempt: 4, exponential: 240_000, fixed: 30_000 },
    { attempt: 5, exponential: 480_000, fixed: 30_000 },
    { attempt: 6, exponential: 600_000, fixed: 30_000 }, // 960 s capped at maxDelay
    { attempt: 7, exponential: 600_000, fixed: 30_000 },
    { attempt: 5000, exponential: 600_000, fixed: 30_000 }, // 2^4999 overflows to Infinity; the cap still holds
  ])('after attempt $attempt: exponential $exponential ms, fixed $fixed ms', ({ attempt, exponential, fixed }) => {
    expect(retryDelayMs(EXPONENTIAL, attempt)).toBe(exponential);
    expect(retryDelayMs(FIXED, attempt)).toBe(fixed);
  });
});

describe('nextAttemptDecision', () => {
  it.each([
    { attempts: 1, maxAttempts: 3, retry: EXPONENTIAL, expected: { status: 'RETRY_PENDING', runAfterMs: NOW + 30_000 } },
    { attempts: 2, maxAttempts: 3, retry: EXPONENTIAL, expected: { status: 'RETRY_PENDING', runAfterMs: NOW + 60_000 } },
    { attempts: 2, maxAttempts: 3, retry: FIXED, expected: { status: 'RETRY_PENDING', runAfterMs: NOW + 30_000 } },
    { attempts: 3, maxAttempts: 3, retry: EXPONENTIAL, expected: { status: 'FAILED' } },
    { attempts: 1, maxAttempts: 1, retry: EXPONENTIAL, expected: { status: 'FAILED' } },
    // The run's own maxAttempts (fixed at creation) decides, not the definition's current one.
    { attempts: 5, maxAttempts: 6, retry: EXPONENTIAL, expected: { status: 'RETRY_PENDING', runAfterMs: NOW + 480_000 } },
  ])('attempt $attempts of $maxAttempts failed → $expected.status', ({ attempts, maxAttempts, retry, expected }) => {
    expect(nextAttemptDecision({ attempts, maxAttempts }, retry, NOW)).toEqual(expected);
  });
});

describe('runStatusAfterAttempt', () => {
  it.each([
    { attempt: 'SUCCEEDED', attempts: 1, retry: EXPONENTIAL, expected: { runStatus: 'SUCCESS', runAfterMs: null } },
    { attempt: 'CANCELLED', attempts: 1, retry: EXPONENTIAL, expected: { runStatus: 'CANCELLED', runAfterMs: null } },
    { attempt: 'FAILED', attempts: 1, retry: EXPONENTIAL, expected: { runStatus: 'RETRY_PENDING', runAfterMs: NOW + 30_000 } },
    { attempt: 'TIMED_OUT', attempts: 2, retry: FIXED, expected: { runStatus: 'RETRY_PENDING', runAfterMs: NOW + 30_000 } },
    { attempt: 'FAILED', attempts: 3, retry: EXPONENTIAL, expected: { runStatus: 'FAILED', runAfterMs: null } }, // none left
    { attempt: 'FAILED', attempts: 1, retry: undefined, expected: { runStatus: 'FAILED', runAfterMs: null } }, // definition missing
  ] as const)('$attempt at attempt $attempts of 3 → $expected.runStatus', ({ attempt, attempts, retry, expected }) => {
    expect(runStatusAfterAttempt(attempt, { attempts, maxAttempts: 3 }, retry, NOW)).toEqual(expected);
  });
});

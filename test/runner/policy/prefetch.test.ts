import { describe, expect, it } from 'vitest';
import { LOCAL_WAIT_MS, nextAverageDurationMs, prefetchTarget } from '../../../src/runner/policy/prefetch.js';

describe('prefetch sizing', () => {
  it.each([
    { name: 'no job has ended yet', limit: 1000, concurrency: 10, averageDurationMs: undefined, expected: 0 },
    { name: 'claiming ahead disabled', limit: 0, concurrency: 10, averageDurationMs: 0, expected: 0 },
    { name: '0 ms jobs: the limit', limit: 1000, concurrency: 10, averageDurationMs: 0, expected: 1000 },
    { name: '1 ms jobs at concurrency 10: 1,000 in 100 ms', limit: 5000, concurrency: 10, averageDurationMs: 1, expected: 1000 },
    { name: '40 ms jobs at concurrency 2', limit: 1000, concurrency: 2, averageDurationMs: 40, expected: 5 },
    { name: 'jobs of a second at concurrency 10', limit: 1000, concurrency: 10, averageDurationMs: 1000, expected: 1 },
    { name: 'jobs of 3 s at concurrency 2', limit: 1000, concurrency: 2, averageDurationMs: 3000, expected: 0 },
  ])('$name → $expected', ({ limit, concurrency, averageDurationMs, expected }) => {
    expect(prefetchTarget({ limit, concurrency, averageDurationMs })).toBe(expected);
  });

  it('waits at most LOCAL_WAIT_MS for the last run of a full local queue', () => {
    const target = prefetchTarget({ limit: 10_000, concurrency: 4, averageDurationMs: 7 });
    expect((target * 7) / 4).toBeLessThanOrEqual(LOCAL_WAIT_MS);
    expect(((target + 1) * 7) / 4).toBeGreaterThan(LOCAL_WAIT_MS);
  });

  it('averages durations with a weight of 1/5 for the newest', () => {
    expect(nextAverageDurationMs(undefined, 50)).toBe(50);
    expect(nextAverageDurationMs(50, 100)).toBe(60);
    // One slow job among fast ones moves the average, and so the local queue, only partly.
    expect(nextAverageDurationMs(1, 1001)).toBe(201);
  });
});

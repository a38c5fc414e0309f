/**
 * The one timer behind every held run's fence: which runs are due at an instant, and which
 * deadline comes next, as deadlines are set, moved by heartbeats and cleared when jobs end. The
 * timer firing itself is exercised end to end by lease-fencing.test.ts (a job stopped before its
 * unrenewed lease expires), which needs real time.
 */
import { describe, expect, it } from 'vitest';
import { LeaseFence } from '../../src/runner/lease-fence.js';

/** A fence whose timer never fires during the test (deadlines far ahead of the real clock). */
const fenceAt = (nowMs: number) => new LeaseFence<string>(() => nowMs, () => undefined);

describe('lease fence', () => {
  it('returns the runs due at an instant once, and the next deadline left', () => {
    const fence = fenceAt(0);
    fence.arm('a', 100_000);
    fence.arm('b', 200_000);
    fence.arm('c', 100_000);
    expect(fence.takeDue(99_999)).toEqual({ due: [], nextMs: 100_000 });
    expect(fence.takeDue(100_000)).toEqual({ due: ['a', 'c'], nextMs: 200_000 });
    expect(fence.takeDue(100_000)).toEqual({ due: [], nextMs: 200_000 });
    expect(fence.size).toBe(1);
  });

  it('moves a deadline when the lease is renewed, and forgets a run whose job has ended', () => {
    const fence = fenceAt(0);
    fence.arm('a', 100_000);
    fence.arm('b', 100_000);
    fence.arm('a', 300_000); // heartbeat renewed a
    fence.disarm('b'); // b's job ended
    expect(fence.takeDue(200_000)).toEqual({ due: [], nextMs: 300_000 });
    expect(fence.takeDue(300_000)).toEqual({ due: ['a'], nextMs: Number.POSITIVE_INFINITY });
    expect(fence.size).toBe(0);
  });
});

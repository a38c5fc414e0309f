/**
 * The one timer behind every held run's fence: which runs are due at an instant, and which
 * deadline comes next, as deadlines are set, moved by heartbeats and cleared when jobs end; and
 * the timer itself, on a manual clock. End to end (a job stopped before its unrenewed lease
 * expires) in lease-fencing.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { LeaseFence } from '../../src/runner/lease-fence.js';
import { ManualClock } from '../../src/shared/clock.js';

/** A fence on a manual clock at 0, and the items whose deadline it reported, with when. */
function fenceAt(nowMs: number) {
  const clock = new ManualClock(nowMs);
  const fired: Array<[string, number]> = [];
  const fence = new LeaseFence<string>(clock, (item) => fired.push([item, clock.nowMs()]));
  return { clock, fence, fired };
}

describe('lease fence', () => {
  it('returns the runs due at an instant once, and the next deadline left', () => {
    const { fence } = fenceAt(0);
    fence.arm('a', 100_000);
    fence.arm('b', 200_000);
    fence.arm('c', 100_000);
    expect(fence.takeDue(99_999)).toEqual({ due: [], nextMs: 100_000 });
    expect(fence.takeDue(100_000)).toEqual({ due: ['a', 'c'], nextMs: 200_000 });
    expect(fence.takeDue(100_000)).toEqual({ due: [], nextMs: 200_000 });
    expect(fence.size).toBe(1);
  });

  it('moves a deadline when the lease is renewed, and forgets a run whose job has ended', () => {
    const { fence } = fenceAt(0);
    fence.arm('a', 100_000);
    fence.arm('b', 100_000);
    fence.arm('a', 300_000); // heartbeat renewed a
    fence.disarm('b'); // b's job ended
    expect(fence.takeDue(200_000)).toEqual({ due: [], nextMs: 300_000 });
    expect(fence.takeDue(300_000)).toEqual({ due: ['a'], nextMs: Number.POSITIVE_INFINITY });
    expect(fence.size).toBe(0);
  });

  it('reports each run at its deadline by the clock, not before, and re-arms for the next deadline', () => {
    const { clock, fence, fired } = fenceAt(0);
    fence.arm('a', 100_000);
    fence.arm('b', 250_000);
    clock.set(99_999);
    expect(fired).toEqual([]);
    clock.set(100_000);
    expect(fired).toEqual([['a', 100_000]]);
    clock.set(300_000);
    expect(fired).toEqual([['a', 100_000], ['b', 250_000]]);
    expect(fence.size).toBe(0);
    expect(clock.nextTimerDueMs).toBeUndefined();
  });

  it('does not report a run renewed before its deadline, nor one whose job ended; its timer is gone when nothing is held', () => {
    const { clock, fence, fired } = fenceAt(0);
    fence.arm('a', 100_000);
    fence.arm('b', 100_000);
    clock.set(90_000);
    fence.arm('a', 190_000); // heartbeat renewed a
    fence.disarm('b'); // b's job ended
    clock.set(189_999);
    expect(fired).toEqual([]);
    fence.disarm('a');
    expect(clock.nextTimerDueMs).toBeUndefined();
    clock.set(1_000_000);
    expect(fired).toEqual([]);
  });

  it('moves its timer earlier for a deadline sooner than the one it is set for', () => {
    const { clock, fence, fired } = fenceAt(0);
    fence.arm('late', 200_000);
    fence.arm('soon', 50_000);
    clock.set(50_000);
    expect(fired).toEqual([['soon', 50_000]]);
  });
});

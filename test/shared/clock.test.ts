/** The manual clock's timers: what the runner's waits (leases, drains, sleeps) see under test. */
import { describe, expect, it } from 'vitest';
import { ManualClock, systemClock } from '../../src/shared/clock.js';

const T0 = Date.parse('2026-11-29T12:00:00Z');

/** Lets callbacks queued for the next turn of the event loop run. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('ManualClock timers', () => {
  it('fire when the clock reaches them, in due order, each seeing its own due time', () => {
    const clock = new ManualClock(T0);
    const fired: Array<[string, number]> = [];
    const record = (name: string) => () => fired.push([name, clock.nowMs() - T0]);
    clock.setTimer(300, record('c'));
    clock.setTimer(100, record('a'));
    clock.setTimer(100, record('b'));
    clock.advance(99);
    expect(fired).toEqual([]);
    clock.advance(151);
    expect(fired).toEqual([['a', 100], ['b', 100]]);
    expect(clock.nowMs()).toBe(T0 + 250);
    clock.set(T0 + 300);
    expect(fired).toEqual([['a', 100], ['b', 100], ['c', 300]]);
    expect(clock.nextTimerDueMs).toBeUndefined();
  });

  it('fires, in the same move, a timer set by a timer that fired and due by the new time', () => {
    const clock = new ManualClock(T0);
    const fired: number[] = [];
    clock.setTimer(100, () => {
      fired.push(clock.nowMs() - T0);
      clock.setTimer(100, () => fired.push(clock.nowMs() - T0));
    });
    clock.advance(250);
    expect(fired).toEqual([100, 200]);
  });

  it('does not fire a cancelled timer, and cancelling after it fired does nothing', () => {
    const clock = new ManualClock(T0);
    let fired = 0;
    const cancel = clock.setTimer(100, () => (fired += 1));
    const cancelFired = clock.setTimer(50, () => (fired += 10));
    clock.advance(60);
    cancelFired();
    cancel();
    clock.advance(1_000);
    expect(fired).toBe(10);
  });

  it('fires a timer already due on the next turn of the event loop, never synchronously, without moving', async () => {
    const clock = new ManualClock(T0);
    let fired = false;
    clock.setTimer(0, () => (fired = true));
    expect(fired).toBe(false);
    await nextTurn();
    expect(fired).toBe(true);
    expect(clock.nowMs()).toBe(T0);
  });

  it('tells a test when something waits on it, up to a given time', async () => {
    const clock = new ManualClock(T0);
    clock.setTimer(10_000, () => undefined);
    let waiting = false;
    const waited = clock.waitForTimerDueBy(T0 + 500).then(() => (waiting = true));
    await nextTurn();
    expect(waiting).toBe(false);
    clock.setTimer(500, () => undefined);
    await waited;
    expect(waiting).toBe(true);
    expect(clock.nextTimerDueMs).toBe(T0 + 500);
    await clock.waitForTimerDueBy(T0 + 500); // already pending: at once
  });
});

describe('systemClock timers', () => {
  it('fire after their delay on real time, and not once cancelled', async () => {
    const startedMs = systemClock.nowMs();
    const firedMs = await new Promise<number>((resolve) => systemClock.setTimer(20, () => resolve(systemClock.nowMs())));
    expect(firedMs - startedMs).toBeGreaterThanOrEqual(19);
    let cancelledFired = false;
    systemClock.setTimer(1, () => (cancelledFired = true))();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(cancelledFired).toBe(false);
  });
});

/**
 * The only module that reads the system time or sets timers on it (STYLE rule 2). Pure code takes
 * `nowMs` as an argument; shells (commands, runner loops) read a Clock once per tick and pass the
 * value down, and wait on the same Clock, so that "now" and "when a wait ends" come from one
 * source and a test moving a ManualClock moves both (graphile-worker's `useNodeTime`).
 */
export interface Clock {
  nowMs(): number;
  /**
   * Calls `fire` once `delayMs` have passed by this clock (0 or less: as soon as the current
   * task ends, never synchronously). Returns what cancels it; cancelling after it fired is a no-op.
   */
  setTimer(delayMs: number, fire: () => void): CancelTimer;
}

export type CancelTimer = () => void;

/** setTimeout fires after 1 ms for delays above 2^31-1 ms (~24.8 days); longer waits are re-armed in steps. */
const MAX_TIMEOUT_DELAY_MS = 2 ** 31 - 1;

/**
 * Real time. Its timers keep the process alive, as setTimeout does: a runner on the embedded
 * database has no socket open, and its loop's sleep is what keeps it running.
 */
export const systemClock: Clock = {
  nowMs: () => Date.now(),
  setTimer(delayMs, fire) {
    let handle: NodeJS.Timeout | undefined;
    const arm = (remainingMs: number): void => {
      const stepMs = Math.min(remainingMs, MAX_TIMEOUT_DELAY_MS);
      handle = setTimeout(() => (remainingMs > stepMs ? arm(remainingMs - stepMs) : fire()), stepMs);
    };
    arm(Math.max(0, delayMs));
    return () => clearTimeout(handle);
  },
};

interface ManualTimer {
  dueMs: number;
  fire: () => void;
}

/**
 * A clock that only moves when told to: for tests that drive the runner tick by tick. `set` and
 * `advance` fire the timers due by the new time, in due order, each with the clock reading its
 * own due time while it fires, then leave the clock at the new time. The code a timer wakes runs
 * its synchronous part then; what it awaits continues after `set` returns, at the new time. A
 * timer already due when it is set (a delay of 0 or less) fires on the next turn of the event
 * loop without the clock moving, as setTimeout(fn, 0) would.
 */
export class ManualClock implements Clock {
  /** Pending timers, by due time; timers due at the same instant in the order they were set. */
  private timers: ManualTimer[] = [];
  private waiters: Array<{ dueByMs: number; resolve: () => void }> = [];

  constructor(private currentMs: number) {}

  nowMs(): number {
    return this.currentMs;
  }

  set(ms: number): void {
    for (let next = this.timers[0]; next !== undefined && next.dueMs <= ms; next = this.timers[0]) {
      this.timers.shift();
      this.currentMs = Math.max(this.currentMs, next.dueMs);
      next.fire();
    }
    this.currentMs = ms;
  }

  advance(ms: number): void {
    this.set(this.currentMs + ms);
  }

  setTimer(delayMs: number, fire: () => void): CancelTimer {
    const timer: ManualTimer = { dueMs: this.currentMs + Math.max(0, delayMs), fire };
    const at = this.timers.findIndex((t) => t.dueMs > timer.dueMs);
    this.timers.splice(at === -1 ? this.timers.length : at, 0, timer);
    if (timer.dueMs <= this.currentMs) setImmediate(() => this.set(this.currentMs));
    const waiting = this.waiters.filter((w) => w.dueByMs >= timer.dueMs);
    this.waiters = this.waiters.filter((w) => w.dueByMs < timer.dueMs);
    for (const waiter of waiting) waiter.resolve();
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** When the next pending timer is due; undefined when none is pending. */
  get nextTimerDueMs(): number | undefined {
    return this.timers[0]?.dueMs;
  }

  /**
   * Resolves once a timer due at or before `dueByMs` is pending (at once if one is already): how
   * a test knows that the code under test has started waiting on this clock, so that moving the
   * clock now ends that wait instead of passing before it began.
   */
  waitForTimerDueBy(dueByMs: number): Promise<void> {
    if (this.timers.some((t) => t.dueMs <= dueByMs)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ dueByMs, resolve }));
  }
}

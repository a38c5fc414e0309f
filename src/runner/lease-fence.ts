import type { CancelTimer, Clock } from '../shared/clock.js';

/**
 * The deadlines by which the jobs of held runs must be stopped because their leases could not be
 * renewed (why and when: Worker.armFence). One timer serves every held run: leases are taken and
 * renewed in batches (a claim, a heartbeat), so the runs share a few deadlines, and a runner with a
 * local queue of a thousand runs would otherwise create and clear a timer for each of them.
 */
export class LeaseFence<T> {
  private readonly deadlines = new Map<T, number>();
  private cancelTimer: CancelTimer | undefined;
  /** The deadline the timer is set for; Infinity when none is. */
  private timerAtMs = Number.POSITIVE_INFINITY;

  constructor(
    private readonly clock: Clock,
    private readonly onDeadline: (item: T) => void,
  ) {}

  /** Sets (or moves) the deadline of `item`. */
  arm(item: T, deadlineMs: number): void {
    this.deadlines.set(item, deadlineMs);
    if (deadlineMs < this.timerAtMs) this.setTimer(deadlineMs);
  }

  disarm(item: T): void {
    this.deadlines.delete(item);
    if (this.deadlines.size === 0) this.clearTimer();
  }

  /** The deadline of `item`; undefined when it has none (never armed, disarmed, or already due). */
  deadlineOf(item: T): number | undefined {
    return this.deadlines.get(item);
  }

  get size(): number {
    return this.deadlines.size;
  }

  /**
   * Removes and returns the items whose deadline is at or before `atMs`, and the next deadline
   * left (Infinity when none is). Deadlines moved later after the timer was set are not due.
   */
  takeDue(atMs: number): { due: T[]; nextMs: number } {
    const due: T[] = [];
    let nextMs = Number.POSITIVE_INFINITY;
    for (const [item, deadlineMs] of this.deadlines) {
      if (deadlineMs <= atMs) due.push(item);
      else nextMs = Math.min(nextMs, deadlineMs);
    }
    for (const item of due) this.deadlines.delete(item);
    return { due, nextMs };
  }

  private setTimer(atMs: number): void {
    this.cancelTimer?.();
    this.timerAtMs = atMs;
    this.cancelTimer = this.clock.setTimer(atMs - this.clock.nowMs(), () => this.fire());
  }

  private clearTimer(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.timerAtMs = Number.POSITIVE_INFINITY;
  }

  /** The timer's deadline has come (by the clock it was set with, or later by the clock now). */
  private fire(): void {
    const firedFor = this.timerAtMs;
    this.cancelTimer = undefined;
    this.timerAtMs = Number.POSITIVE_INFINITY;
    const { due, nextMs } = this.takeDue(Math.max(firedFor, this.clock.nowMs()));
    if (Number.isFinite(nextMs)) this.setTimer(nextMs);
    for (const item of due) this.onDeadline(item);
  }
}

/**
 * Rate limits of alert messages, per runner (README "Alerts"): a sliding window per key. Pure:
 * `nowMs` is an argument. The evaluator keys firing messages by schedule (a flapping schedule
 * cannot flood the channel); the dispatcher keys every request by target (Slack accepts about one
 * message per second per webhook). A resolved message is never held back by the schedule limit:
 * it answers a message that was sent.
 */
export class SlidingWindowLimit {
  private readonly sent = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Takes one message for `key` at `nowMs` if the window has room; false: hold it back. */
  tryTake(key: string, nowMs: number): boolean {
    const recent = (this.sent.get(key) ?? []).filter((at) => at > nowMs - this.windowMs);
    if (recent.length >= this.limit) {
      this.sent.set(key, recent);
      return false;
    }
    recent.push(nowMs);
    this.sent.set(key, recent);
    return true;
  }
}

/** Firing messages per schedule, and requests per target (see README "Alerts"). */
export const SCHEDULE_MESSAGE_LIMIT = { limit: 6, windowMs: 3_600_000 };
export const TARGET_MESSAGE_LIMIT = { limit: 30, windowMs: 60_000 };

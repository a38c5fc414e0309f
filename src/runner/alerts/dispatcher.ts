/**
 * Delivers alert messages to the Policy's targets without ever holding up the runner: `enqueue`
 * only appends to a per-target queue, and each target's queue is drained by its own detached
 * loop, one request at a time (a resolved message never overtakes its firing one). A request
 * that fails (network error, timeout, 408, 429, 5xx) is retried with exponential backoff; a dead
 * receiver slows only its own queue, which is bounded (the oldest message is dropped and
 * recorded). The request timeout is an AbortSignal fired by a timer of the runner's Clock, so
 * time as the runner reads it and as it waits stay one (runner.ts). Target urls are never logged
 * or recorded: a Slack webhook URL is a credential.
 */
import type { AlertTargetDefinition } from '../../compile/definition.js';
import { formatDurationMs } from '../../compile/duration.js';
import type { Clock } from '../../shared/clock.js';
import { silentLogger, type Logger } from '../../shared/logger.js';
import { renderSlackPayload, renderWebhookPayload, type AlertMessage } from './payloads.js';
import { SlidingWindowLimit, TARGET_MESSAGE_LIMIT } from './rate-limit.js';

/** The part of fetch the dispatcher uses (a test may count or fail requests). */
export type SendRequest = (url: string, init: { method: 'POST'; headers: Record<string, string>; body: string; signal: AbortSignal; redirect: 'manual' }) => Promise<{ status: number; body?: { cancel(): Promise<void> } | null }>;

export interface DeliveryResult {
  delivered: boolean;
  attempts: number;
  error: string | null;
  /** Held back by the target's rate limit, not tried. */
  suppressed?: true;
}

export interface DispatcherOptions {
  clock: Clock;
  env: NodeJS.ProcessEnv;
  requestTimeoutMs?: number;
  maxAttempts?: number;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  maxQueuedPerTarget?: number;
  /** Called once per message and target, when it was delivered or given up (not for the messages a stop leaves unsent). */
  onResult: (message: AlertMessage, target: string, result: DeliveryResult) => void;
  send?: SendRequest;
  logger?: Logger;
}

interface QueuedMessage {
  message: AlertMessage;
  target: AlertTargetDefinition;
}

interface TargetQueue {
  items: QueuedMessage[];
  busy: boolean;
}

/** Statuses worth another try: the receiver may answer later. Others (400, 403, 404…) will not change. */
const RETRYABLE_STATUS = (status: number) => status === 408 || status === 429 || status >= 500;

export class AlertDispatcher {
  private readonly queues = new Map<string, TargetQueue>();
  private readonly targetLimit = new SlidingWindowLimit(TARGET_MESSAGE_LIMIT.limit, TARGET_MESSAGE_LIMIT.windowMs);
  private readonly idleWaiters: Array<() => void> = [];
  private readonly inFlight = new Set<AbortController>();
  private readonly timers = new Set<() => void>();
  private stopped = false;
  private readonly logger: Logger;
  private readonly send: SendRequest;

  constructor(private readonly options: DispatcherOptions) {
    this.logger = options.logger ?? silentLogger;
    this.send = options.send ?? ((url, init) => fetch(url, init));
  }

  /** Queues the message for every target and returns at once. */
  enqueue(message: AlertMessage, targets: readonly AlertTargetDefinition[]): void {
    if (this.stopped) return;
    for (const target of targets) {
      const queue = this.queues.get(target.name) ?? { items: [], busy: false };
      this.queues.set(target.name, queue);
      if (queue.items.length >= (this.options.maxQueuedPerTarget ?? 100)) {
        const dropped = queue.items.splice(queue.busy ? 1 : 0, 1)[0];
        if (dropped) this.options.onResult(dropped.message, target.name, { delivered: false, attempts: 0, error: `${target.name}: dropped, more than ${this.options.maxQueuedPerTarget ?? 100} messages waiting for this target` });
      }
      queue.items.push({ message, target });
      void this.drain(target.name, queue);
    }
  }

  /** Messages queued or being sent. */
  get pending(): number {
    let count = 0;
    for (const queue of this.queues.values()) count += queue.items.length;
    return count;
  }

  /** The messages queued or being sent, by alert, event and target (their claims are renewed while they wait). */
  pendingMessages(): Array<{ alertId: number; event: AlertMessage['event']; target: string }> {
    return [...this.queues.values()].flatMap((queue) => queue.items.map((item) => ({ alertId: item.message.alert.id, event: item.message.event, target: item.target.name })));
  }

  /** Resolves once every queue is empty (tests; a draining runner). */
  whenIdle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops sending: requests in flight are aborted, retries not made. Unsent messages stay owed in `alert_deliveries`: another runner sends them once this one's claim has expired. */
  stop(): void {
    this.stopped = true;
    for (const controller of this.inFlight) controller.abort(new Error('runner stopping'));
    for (const fire of this.timers) fire();
  }

  private async drain(name: string, queue: TargetQueue): Promise<void> {
    if (queue.busy) return;
    queue.busy = true;
    try {
      while (queue.items.length > 0 && !this.stopped) {
        const item = queue.items[0]!;
        const result = await this.deliver(item);
        queue.items.shift();
        this.options.onResult(item.message, name, result);
        if (!result.delivered) this.logger.warn('alert not delivered', { alertId: item.message.alert.id, target: name, attempts: result.attempts, error: result.error ?? undefined });
      }
    } finally {
      queue.busy = false;
      if (this.stopped) queue.items.length = 0;
      if (this.pending === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }

  private async deliver({ message, target }: QueuedMessage): Promise<DeliveryResult> {
    const url = typeof target.url === 'string' ? target.url : this.options.env[target.url.fromEnv];
    if (!url) return { delivered: false, attempts: 0, error: `${target.name}: environment variable ${(target.url as { fromEnv: string }).fromEnv} is not set on this runner` };
    if (!this.targetLimit.tryTake(target.name, this.options.clock.nowMs())) {
      return { delivered: false, attempts: 0, suppressed: true, error: `${target.name}: rate-limited (more than ${TARGET_MESSAGE_LIMIT.limit} messages in ${formatDurationMs(TARGET_MESSAGE_LIMIT.windowMs)})` };
    }
    const maxAttempts = this.options.maxAttempts ?? 5;
    let error = '';
    for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
      const body = JSON.stringify(target.type === 'slack' ? renderSlackPayload(message) : renderWebhookPayload(message, this.options.clock.nowMs()));
      const outcome = await this.request(url, body);
      if (outcome.ok) return { delivered: true, attempts: attempt, error: null };
      error = `${target.name}: ${outcome.error}`;
      if (!outcome.retry || attempt === maxAttempts || this.stopped) return { delivered: false, attempts: attempt, error };
      await this.wait(Math.min(this.options.maxBackoffMs ?? 60_000, (this.options.initialBackoffMs ?? 1_000) * 2 ** (attempt - 1)));
      if (this.stopped) return { delivered: false, attempts: attempt, error };
    }
    return { delivered: false, attempts: maxAttempts, error };
  }

  private async request(url: string, body: string): Promise<{ ok: true } | { ok: false; retry: boolean; error: string }> {
    const timeoutMs = this.options.requestTimeoutMs ?? 5_000;
    const controller = new AbortController();
    this.inFlight.add(controller);
    const cancelTimer = this.options.clock.setTimer(timeoutMs, () => controller.abort(new Error(`no answer within ${formatDurationMs(timeoutMs)}`)));
    try {
      const response = await this.send(url, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': 'cronform-alerts' }, body, signal: controller.signal, redirect: 'manual' });
      await response.body?.cancel().catch(() => undefined);
      if (response.status >= 200 && response.status < 300) return { ok: true };
      return { ok: false, retry: RETRYABLE_STATUS(response.status), error: `HTTP ${response.status}` };
    } catch (error) {
      if (controller.signal.aborted) return { ok: false, retry: true, error: (controller.signal.reason as Error).message };
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      return { ok: false, retry: true, error: cause?.code ?? cause?.message ?? (error as Error).message };
    } finally {
      cancelTimer();
      this.inFlight.delete(controller);
    }
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const fire = () => {
        this.timers.delete(fire);
        cancel();
        resolve();
      };
      const cancel = this.options.clock.setTimer(ms, fire);
      this.timers.add(fire);
    });
  }
}

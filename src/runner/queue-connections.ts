/**
 * Connections to queues in other databases (`url: { fromEnv: NAME }`, docs/queue-handoff.md): one
 * small pool per distinct URL, opened on first use and closed when the runner stops. The URL is
 * read from the runner's environment and never leaves this module: error messages are scrubbed of
 * it (and of its password) before they reach an attempt's error, a log line or the dashboard.
 */
import { openDatabase, type Database } from '../db/client.js';

/** Per queue database: hand-offs are short single inserts, so a few connections are plenty. */
const MAX_CONNECTIONS_PER_QUEUE = 2;

export class QueueConnections {
  private readonly pools = new Map<string, Promise<Database>>();
  private closed = false;

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  /** The queue database named by this variable; throws a message naming the variable when it is unset. */
  async get(fromEnv: string): Promise<Database> {
    if (this.closed) throw new Error('the runner is stopping');
    const url = this.env[fromEnv];
    if (url === undefined || url === '') throw new Error(`environment variable ${fromEnv} is not set on this runner: set it to the queue database's URL`);
    let pool = this.pools.get(url);
    if (!pool) {
      pool = openDatabase({ url, maxConnections: MAX_CONNECTIONS_PER_QUEUE, label: `$${fromEnv}` });
      this.pools.set(url, pool);
      pool.catch(() => this.pools.delete(url));
    }
    return pool;
  }

  /** Removes the URL held by `fromEnv` and its password from a message (a driver may quote either). */
  scrub(fromEnv: string, message: string): string {
    const url = this.env[fromEnv];
    if (!url) return message;
    let scrubbed = message.split(url).join(`$${fromEnv}`);
    try {
      const password = decodeURIComponent(new URL(url).password);
      if (password.length >= 4) scrubbed = scrubbed.split(password).join('***');
    } catch {
      // Not a URL: only the whole value is removed.
    }
    return scrubbed;
  }

  async close(): Promise<void> {
    this.closed = true;
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map(async (pool) => (await pool.catch(() => undefined))?.close().catch(() => undefined)));
  }
}

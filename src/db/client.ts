/**
 * One client over two engines: PostgreSQL (DATABASE_URL / --database-url) or embedded PGlite
 * stored in `.cronform/db`, so a newcomer needs no server. Everything above this module talks
 * to `Database.db` (drizzle) and never learns which engine it is on.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { CasingCache } from 'drizzle-orm/casing';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
// `sql` from its own module, not drizzle's root: the root loads ~100 modules (every column type,
// relations, the query builders' helpers), about 80 ms of CPU of `status`'s start-up (bench/cli-start).
import { fillPlaceholders, sql, type SQL } from 'drizzle-orm/sql/sql';
import type pg from 'pg';
import type * as schema from './schema.js';

/**
 * pg, loaded on first use (`validate`, `preview` and `--help` never pay for it at start-up).
 * On load, pg asks whether it runs in a Cloudflare Worker (pg/lib/stream.js): it reads
 * `navigator.userAgent`, and where there is no `navigator` (Node 20) it builds a `Response`,
 * whose first use loads Node's whole fetch implementation (undici): about half of pg's load,
 * 15-30 ms of every PostgreSQL command's start-up, for an answer that is always "no" here. A
 * `navigator` that says so exists only for the synchronous require: no other code runs while it
 * is there (Node 21+ has its own `navigator`, and this does nothing). `import('pg')` elsewhere,
 * drizzle's included, gets this same instance from the CommonJS cache.
 */
export function loadPg(): typeof pg {
  const globals = globalThis as { navigator?: unknown };
  if (globals.navigator !== undefined) return requirePg();
  globals.navigator = { userAgent: 'Node.js' };
  try {
    return requirePg();
  } finally {
    delete globals.navigator;
  }
}
const requirePg = (): typeof pg => createRequire(import.meta.url)('pg') as typeof pg;

export type Engine = 'postgres' | 'pglite';
export type AppDatabase = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<AppDatabase['transaction']>[0]>[0];
export type Executor = AppDatabase | Transaction;

/** What runs a raw `sql` statement: drizzle's database or a transaction, or a pool without drizzle. */
export interface StatementExecutor {
  execute(query: SQL): PromiseLike<unknown>;
}

/**
 * A database for raw `sql` statements only, which is all `status` runs: on PostgreSQL a pool
 * without drizzle's session (openStatementDatabase), else a Database.
 */
export interface StatementDatabase {
  engine: Engine;
  db: StatementExecutor;
  /** Human description without credentials, for messages. */
  label: string;
  close(): Promise<void>;
}

export interface Database extends StatementDatabase {
  db: AppDatabase;
  /**
   * LISTEN on a channel; resolves once listening. The returned function stops listening. If the
   * connection drops it is re-opened with backoff until it works again; notifications sent in
   * between are lost, so `onReconnect` is called once listening again.
   */
  listen(channel: string, onNotify: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… ; when absent, embedded PGlite is used. */
  url?: string | undefined;
  /** PGlite data directory; `memory://` or undefined with `inMemory` for tests. */
  dataDir?: string | undefined;
  inMemory?: boolean;
  /** Pool size for PostgreSQL. */
  maxConnections?: number;
  /** Replaces the redacted URL in messages (a served embedded database). */
  label?: string;
  /**
   * PostgreSQL URL for LISTEN only (default: `url`). Behind PgBouncer in transaction mode a
   * LISTEN through the pooler lands on whichever server connection ran it, which then serves other
   * clients: notifications never arrive. Point this at the server directly (docs/postgres.md).
   */
  listenUrl?: string | undefined;
}

export const DEFAULT_DATA_DIR = path.join('.cronform', 'db');

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres (unparseable URL)';
  }
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    const pg = loadPg();
    const { drizzle: drizzlePg } = await import('drizzle-orm/node-postgres');
    const pool = new pg.Pool({ connectionString: options.url, max: options.maxConnections ?? 10, onConnect: turnJitOff });
    // A broken idle connection must not crash the process; the next query reconnects.
    pool.on('error', () => undefined);
    // Nor a broken checked-out one: pg emits 'error' on the client as well as failing its queries,
    // and the pool listens only while the client is idle, so a connection lost in the middle of a
    // transaction (a database restart) would be an unhandled 'error' event.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const url = options.url;
    const listenUrl = options.listenUrl ?? url;
    // No `{ schema }`: nothing uses drizzle's relational queries (`db.query.*`), and building
    // their configuration from every table costs each command's start-up.
    const db = drizzlePg(pool) as unknown as AppDatabase;
    db.transaction = releasingTransactions(pool, (client) => drizzlePg(client) as unknown as AppDatabase);
    return {
      engine: 'postgres',
      db,
      label: options.label ?? redactUrl(url),
      listen: (channel, onNotify, onReconnect) => listenPostgres(listenUrl, channel, onNotify, onReconnect),
      close: () => pool.end(),
    };
  }
  return (await openPglite(options)).database;
}

/**
 * JIT off for each new pool connection's session (pg-pool's `onConnect`, awaited before the
 * connection's first use). cronform's statements are short, and JIT compiled the wide ones at
 * every execution: a plan over the run tables' days carries costs far above jit_above_cost, and
 * `status` over 100 schedules and 104 day partitions took 6.6 s, 0.2 s without JIT
 * (bench/retention). Through a transaction-mode pooler the setting lands on one server connection
 * and may be missing on another: that costs time, never correctness, so a failure is ignored.
 */
async function turnJitOff(client: pg.ClientBase): Promise<void> {
  await client.query('set jit = off').catch(() => undefined);
}

/**
 * PostgreSQL for raw statements only: a pg pool that runs each statement as drizzle's node-postgres
 * session runs `db.execute` (the text PgDialect renders, the same row parsing, failures wrapped in
 * DrizzleQueryError), without loading that session, PgDialect and the query builders (~90
 * modules, most of what drizzle costs `status`'s start-up, bench/cli-start).
 * test/db/statement-database.test.ts holds the two to the same text, rows and errors.
 */
export function openStatementDatabase(options: { url: string; maxConnections?: number | undefined; label?: string }): StatementDatabase {
  const pg = loadPg();
  const pool = new pg.Pool({ connectionString: options.url, max: options.maxConnections ?? 10, onConnect: turnJitOff });
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const casing = new CasingCache();
  // drizzle's NodePgPreparedQuery keeps dates, timestamps and intervals (and their arrays) as text.
  const types = { getTypeParser: (typeId: number, format?: string) => (TEXT_TYPE_IDS.has(typeId) ? (value: string) => value : pg.types.getTypeParser(typeId, format as 'text')) } as pg.CustomTypesConfig;
  return {
    engine: 'postgres',
    db: {
      async execute(query: SQL) {
        const built = query.toQuery({ casing, escapeName: escapePgName, escapeParam: escapePgParam, escapeString: escapePgString });
        const params = fillPlaceholders(built.params, {});
        try {
          return await pool.query({ text: built.sql, types }, params);
        } catch (error) {
          throw new DrizzleQueryError(built.sql, params, error as Error);
        }
      },
    },
    label: options.label ?? redactUrl(options.url),
    close: () => pool.end(),
  };
}

/** timestamptz, timestamp, date, interval, and the arrays _numeric, _timestamp, _timestamptz, _interval, _date: as drizzle-orm/node-postgres's session lists them. */
const TEXT_TYPE_IDS = new Set([1184, 1114, 1082, 1186, 1231, 1115, 1185, 1187, 1182]);
// PgDialect's escapeName, escapeParam and escapeString.
const escapePgName = (name: string) => `"${name.replace(/"/g, '""')}"`;
const escapePgParam = (index: number) => `$${index + 1}`;
const escapePgString = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** The embedded engine with its PGlite client, for the process that serves it to others. */
export async function openPglite(options: Pick<DatabaseOptions, 'dataDir' | 'inMemory'>): Promise<{ database: Database; client: PGlite }> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle: drizzlePglite } = await import('drizzle-orm/pglite');
  // PostgreSQL's default 128 MB of shared buffers live in the process's WebAssembly memory and are
  // touched at start-up: ~140 MB of resident memory for a database of a few megabytes. One process
  // uses the embedded database at a time, and the OS page cache still holds the files.
  const pgliteOptions = { startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'] };
  let client: PGlite;
  if (options.inMemory) {
    client = new PGlite(pgliteOptions);
  } else {
    const dataDir = options.dataDir ?? DEFAULT_DATA_DIR;
    mkdirSync(dataDir, { recursive: true });
    client = new PGlite(dataDir, pgliteOptions);
  }
  await client.waitReady;
  const database: Database = {
    engine: 'pglite',
    db: drizzlePglite(client) as unknown as AppDatabase,
    label: options.inMemory ? 'embedded PGlite (in memory)' : `embedded PGlite at ${options.dataDir ?? DEFAULT_DATA_DIR}`,
    listen: (channel, onNotify) => listenPglite(client, channel, onNotify),
    close: () => client.close(),
  };
  return { database, client };
}

/**
 * `db.transaction` on a pool, with the client always handed back. drizzle's own pooled
 * transaction runs BEGIN before the try/finally that releases the client
 * (drizzle-team/drizzle-orm#6241, open for 0.45): a BEGIN that fails because the connection has
 * just died (a database shutdown, a cut network) leaks the client. Each leak shrinks the pool for
 * good, and `pool.end()` waits for the leaked client forever, so a runner stopped after an outage
 * never exited (Node's exit code 13: the main promise could not settle). Here the client is
 * checked out and released by us, and drizzle runs the transaction on that one client. A client
 * whose transaction failed is destroyed rather than reused: after a failed ROLLBACK its state is
 * unknown, and a reconnect costs little next to the failure.
 */
function releasingTransactions(pool: pg.Pool, drizzleOn: (client: pg.PoolClient) => AppDatabase): AppDatabase['transaction'] {
  // One drizzle instance per pooled connection, built on its first transaction.
  const sessions = new WeakMap<pg.PoolClient, AppDatabase>();
  return async (transaction, config) => {
    const client = await pool.connect();
    let failure: Error | undefined;
    try {
      let session = sessions.get(client);
      if (!session) {
        session = drizzleOn(client);
        sessions.set(client, session);
      }
      return await session.transaction(transaction, config);
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      client.release(failure);
    }
  };
}

/**
 * Whether a NOTIFY sent through the database's queries reaches its LISTEN connection within
 * `timeoutMs`: false behind a pooler in transaction mode without a direct `listenUrl`. Nothing
 * depends on notifications for correctness (runners also wake on their own timers), but without
 * them new schedules, triggers and cancels wait for the next timer, so a runner says so.
 */
export async function checkNotificationsArrive(database: Database, timeoutMs: number): Promise<boolean> {
  const channel = `cronform_probe_${process.pid}_${Date.now()}`;
  const payload = String(Math.random());
  let arrived!: () => void;
  const heard = new Promise<void>((resolve) => (arrived = resolve));
  const stop = await database.listen(channel, (received) => {
    if (received === payload) arrived();
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await database.db.execute(sql`select pg_notify(${channel}, ${payload})`);
    return await Promise.race([heard.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)))]);
  } finally {
    clearTimeout(timer);
    await stop();
  }
}

export async function listenPglite(client: PGlite, channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
  const unsubscribe = await client.listen(channel, onNotify);
  return () => unsubscribe();
}

/**
 * A dedicated connection for LISTEN (a pooled one would be handed to other queries). If it
 * drops, it is re-opened with backoff (0.5 s doubling to 30 s) for as long as it takes: a database
 * restart must not leave the runner deaf for the rest of its life. Callers must not depend on
 * notifications for correctness (the runner also wakes on its own timers); `onReconnect` tells
 * them that some may have been missed.
 */
async function listenPostgres(url: string, channel: string, onNotify: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>> {
  const pg = loadPg();
  let stopped = false;
  let client: pg.Client | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let failures = 0;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => onNotify(message.payload ?? ''));
    next.on('error', () => {
      next.end().catch(() => undefined);
      if (client !== next) return;
      client = undefined;
      reconnectLater();
    });
    try {
      await next.connect();
      await next.query(`listen ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      next.end().catch(() => undefined);
      throw error;
    }
    if (stopped) await next.end().catch(() => undefined);
    else client = next;
  };
  const reconnectLater = (): void => {
    if (stopped || retryTimer) return;
    const delayMs = Math.min(30_000, 500 * 2 ** Math.min(failures, 6));
    failures += 1;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect().then(
        () => {
          failures = 0;
          if (!stopped) onReconnect?.();
        },
        () => reconnectLater(),
      );
    }, delayMs);
    retryTimer.unref();
  };
  await connect();
  return async () => {
    stopped = true;
    if (retryTimer) clearTimeout(retryTimer);
    await client?.end().catch(() => undefined);
  };
}

/** Rows of a raw statement; both engines, and openStatementDatabase's pool, return `{ rows }`. */
export async function queryRows<T>(executor: StatementExecutor, query: SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * The planner settings that make the rest of a transaction reach rows through indexes only (no
 * sequential or bitmap scans): as a select-list fragment, so a statement can combine it with
 * other work in one round trip. With statistics gathered before a mass queueing (a backfill, a
 * catch-up, a restart after an outage) the planner expects a handful of rows and otherwise reads
 * the whole table: every queued run per claim, all run history per outcome batch.
 *
 * And no JIT: a plan that still needs a disabled scan (a GIN index, such as schedules_after_idx, is
 * read by bitmap scans only; a tiny table may have no index that fits) carries the planner's
 * disable cost of 10^10, far above jit_above_cost, so PostgreSQL compiled it with LLVM on every
 * execution: every outcome batch paid for it once the dependency check read schedules_after_idx
 * (bench:runner, 1 process: 10,100 runs/s before, 2,700 after, with 18% of the server's CPU in
 * libLLVM). These statements are short; JIT never pays for itself on them.
 */
export const INDEX_SCANS_ONLY = sql`set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true), set_config('jit', 'off', true)`;

/** INDEX_SCANS_ONLY on its own, for transactions that name their rows by key (outcomes, reconcile). */
export async function preferIndexScans(tx: Executor): Promise<void> {
  await tx.execute(sql`select ${INDEX_SCANS_ONLY}`);
}

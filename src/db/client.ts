/**
 * One client over two engines: PostgreSQL (DATABASE_URL / --database-url) or embedded PGlite
 * stored in `.cronform/db`, so a newcomer needs no server. Everything above this module talks
 * to `Database.db` (drizzle) and never learns which engine it is on.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import pg from 'pg';
import * as schema from './schema.js';

export type Engine = 'postgres' | 'pglite';
export type AppDatabase = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<AppDatabase['transaction']>[0]>[0];
export type Executor = AppDatabase | Transaction;

export interface Database {
  engine: Engine;
  db: AppDatabase;
  /** Human description without credentials, for messages. */
  label: string;
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
    const pool = new pg.Pool({ connectionString: options.url, max: options.maxConnections ?? 10 });
    // A broken idle connection must not crash the process; the next query reconnects.
    pool.on('error', () => undefined);
    return { engine: 'postgres', db: drizzlePg(pool, { schema }) as unknown as AppDatabase, label: redactUrl(options.url), close: () => pool.end() };
  }
  let client: PGlite;
  if (options.inMemory) {
    client = new PGlite();
  } else {
    const dataDir = options.dataDir ?? DEFAULT_DATA_DIR;
    mkdirSync(dataDir, { recursive: true });
    client = new PGlite(dataDir);
  }
  await client.waitReady;
  return {
    engine: 'pglite',
    db: drizzlePglite(client, { schema }) as unknown as AppDatabase,
    label: options.inMemory ? 'embedded PGlite (in memory)' : `embedded PGlite at ${options.dataDir ?? DEFAULT_DATA_DIR}`,
    close: () => client.close(),
  };
}

/** Rows of a raw statement; both engines return `{ rows }`. */
export async function queryRows<T>(executor: Executor, query: SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

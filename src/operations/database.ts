/**
 * Which database a command talks to: --database-url, then DATABASE_URL, else the embedded
 * PGlite in --data-dir, then $CRONFORM_DATA_DIR, else `.cronform/db`, under the working
 * directory: through the process that owns and serves it if there is one, else opened under its
 * lock (embedded-database.ts). The embedded modules are imported only for the embedded engine:
 * a command on PostgreSQL never loads them (start-up is a target, bench/cli-start).
 */
import path from 'node:path';
import { DEFAULT_DATA_DIR, openDatabase, openStatementDatabase, type Database, type Engine, type StatementDatabase } from '../db/client.js';
import { ensureSchema, requireSchemaUpToDate, SchemaBehindError } from '../db/migrate.js';
import type { Logger } from '../shared/logger.js';

const loadEmbedded = () => import('./embedded-database.js');

export interface DatabaseChoice {
  databaseUrl?: string | undefined;
  /** PostgreSQL only: a direct URL for LISTEN when `databaseUrl` goes through a pooler (client.ts). */
  listenUrl?: string | undefined;
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** The embedded database's directory (--data-dir); default $CRONFORM_DATA_DIR, else `.cronform/db`. */
  dataDir?: string | undefined;
  /** Who holds the embedded database, in the lock file and others' error messages. */
  command?: string;
  /**
   * Connections to PostgreSQL at most (default 10). A short read-only command that runs no
   * transaction takes 1: its queries then wait for each other on one connection instead of
   * each starting a server backend (`status` started three for its three statements).
   */
  maxConnections?: number;
}

const chosenUrl = (choice: DatabaseChoice): string | undefined => choice.databaseUrl ?? (choice.env ?? process.env).DATABASE_URL;

export function chosenEngine(choice: DatabaseChoice): Engine {
  return chosenUrl(choice) ? 'postgres' : 'pglite';
}

/** The embedded database's directory for this choice, resolved against its cwd. */
export function chosenDataDir(choice: DatabaseChoice): string {
  const dataDir = choice.dataDir || (choice.env ?? process.env).CRONFORM_DATA_DIR || DEFAULT_DATA_DIR;
  return path.resolve(choice.cwd, dataDir);
}

async function openEmbedded(choice: DatabaseChoice): Promise<Database> {
  const { describeCommand, openEmbeddedDatabase } = await loadEmbedded();
  return openEmbeddedDatabase(chosenDataDir(choice), choice.command ?? describeCommand());
}

export async function openChosenDatabase(choice: DatabaseChoice, options: { migrate?: boolean } = {}): Promise<Database> {
  const url = chosenUrl(choice);
  const database = url ? await openDatabase({ url, listenUrl: choice.listenUrl, ...(choice.maxConnections ? { maxConnections: choice.maxConnections } : {}) }) : await openEmbedded(choice);
  if (options.migrate === false) return database;
  await ensureSchemaOrClose(database);
  return database;
}

export async function ensureSchemaOrClose(database: Database): Promise<void> {
  try {
    await ensureSchema(database);
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** Open, run, and always close. */
export async function withDatabase<T>(choice: DatabaseChoice, run: (database: Database) => Promise<T>): Promise<T> {
  const database = await openChosenDatabase(choice);
  try {
    return await run(database);
  } finally {
    await database.close();
  }
}

/**
 * Open, run raw statements only, and always close: `status`. On PostgreSQL a pool without
 * drizzle's session and query builders (client.ts openStatementDatabase: most of what drizzle cost
 * its start-up); the embedded engine opens as withDatabase does.
 */
export async function withStatementDatabase<T>(choice: DatabaseChoice, run: (database: StatementDatabase) => Promise<T>): Promise<T> {
  const url = chosenUrl(choice);
  if (!url) return withDatabase(choice, run);
  const database = openStatementDatabase({ url, maxConnections: choice.maxConnections });
  try {
    await requireSchemaUpToDate(database);
    return await run(database);
  } finally {
    await database.close();
  }
}

/**
 * For long-running processes (the runner): a database that is down at start-up is waited for with
 * backoff instead of exiting, so a supervisor does not crash-loop through an outage. A schema that
 * is behind is not an outage: that still fails at once, with the command to run.
 */
export async function openChosenDatabaseWhenReachable(choice: DatabaseChoice, logger: Logger, sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))): Promise<Database> {
  if (chosenEngine(choice) === 'pglite') {
    // A long-lived process on the embedded database owns it and serves it to the others.
    const { describeCommand, serveEmbeddedDatabase } = await loadEmbedded();
    const { database } = await serveEmbeddedDatabase(chosenDataDir(choice), choice.command ?? describeCommand());
    await ensureSchemaOrClose(database);
    return database;
  }
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await openChosenDatabase(choice);
    } catch (error) {
      if (error instanceof SchemaBehindError) throw error;
      const delayMs = Math.min(30_000, 500 * 2 ** Math.min(attempt, 6));
      logger.error('database unreachable at start-up; retrying', { error: (error as Error).message, attempt, delayMs });
      await sleep(delayMs);
    }
  }
}

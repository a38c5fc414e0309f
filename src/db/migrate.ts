/**
 * Migrations are drizzle-kit SQL in `migrations/`, generated, never edited by hand except to append
 * what drizzle-kit cannot express (a storage parameter, 0004; triggers, 0006 and 0009), commented
 * as such; a lock that must precede the generated statements is prepended (0009). The
 * embedded database migrates itself; PostgreSQL is migrated only by `cronform migrate`, and
 * other commands refuse to run against a schema that is behind.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { queryRows, type Database } from './client.js';

/** Both `src/db` and `dist/db` sit two levels below the package root. */
export const MIGRATIONS_FOLDER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'migrations');

/** Serializes concurrent `migrate` runs on one PostgreSQL. */
const MIGRATION_LOCK_KEY = 0x63666d01;

interface JournalEntry {
  tag: string;
  when: number;
}

export interface SchemaStatus {
  applied: number;
  expected: number;
  pending: string[];
  upToDate: boolean;
}

function readJournal(): JournalEntry[] {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: JournalEntry[] };
  return journal.entries;
}

export async function readSchemaStatus(database: Database): Promise<SchemaStatus> {
  const entries = readJournal();
  const [exists] = await queryRows<{ present: boolean }>(database.db, sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`);
  let lastApplied = 0;
  let applied = 0;
  if (exists?.present) {
    const [row] = await queryRows<{ count: string | number; last: string | number | null }>(database.db, sql`select count(*) as count, max(created_at) as last from drizzle.__drizzle_migrations`);
    applied = Number(row?.count ?? 0);
    lastApplied = Number(row?.last ?? 0);
  }
  const pending = entries.filter((entry) => entry.when > lastApplied).map((entry) => entry.tag);
  return { applied, expected: entries.length, pending, upToDate: pending.length === 0 };
}

export interface MigrationResult extends SchemaStatus {
  /** The migrations this call applied (tags, in order): empty when the schema was already up to date. */
  appliedNow: string[];
}

export async function migrateDatabase(database: Database): Promise<MigrationResult> {
  // Read outside the PostgreSQL lock: a concurrent `migrate` can only make appliedNow name a
  // migration the other one applied; the schema ends the same either way.
  const before = await readSchemaStatus(database);
  if (database.engine === 'pglite') {
    const { migrate: migratePglite } = await import('drizzle-orm/pglite/migrator');
    await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder: MIGRATIONS_FOLDER });
  } else {
    const { migrate: migratePg } = await import('drizzle-orm/node-postgres/migrator');
    await database.db.execute(sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
    try {
      await migratePg(database.db as unknown as NodePgDatabase, { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await database.db.execute(sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`);
    }
  }
  const after = await readSchemaStatus(database);
  return { ...after, appliedNow: before.pending.filter((tag) => !after.pending.includes(tag)) };
}

export class SchemaBehindError extends Error {
  constructor(readonly status: SchemaStatus) {
    super(`the database schema is behind: ${status.pending.length} migration(s) pending (${status.pending.join(', ')}). Run \`cronform migrate\` (with the same --database-url / DATABASE_URL) first.`);
  }
}

/** Embedded databases migrate automatically; PostgreSQL must be migrated explicitly. */
export async function ensureSchema(database: Database): Promise<void> {
  const status = await readSchemaStatus(database);
  if (status.upToDate) return;
  if (database.engine === 'pglite') {
    await migrateDatabase(database);
    return;
  }
  throw new SchemaBehindError(status);
}

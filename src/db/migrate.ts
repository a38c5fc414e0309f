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
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { sql } from 'drizzle-orm/sql/sql';
import { queryRows, type Database, type StatementDatabase } from './client.js';

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

export async function readSchemaStatus(database: StatementDatabase): Promise<SchemaStatus> {
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
  if (database.engine === 'pglite') {
    // One process owns an embedded database, so nothing applies migrations between the two reads.
    const before = await readSchemaStatus(database);
    const { migrate: migratePglite } = await import('drizzle-orm/pglite/migrator');
    await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder: MIGRATIONS_FOLDER });
    const after = await readSchemaStatus(database);
    return { ...after, appliedNow: before.pending.filter((tag) => !after.pending.includes(tag)) };
  }
  const appliedMillis = await migratePostgres(database);
  const after = await readSchemaStatus(database);
  const tags = new Map(readJournal().map((entry) => [entry.when, entry.tag]));
  return { ...after, appliedNow: appliedMillis.map((when) => tags.get(when) ?? String(when)) };
}

/**
 * drizzle's PostgreSQL migrator (`dialect.migrate`), run in ONE transaction that first takes a
 * transaction-scoped advisory lock. drizzle's own runs three statements (schema, table, last
 * applied) outside its transaction, so serializing concurrent runs took a session-level lock held
 * across them, and that needs every statement on one server connection: not true of a pool, and
 * never true behind PgBouncer in transaction mode, where the lock and its unlock may reach
 * different server connections and the lock then outlives the command. Here the lock ends with the
 * transaction whatever happens, and a second `migrate` waits for it, then finds nothing to do
 * (so `appliedNow` names only what this call applied). Returns the applied migrations' `when`.
 * Same table, same rows (hash, folderMillis) as drizzle's: `test/db/migrate-postgres.test.ts`
 * holds the two to the same result.
 */
async function migratePostgres(database: Database): Promise<number[]> {
  const { readMigrationFiles } = await import('drizzle-orm/migrator');
  const migrations = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    await tx.execute(sql`create schema if not exists drizzle`);
    await tx.execute(sql`create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`);
    const [last] = await queryRows<{ created_at: string | number | null }>(tx, sql`select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`);
    const lastApplied = last ? Number(last.created_at) : undefined;
    const applied: number[] = [];
    for (const migration of migrations) {
      if (lastApplied !== undefined && lastApplied >= migration.folderMillis) continue;
      for (const statement of migration.sql) await tx.execute(sql.raw(statement));
      await tx.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${migration.hash}, ${migration.folderMillis})`);
      applied.push(migration.folderMillis);
    }
    return applied;
  });
}

export class SchemaBehindError extends Error {
  constructor(readonly status: SchemaStatus) {
    super(`the database schema is behind: ${status.pending.length} migration(s) pending (${status.pending.join(', ')}). Run \`cronform migrate\` (with the same --database-url / DATABASE_URL) first.`);
  }
}

/** Embedded databases migrate automatically; PostgreSQL must be migrated explicitly. */
export async function ensureSchema(database: Database): Promise<void> {
  if (database.engine !== 'pglite') return requireSchemaUpToDate(database);
  const status = await readSchemaStatus(database);
  if (!status.upToDate) await migrateDatabase(database);
}

/** PostgreSQL: a schema that is behind stops the command, with the migrations to run. */
export async function requireSchemaUpToDate(database: StatementDatabase): Promise<void> {
  const status = await readSchemaStatus(database);
  if (!status.upToDate) throw new SchemaBehindError(status);
}

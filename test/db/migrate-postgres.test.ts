/**
 * PostgreSQL migrations run in one transaction under a transaction-scoped lock (src/db/migrate.ts),
 * in place of drizzle's migrator: held here to drizzle's result, and to one run at a time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { migrate as migrateWithDrizzle } from 'drizzle-orm/node-postgres/migrator';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { queryRows, type Database } from '../../src/db/client.js';
import { MIGRATIONS_FOLDER, migrateDatabase, readSchemaStatus } from '../../src/db/migrate.js';
import { createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../support/databases.js';

/** What a schema is made of, in an order independent of creation order. */
async function describeCatalog(database: Database): Promise<unknown> {
  const columns = await queryRows(database.db, sql`
    select table_schema, table_name, column_name, data_type, is_nullable, column_default
    from information_schema.columns where table_schema not in ('pg_catalog', 'information_schema')
    order by 1, 2, 3`);
  const indexes = await queryRows(database.db, sql`select schemaname, tablename, indexname, indexdef from pg_indexes where schemaname not in ('pg_catalog') order by 1, 2, 3`);
  const constraints = await queryRows(database.db, sql`
    select conrelid::regclass::text as relation, conname, pg_get_constraintdef(oid) as definition
    from pg_constraint where connamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace) order by 1, 2`);
  const triggers = await queryRows(database.db, sql`select tgrelid::regclass::text as relation, tgname, pg_get_triggerdef(oid) as definition from pg_trigger where not tgisinternal order by 1, 2`);
  const functions = await queryRows(database.db, sql`
    select n.nspname, p.proname, pg_get_functiondef(p.oid) as definition from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname not in ('pg_catalog', 'information_schema') order by 1, 2, 3`);
  return { columns, indexes, constraints, triggers, functions };
}

async function appliedMigrations(database: Database) {
  return queryRows<{ hash: string; created_at: string }>(database.db, sql`select hash, created_at from drizzle.__drizzle_migrations order by id`);
}

describe.skipIf(!postgresServerUrl)('migrations on PostgreSQL', () => {
  const servers: TestPostgres[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.drop();
  });
  const emptyDatabase = async () => {
    const server = await createPostgresDatabase({ migrated: false });
    servers.push(server);
    return server;
  };

  it('leave the schema and the migrations table exactly as drizzle migrator does', async () => {
    const [byDrizzle, byCronform] = await Promise.all([emptyDatabase(), emptyDatabase()]);
    const drizzleDatabase = await byDrizzle.open();
    await migrateWithDrizzle(drizzleDatabase.db as unknown as NodePgDatabase, { migrationsFolder: MIGRATIONS_FOLDER });
    const cronformDatabase = await byCronform.open();
    const result = await migrateDatabase(cronformDatabase);
    expect(result.upToDate).toBe(true);
    expect(await appliedMigrations(cronformDatabase)).toEqual(await appliedMigrations(drizzleDatabase));
    expect(await describeCatalog(cronformDatabase)).toEqual(await describeCatalog(drizzleDatabase));
  });

  it('serialize concurrent runs: each migration applied once, no lock left behind', async () => {
    const server = await emptyDatabase();
    const databases = await Promise.all([server.open(), server.open(), server.open()]);
    const results = await Promise.all(databases.map((database) => migrateDatabase(database)));
    const status = await readSchemaStatus(databases[0]!);
    expect(status.upToDate).toBe(true);
    const applied = await appliedMigrations(databases[0]!);
    expect(applied).toHaveLength(status.expected);
    expect(new Set(applied.map((row) => row.hash)).size).toBe(status.expected);
    // Exactly one of the three applied everything; the others waited and found nothing to do.
    expect(results.map((result) => result.appliedNow.length).sort((a, b) => a - b)).toEqual([0, 0, status.expected]);
    // This database's locks only: other tests' runners and applies on the same server hold theirs.
    const [locks] = await queryRows<{ held: number }>(
      databases[0]!.db,
      sql`select count(*)::int as held from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`,
    );
    expect(locks?.held).toBe(0);
  });

  it('leaves nothing applied when a migration fails part way', async () => {
    const server = await emptyDatabase();
    const database = await server.open();
    // A table in the way of the first migration makes it fail after the lock and the bookkeeping table.
    await database.db.execute(sql`create table schedules (id int)`);
    await expect(migrateDatabase(database)).rejects.toThrow();
    const [exists] = await queryRows<{ present: boolean }>(database.db, sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`);
    expect(exists?.present).toBe(false);
    const [locks] = await queryRows<{ held: number }>(database.db, sql`select count(*)::int as held from pg_locks where locktype = 'advisory'`);
    expect(locks?.held).toBe(0);
  });
});

/**
 * Test databases: a fresh migrated PGlite per test (cloned from one migrated template, since
 * creating PGlite from scratch costs ~2 s), and a fresh database on the real PostgreSQL server
 * named by CRONFORM_TEST_DATABASE_URL / DATABASE_URL (created and dropped per use).
 */
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import pg from 'pg';
import { listenPglite, openDatabase, type AppDatabase, type Database } from '../../src/db/client.js';
import { migrateDatabase } from '../../src/db/migrate.js';
import * as schema from '../../src/db/schema.js';

let template: Promise<Blob> | undefined;

async function migratedTemplate(): Promise<Blob> {
  template ??= (async () => {
    const client = new PGlite();
    const database: Database = { engine: 'pglite', db: drizzle(client, { schema }) as unknown as AppDatabase, label: 'template', listen: (c, f) => listenPglite(client, c, f), close: () => client.close() };
    await migrateDatabase(database);
    const dump = await client.dumpDataDir('none');
    await client.close();
    return dump;
  })();
  return template;
}

export async function createPgliteDatabase(): Promise<Database> {
  const client = new PGlite({ loadDataDir: await migratedTemplate() });
  await client.waitReady;
  return {
    engine: 'pglite',
    db: drizzle(client, { schema }) as unknown as AppDatabase,
    label: 'embedded PGlite (test)',
    listen: (channel, onNotify) => listenPglite(client, channel, onNotify),
    close: () => client.close(),
  };
}

export const postgresServerUrl = process.env.CRONFORM_TEST_DATABASE_URL ?? process.env.DATABASE_URL;

export interface TestPostgres {
  url: string;
  open(options?: { maxConnections?: number }): Promise<Database>;
  drop(): Promise<void>;
}

/** A new, empty (unmigrated) database on the test server. */
export async function createPostgresDatabase(): Promise<TestPostgres> {
  if (!postgresServerUrl) throw new Error('set CRONFORM_TEST_DATABASE_URL (or DATABASE_URL) to a PostgreSQL server for this test');
  const name = `cronform_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresServerUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(postgresServerUrl);
  url.pathname = `/${name}`;
  const opened: Database[] = [];
  return {
    url: url.toString(),
    async open(options = {}) {
      const database = await openDatabase({ url: url.toString(), maxConnections: options.maxConnections ?? 5 });
      opened.push(database);
      return database;
    },
    async drop() {
      for (const database of opened.splice(0)) await database.close().catch(() => undefined);
      const client = new pg.Client({ connectionString: postgresServerUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

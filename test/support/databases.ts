/**
 * Test databases: a migrated PGlite per test, loaded from the image `global-setup.ts` built once for
 * the run and reused within a test file once emptied (`pglite-pool.ts`), and a fresh database on the real PostgreSQL server named by
 * CRONFORM_TEST_DATABASE_URL / DATABASE_URL (created and dropped per use), empty or cloned from the
 * run's migrated template with `CREATE DATABASE … TEMPLATE`.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.js';
import { migrateDatabase } from '../../src/db/migrate.js';
import { buildMigratedPgliteImage, createPostgresDatabaseNamed, databaseUrl, dropPostgresDatabase, postgresServerUrl, writeEmbeddedDatabase } from './database-templates.js';
import { leasePgliteDatabase } from './pglite-pool.js';

export { postgresServerUrl } from './database-templates.js';

let image: Promise<Blob> | undefined;

/** The run's migrated image; built here only when the test runs outside the db/system projects. */
function migratedImage(): Promise<Blob> {
  image ??= (async () => {
    const imagePath = inject('pgliteImagePath');
    return imagePath ? new Blob([readFileSync(imagePath)]) : buildMigratedPgliteImage();
  })();
  return image;
}

let seededDataDir: Promise<string> | undefined;

/** A closed data directory holding the run's migrated image: the run's, or one written for this file. */
function migratedDataDir(): Promise<string> {
  seededDataDir ??= (async () => {
    const provided = inject('pgliteDataDirPath');
    if (provided) return provided;
    const folder = mkdtempSync(path.join(tmpdir(), 'cronform-test-data-'));
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
    const dataDir = path.join(folder, 'db');
    await writeEmbeddedDatabase(dataDir, await migratedImage());
    return dataDir;
  })();
  return seededDataDir;
}

/**
 * Makes `dataDir` (a working directory's `.cronform/db`) a copy of the migrated embedded database,
 * so a command scenario starts on a migrated database without migrating it. Copying the files
 * costs a fraction of starting a PGlite to write them. The embedded engine's own first-use
 * migration is tested where it is the subject (test/db/migrate).
 */
export async function seedEmbeddedDatabase(dataDir: string): Promise<void> {
  mkdirSync(path.dirname(dataDir), { recursive: true });
  cpSync(await migratedDataDir(), dataDir, { recursive: true });
}

/**
 * A migrated PGlite of its own for the calling test. `close()` empties it for the file's next test
 * instead of discarding it (`pglite-pool.ts`): a test that does not close its database only costs
 * the next one a fresh load.
 */
export function createPgliteDatabase(): Promise<Database> {
  return leasePgliteDatabase(migratedImage);
}

/** A migrated in-memory PGlite itself, for tests of what serves or wraps the client. */
export async function createPgliteClient(): Promise<PGlite> {
  const client = new PGlite({ loadDataDir: await migratedImage() });
  await client.waitReady;
  return client;
}

export interface TestPostgres {
  url: string;
  open(options?: { maxConnections?: number }): Promise<Database>;
  drop(): Promise<void>;
}

/**
 * A new database on the test server: by default a clone of the run's migrated template (migrated
 * here when the run has none), or empty and unmigrated with `{ migrated: false }`.
 */
export async function createPostgresDatabase(options: { migrated?: boolean } = {}): Promise<TestPostgres> {
  if (!postgresServerUrl) throw new Error('set CRONFORM_TEST_DATABASE_URL (or DATABASE_URL) to a PostgreSQL server for this test');
  const serverUrl = postgresServerUrl;
  const name = `cronform_test_${randomBytes(6).toString('hex')}`;
  const migrated = options.migrated ?? true;
  const template = migrated ? inject('postgresTemplate') : undefined;
  await createPostgresDatabaseNamed(serverUrl, name, template || undefined);
  const url = databaseUrl(serverUrl, name);
  const opened: Database[] = [];
  const testDatabase: TestPostgres = {
    url,
    async open(openOptions = {}) {
      const database = await openDatabase({ url, maxConnections: openOptions.maxConnections ?? 5 });
      opened.push(database);
      return database;
    },
    async drop() {
      for (const database of opened.splice(0)) await database.close().catch(() => undefined);
      await dropPostgresDatabase(serverUrl, name);
    },
  };
  if (migrated && !template) {
    const database = await openDatabase({ url, maxConnections: 1 });
    await migrateDatabase(database).finally(() => database.close());
  }
  return testDatabase;
}

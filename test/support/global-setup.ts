/**
 * Once per test run (vitest globalSetup of the `db` and `system` projects): one migrated PGlite
 * image written to a temporary file, the same as an embedded data directory that command
 * scenarios copy (a copy costs a fraction of starting PGlite to write one), and, where a PostgreSQL server is configured, one migrated
 * template database. Tests clone them (`test/support/databases.ts`) instead of migrating a database
 * of their own: migrating costs seconds on PGlite, a clone a fraction of that.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildMigratedPgliteImage, createMigratedPostgresTemplate, dropPostgresDatabase, postgresServerUrl, writeEmbeddedDatabase } from './database-templates.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding the migrated PGlite data directory (`dumpDataDir` output). */
    pgliteImagePath: string;
    /** A closed embedded data directory (`.cronform/db`) holding the migrated image, to copy. */
    pgliteDataDirPath: string;
    /** The migrated template database on the test server; empty when none is configured. */
    postgresTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const folder = mkdtempSync(path.join(tmpdir(), 'cronform-test-image-'));
  const imagePath = path.join(folder, 'pglite-migrated.tar');
  writeFileSync(imagePath, Buffer.from(await (await buildMigratedPgliteImage()).arrayBuffer()));
  project.provide('pgliteImagePath', imagePath);
  const dataDirPath = path.join(folder, 'pglite-migrated-data');
  await writeEmbeddedDatabase(dataDirPath, new Blob([readFileSync(imagePath)]));
  project.provide('pgliteDataDirPath', dataDirPath);

  let template = '';
  if (postgresServerUrl) {
    template = `cronform_template_${randomBytes(6).toString('hex')}`;
    await createMigratedPostgresTemplate(postgresServerUrl, template);
  }
  project.provide('postgresTemplate', template);

  return async () => {
    rmSync(folder, { recursive: true, force: true });
    if (template && postgresServerUrl) await dropPostgresDatabase(postgresServerUrl, template);
  };
}

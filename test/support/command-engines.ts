/**
 * One command scenario on both engines (tests of commands that touch the database): the embedded
 * PGlite of a scratch working directory, and PostgreSQL through --database-url where a server is
 * configured.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'vitest';
import { DEFAULT_DATA_DIR, openDatabase, type Database } from '../../src/db/client.js';
import { createPostgresDatabase, postgresServerUrl, seedEmbeddedDatabase } from './databases.js';
import { inWorkingDirectory } from './run-command.js';

/** Where a command scenario runs: the arguments that select the database, and a way to inspect it. */
export interface CommandEngine {
  /** A scratch directory of this test (the working directory on the embedded engine). */
  scratch: string;
  /** Arguments selecting the database (none on the embedded engine: the working directory's). */
  databaseArgs: string[];
  /** Opens the database the commands used, for checks; the caller closes it. */
  openForChecks: () => Promise<Database>;
  embedded: boolean;
}

/**
 * The same command scenario on both engines: the embedded PGlite of a scratch working directory
 * (seeded with the run's migrated image) and, where a server is configured, PostgreSQL through
 * --database-url on a clone of the run's migrated template.
 */
export function describeOnBothEngines(title: string, scenario: (engine: CommandEngine) => Promise<void>): void {
  describe(title, () => {
    let scratch: string;
    beforeEach(() => {
      scratch = mkdtempSync(path.join(tmpdir(), 'cronform-command-'));
    });
    afterEach(() => rmSync(scratch, { recursive: true, force: true }));

    it('on the embedded PGlite of the working directory', async () => {
      await seedEmbeddedDatabase(path.join(scratch, DEFAULT_DATA_DIR));
      const openForChecks = () => openDatabase({ dataDir: path.join(scratch, DEFAULT_DATA_DIR) });
      await inWorkingDirectory(scratch, () => scenario({ scratch, databaseArgs: [], openForChecks, embedded: true }));
    }, 120_000);

    it.runIf(postgresServerUrl)('on PostgreSQL with --database-url', async () => {
      const server = await createPostgresDatabase();
      try {
        const url = server.url;
        await scenario({ scratch, databaseArgs: ['--database-url', url], openForChecks: () => openDatabase({ url }), embedded: false });
      } finally {
        await server.drop();
      }
    }, 120_000);
  });
}

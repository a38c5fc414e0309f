/**
 * Runs a cronform command in-process, the way `bin/run.js` would, and captures what it printed.
 * The exit code is the one the command chose; an error it did not map to one is -1, so a test
 * never mistakes a crash for success.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { captureOutput } from '@oclif/test';
import { afterEach, beforeEach, describe, it } from 'vitest';
import { DEFAULT_DATA_DIR, openDatabase, type Database } from '../../src/db/client.js';
import { migrateDatabase } from '../../src/db/migrate.js';
import { createPostgresDatabase, postgresServerUrl } from './databases.js';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface Runnable {
  run(argv: string[], root: string): Promise<unknown>;
}

export async function runCommand(command: Runnable, argv: string[]) {
  const output = await captureOutput(() => command.run(argv, repoRoot));
  const exitCode = (output.error as { oclif?: { exit?: number } } | undefined)?.oclif?.exit ?? (output.error ? -1 : 0);
  return { ...output, exitCode, message: output.error?.message ?? '' };
}

/**
 * Runs `work` with `directory` as the working directory and without DATABASE_URL, so commands use
 * the embedded PGlite of that directory (`.cronform/db`); both are restored afterwards.
 */
export async function inWorkingDirectory<T>(directory: string, work: () => Promise<T>): Promise<T> {
  const cwd = process.cwd();
  const databaseUrl = process.env.DATABASE_URL;
  delete process.env.DATABASE_URL;
  process.chdir(directory);
  try {
    return await work();
  } finally {
    process.chdir(cwd);
    if (databaseUrl !== undefined) process.env.DATABASE_URL = databaseUrl;
  }
}

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
 * The same command scenario on both engines: the embedded PGlite of a scratch working directory,
 * and (where a server is configured) PostgreSQL through --database-url, on a fresh migrated database.
 */
export function describeOnBothEngines(title: string, scenario: (engine: CommandEngine) => Promise<void>): void {
  describe(title, () => {
    let scratch: string;
    beforeEach(() => {
      scratch = mkdtempSync(path.join(tmpdir(), 'cronform-command-'));
    });
    afterEach(() => rmSync(scratch, { recursive: true, force: true }));

    it('on the embedded PGlite of the working directory', async () => {
      const openForChecks = () => openDatabase({ dataDir: path.join(scratch, DEFAULT_DATA_DIR) });
      await inWorkingDirectory(scratch, () => scenario({ scratch, databaseArgs: [], openForChecks, embedded: true }));
    }, 120_000);

    it.runIf(postgresServerUrl)('on PostgreSQL with --database-url', async () => {
      const server = await createPostgresDatabase();
      try {
        await migrateDatabase(await server.open());
        const url = server.url;
        await scenario({ scratch, databaseArgs: ['--database-url', url], openForChecks: () => openDatabase({ url }), embedded: false });
      } finally {
        await server.drop();
      }
    }, 120_000);
  });
}

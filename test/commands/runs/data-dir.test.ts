/**
 * `dev --data-dir X` keeps the embedded database in X; every other command finds it there with the
 * same `--data-dir X` or with CRONFORM_DATA_DIR=X (src/commands/database-flags.ts), through the owner
 * that serves it, as `dev` does. The owner here is the one `dev` opens (serveEmbeddedDatabase);
 * the command runs in-process in a directory whose `.cronform/db` does not exist.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Status from '../../../src/commands/status.js';
import { upsertRunner } from '../../../src/db/reconcile-queries.js';
import { chosenDataDir } from '../../../src/operations/database.js';
import { serveEmbeddedDatabase, type ServedDatabase } from '../../../src/operations/embedded-database.js';
import { seedEmbeddedDatabase } from '../../support/databases.js';
import { inWorkingDirectory, runCommand } from '../../support/run-command.js';

describe('a database in another directory (dev --data-dir)', () => {
  let project: string;
  let owner: ServedDatabase;
  beforeAll(async () => {
    project = mkdtempSync(path.join(tmpdir(), 'cf-data-dir-'));
    const dataDir = path.join(project, 'elsewhere', 'db');
    await seedEmbeddedDatabase(dataDir);
    owner = await serveEmbeddedDatabase(dataDir, 'cronform dev');
    await upsertRunner(owner.database.db, { id: 'runner-in-elsewhere', hostname: 'h', pid: 1, version: '0' }, new Date());
  }, 120_000);
  afterAll(async () => {
    await owner?.database.close();
    rmSync(project, { recursive: true, force: true });
  });

  it('is found by a command given the same --data-dir, through its owner', async () => {
    const result = await inWorkingDirectory(project, () => runCommand(Status, ['--data-dir', 'elsewhere/db']));
    expect(result.message).toBe('');
    expect(result.stdout).toContain('runner-in-elsewhere');
    expect(existsSync(path.join(project, '.cronform'))).toBe(false);
  });

  it('is found through CRONFORM_DATA_DIR, which the flag overrides', async () => {
    process.env.CRONFORM_DATA_DIR = 'elsewhere/db';
    try {
      const result = await inWorkingDirectory(project, () => runCommand(Status, []));
      expect(result.stdout).toContain('runner-in-elsewhere');
    } finally {
      delete process.env.CRONFORM_DATA_DIR;
    }
    expect(existsSync(path.join(project, '.cronform'))).toBe(false);
  });

  it('resolves the directory: flag, then CRONFORM_DATA_DIR, then .cronform/db, under the working directory', () => {
    expect(chosenDataDir({ cwd: '/p', dataDir: 'a', env: { CRONFORM_DATA_DIR: 'b' } })).toBe(path.resolve('/p/a'));
    expect(chosenDataDir({ cwd: '/p', env: { CRONFORM_DATA_DIR: 'b' } })).toBe(path.resolve('/p/b'));
    expect(chosenDataDir({ cwd: '/p', env: {} })).toBe(path.resolve('/p/.cronform/db'));
  });
});

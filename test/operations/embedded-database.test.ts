/**
 * Owner and client of the embedded database in one process (src/operations/embedded-database.ts):
 * a data directory whose socket path would pass the OS limit is served on 127.0.0.1 instead, a
 * command finds the owner through the lock file and reads what the owner wrote, and closing the
 * owner leaves neither lock nor socket behind.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.js';
import { openEmbeddedDatabase, serveEmbeddedDatabase, socketDirOf, type ServedDatabase } from '../../src/operations/embedded-database.js';
import { lockPathOf } from '../../src/operations/embedded-lock.js';
import { seedEmbeddedDatabase } from '../support/databases.js';

let root: string;
let dataDir: string;
let owner: ServedDatabase;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'cf-embedded-'));
  // Deep enough that `<dir>/db.socket/.s.PGSQL.5432` passes the 103 bytes a socket path may have.
  dataDir = path.join(root, 'a-directory-name-long-enough'.repeat(3), '.cronform', 'db');
  mkdirSync(path.dirname(dataDir), { recursive: true });
  await seedEmbeddedDatabase(dataDir);
  owner = await serveEmbeddedDatabase(dataDir, 'cronform dev');
}, 120_000);

afterAll(async () => {
  await owner?.database.close().catch(() => undefined);
  rmSync(root, { recursive: true, force: true });
});

it('serves on loopback TCP when the socket path is too long, and a command reads through it', async () => {
  expect(owner.address).toEqual({ host: '127.0.0.1', port: expect.any(Number) });
  const lock = JSON.parse(readFileSync(lockPathOf(dataDir), 'utf8')) as { pid: number; command: string; serving: { address: unknown } };
  expect(lock).toMatchObject({ pid: process.pid, command: 'cronform dev', serving: { address: owner.address } });

  await owner.database.db.execute(sql`create table shared_check (note text)`);
  await owner.database.db.execute(sql`insert into shared_check values ('written by the owner')`);
  const client = await openEmbeddedDatabase(dataDir, 'cronform runs');
  try {
    expect(client.label).toBe(`embedded PGlite at ${dataDir}, served by \`cronform dev\` (pid ${process.pid})`);
    expect(await queryRows(client.db, sql`select note from shared_check`)).toEqual([{ note: 'written by the owner' }]);
  } finally {
    await client.close();
  }

  await owner.database.close();
  expect(existsSync(lockPathOf(dataDir))).toBe(false);
  expect(existsSync(socketDirOf(dataDir))).toBe(false);
}, 60_000);

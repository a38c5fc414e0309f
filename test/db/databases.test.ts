import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.js';
import { migrateDatabase, readSchemaStatus } from '../../src/db/migrate.js';
import { createPgliteDatabase, createPostgresDatabase, postgresServerUrl } from '../support/databases.js';
import { pgliteCounts } from '../support/pglite-pool.js';

describe('test databases', () => {
  it('clones a migrated PGlite per test, isolated from each other', async () => {
    const a = await createPgliteDatabase();
    const b = await createPgliteDatabase();
    try {
      expect((await readSchemaStatus(a)).upToDate).toBe(true);
      await a.db.execute(sql`insert into runners (id, hostname, pid, version, started_at, heartbeat_at) values ('r1', 'h', 1, 'v', now(), now())`);
      const rows = await queryRows<{ n: number }>(b.db, sql`select count(*)::int as n from runners`);
      expect(rows[0]?.n).toBe(0);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('reuses a closed PGlite only once it is back in the image\'s state, and never through the old handle', async () => {
    const insertRunner = sql`insert into runners (id, hostname, pid, version, started_at, heartbeat_at) values ('r1', 'h', 1, 'v', now(), now())`;
    const used = await createPgliteDatabase();
    await used.db.execute(insertRunner);
    await used.close();
    const reusedBefore = pgliteCounts.reused;
    const next = await createPgliteDatabase();
    const discardedBefore = pgliteCounts.discarded;
    try {
      expect(pgliteCounts.reused).toBe(reusedBefore + 1);
      expect((await readSchemaStatus(next)).upToDate).toBe(true);
      const rows = await queryRows<{ n: number }>(next.db, sql`select count(*)::int as n from runners`);
      expect(rows[0]?.n).toBe(0);
      await expect(used.db.execute(sql`select 1`)).rejects.toMatchObject({ cause: { message: expect.stringMatching(/PGlite database was closed/) } });
      // A schema change cannot be emptied away: that instance is not handed out again.
      await next.db.execute(sql`alter table runners add column extra text`);
    } finally {
      await next.close();
    }
    expect(pgliteCounts.discarded).toBe(discardedBefore + 1);
    const fresh = await createPgliteDatabase();
    try {
      const columns = await queryRows<{ n: number }>(fresh.db, sql`select count(*)::int as n from information_schema.columns where table_name = 'runners' and column_name = 'extra'`);
      expect(columns[0]?.n).toBe(0);
    } finally {
      await fresh.close();
    }
  });

  it.runIf(postgresServerUrl)('migrates a fresh PostgreSQL database and refuses nothing afterwards', async () => {
    const server = await createPostgresDatabase({ migrated: false });
    try {
      const database = await server.open();
      expect((await readSchemaStatus(database)).upToDate).toBe(false);
      expect((await migrateDatabase(database)).upToDate).toBe(true);
      // Migrating twice (a second replica starting) is a no-op.
      expect((await migrateDatabase(database)).pending).toEqual([]);
    } finally {
      await server.drop();
    }
  });

  it.runIf(postgresServerUrl)('clones the run\'s migrated template per database, isolated from each other', async () => {
    const first = await createPostgresDatabase();
    const second = await createPostgresDatabase();
    try {
      const a = await first.open();
      const b = await second.open();
      expect((await readSchemaStatus(a)).upToDate).toBe(true);
      expect((await readSchemaStatus(b)).upToDate).toBe(true);
      await a.db.execute(sql`insert into runners (id, hostname, pid, version, started_at, heartbeat_at) values ('r1', 'h', 1, 'v', now(), now())`);
      const rows = await queryRows<{ n: number }>(b.db, sql`select count(*)::int as n from runners`);
      expect(rows[0]?.n).toBe(0);
    } finally {
      await first.drop();
      await second.drop();
    }
  });
});

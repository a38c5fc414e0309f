import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows, type Database } from '../../src/db/client.js';
import { describeMigration } from '../../src/commands/migrate.js';
import { ensureSchema, migrateDatabase, readSchemaStatus } from '../../src/db/migrate.js';

describe('migrations on embedded PGlite', () => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
  });

  it('reports a fresh database as behind, then migrates it and creates every table', async () => {
    database = await openDatabase({ inMemory: true });
    const before = await readSchemaStatus(database);
    expect(before.upToDate).toBe(false);
    expect(before.pending.length).toBe(before.expected);
    const after = await migrateDatabase(database);
    expect(after).toMatchObject({ upToDate: true, pending: [], appliedNow: before.pending });
    expect(describeMigration('embedded', after)).toBe(`embedded: applied ${before.expected} migrations (${before.pending.join(', ')}); schema up to date`);
    // A second run applies nothing and says so, instead of repeating the total.
    const again = await migrateDatabase(database);
    expect(again.appliedNow).toEqual([]);
    expect(describeMigration('embedded', again)).toBe(`embedded: schema up to date, nothing to apply (${before.expected} migrations already applied)`);
    // Tables, not their partitions (the run tables' days: test/db/run-partitions.test.ts).
    const tables = await queryRows<{ table_name: string }>(
      database.db,
      sql`select c.relname as table_name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by c.relname`,
    );
    expect(tables.map((t) => t.table_name)).toEqual(['active_runs', 'alert_deliveries', 'alerts', 'audit_log', 'dependency_joins', 'queue_handoff_deliveries', 'queue_handoffs', 'run_attempts', 'run_contexts', 'run_daily_rollups', 'run_final_events', 'run_items', 'run_progress', 'run_steps', 'runners', 'schedule_runs', 'schedule_versions', 'schedules', 'settings']);
  });

  it('ensureSchema migrates an embedded database automatically', async () => {
    database = await openDatabase({ inMemory: true });
    await ensureSchema(database);
    expect((await readSchemaStatus(database)).upToDate).toBe(true);
  });
});

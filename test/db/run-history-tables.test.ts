/**
 * Every table with a `run_id` column is either deleted with its run by retention or kept on
 * purpose (src/db/run-history-tables.ts): a new run-keyed table that joins neither list would be
 * left pointing at deleted runs, or block their deletion with a foreign key.
 */
import { sql } from 'drizzle-orm';
import { afterEach, expect, it } from 'vitest';
import { queryRows, type Database } from '../../src/db/client.js';
import { DELETED_WITH_RUN, KEPT_AFTER_RUN } from '../../src/db/run-history-tables.js';
import { createPgliteDatabase } from '../support/databases.js';

let database: Database | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

it('lists every table keyed by run id in DELETED_WITH_RUN or KEPT_AFTER_RUN, and no table twice', async () => {
  database = await createPgliteDatabase();
  const rows = await queryRows<{ table_name: string }>(
    database.db,
    // Tables, not their partitions (run_attempts' days are run_attempts).
    sql`select c.table_name from information_schema.columns c join pg_class t on t.oid = to_regclass(quote_ident(c.table_name))
        where c.table_schema = 'public' and c.column_name = 'run_id' and not t.relispartition order by c.table_name`,
  );
  const listed = [...DELETED_WITH_RUN, ...Object.keys(KEPT_AFTER_RUN)];
  expect(new Set(listed).size).toBe(listed.length);
  expect(rows.map((r) => r.table_name)).toEqual([...listed].sort());
});

it('has no foreign key to schedule_runs that retention would not satisfy (only DELETED_WITH_RUN tables may reference it)', async () => {
  database = await createPgliteDatabase();
  const rows = await queryRows<{ table_name: string }>(
    database.db,
    sql`select distinct c.conrelid::regclass::text as table_name from pg_constraint c where c.contype = 'f' and c.confrelid = 'schedule_runs'::regclass order by 1`,
  );
  for (const { table_name } of rows) expect(DELETED_WITH_RUN as readonly string[]).toContain(table_name);
});

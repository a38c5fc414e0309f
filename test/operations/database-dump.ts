/**
 * A byte-exact picture of a database's data, for "a failed apply leaves the database exactly as it
 * was": every row of every table (public and drizzle schemas), serialized by the server itself and
 * sorted, plus the sequences' positions, which PostgreSQL never rolls back (kept apart on purpose).
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';

export interface DatabaseDump {
  /** `schema.table` → rows as JSON text, sorted. */
  tables: Record<string, string[]>;
  /** `schema.sequence` → last_value (null before first use). */
  sequences: Record<string, string | null>;
}

export async function dumpDatabase(database: Database): Promise<DatabaseDump> {
  const tableNames = await queryRows<{ table_schema: string; table_name: string }>(
    database.db,
    sql`select table_schema, table_name from information_schema.tables
        where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE' order by table_schema, table_name`,
  );
  const tables: DatabaseDump['tables'] = {};
  for (const { table_schema: schema, table_name: table } of tableNames) {
    const rows = await queryRows<{ row: string }>(database.db, sql`select row_to_json(t)::text as row from ${sql.identifier(schema)}.${sql.identifier(table)} t order by 1`);
    tables[`${schema}.${table}`] = rows.map((r) => r.row);
  }
  const sequenceRows = await queryRows<{ name: string; last_value: string | number | null }>(
    database.db,
    sql`select schemaname || '.' || sequencename as name, last_value from pg_sequences where schemaname in ('public', 'drizzle') order by 1`,
  );
  const sequences = Object.fromEntries(sequenceRows.map((r) => [r.name, r.last_value === null ? null : String(r.last_value)]));
  return { tables, sequences };
}

/** Row counts per table, for messages and quick checks. */
export function countRows(dump: DatabaseDump): Record<string, number> {
  return Object.fromEntries(Object.entries(dump.tables).map(([name, rows]) => [name, rows.length]));
}

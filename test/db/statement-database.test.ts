/**
 * `status` runs its raw statements on openStatementDatabase's pool instead of drizzle's
 * node-postgres session (start-up, bench/cli-start). Held here to drizzle's `db.execute`: the same
 * rows for the same statements (text and parameters as PgDialect renders them, dates kept as
 * text, jsonb parsed), the same error for a failing one, and the same status report.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStatementDatabase, queryRows, type Database, type StatementDatabase } from '../../src/db/client.js';
import { SchemaBehindError } from '../../src/db/migrate.js';
import { withStatementDatabase } from '../../src/operations/database.js';
import { readScheduleStatus } from '../../src/operations/runs/schedule-status.js';
import { applySources, insertRunsAt, NOW_MS, scheduleSource } from '../operations/runs/run-fixtures.js';
import { createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../support/databases.js';

describe.skipIf(!postgresServerUrl)('openStatementDatabase on PostgreSQL', () => {
  let server: TestPostgres;
  let database: Database;
  let statements: StatementDatabase;
  beforeAll(async () => {
    server = await createPostgresDatabase();
    database = await server.open();
    statements = openStatementDatabase({ url: server.url, maxConnections: 1 });
  });
  afterAll(async () => {
    await statements?.close();
    await server?.drop();
  });

  it('opens every connection with JIT off, on both pools (wide plans over the run tables\' days)', async () => {
    expect(await queryRows(database.db, sql`show jit`)).toEqual([{ jit: 'off' }]);
    expect(await queryRows(statements.db, sql`show jit`)).toEqual([{ jit: 'off' }]);
    // In a transaction too: the setting is the session's, whichever connection the pool gives.
    expect(await database.db.transaction((tx) => queryRows(tx, sql`show jit`))).toEqual([{ jit: 'off' }]);
  });

  it('returns the rows drizzle returns, for parameters, fragments and every type status reads', async () => {
    const names = ['a', "b'c"];
    const query = sql`select ${'text'}::text as t, ${42}::int as i, 9007199254740993::int8 as big, ${1.5}::float8 as f, 1.25::numeric as n, true as b, null::text as nothing,
        '2026-03-01T12:00:00Z'::timestamptz as tz, '2026-03-01 12:00'::timestamp as ts, '2026-03-01'::date as d, '1 day 02:00'::interval as iv,
        array['2026-03-01'::date] as ds, array['2026-03-01T12:00:00Z'::timestamptz] as tzs, array[1.5::numeric] as ns, '{"a":[1,{"b":null}]}'::jsonb as j,
        ${new Date('2026-03-01T12:00:00Z').toISOString()}::timestamptz as ptz, ${sql.raw("'raw'")} as r, ${sql.identifier('quoted"name')}.x as qx
      from (select 1 as x) as ${sql.identifier('quoted"name')}
      where ${sql.join([sql`true`, sql`${'a'} in ${names}`], sql` and `)}`;
    const viaDrizzle = await queryRows(database.db, query);
    expect(viaDrizzle).toHaveLength(1);
    expect(await queryRows(statements.db, query)).toEqual(viaDrizzle);
    expect(viaDrizzle[0]).toMatchObject({ tz: expect.any(String), d: '2026-03-01', j: { a: [1, { b: null }] } });
  });

  it('fails a statement with the error drizzle gives (the query, its parameters, the driver error as cause)', async () => {
    const query = sql`select * from no_such_table where x = ${7}`;
    const failure = async (run: Promise<unknown>) => run.then(() => expect.fail('the statement succeeded'), (error: Error & { cause?: { code?: string } }) => ({ name: error.constructor.name, message: error.message, code: error.cause?.code }));
    const viaDrizzle = await failure(queryRows(database.db, query));
    expect(viaDrizzle).toMatchObject({ name: 'DrizzleQueryError', code: '42P01' });
    expect(await failure(queryRows(statements.db, query))).toEqual(viaDrizzle);
  });

  it('reads the same status report', async () => {
    await applySources(database, [scheduleSource('alpha', { cron: '0 * * * *' }), scheduleSource('beta')]);
    await insertRunsAt(database, 'alpha', [
      { slot: '2026-11-29T09:00:00Z', status: 'SUCCESS' },
      { slot: '2026-11-29T10:00:00Z', status: 'FAILED' },
      { slot: '2026-11-29T11:00:00Z', status: 'QUEUED' },
    ]);
    const viaDrizzle = await readScheduleStatus(database, { nowMs: NOW_MS });
    expect(viaDrizzle.schedules.map((s) => [s.name, s.finishedRuns])).toEqual([
      ['alpha', 2],
      ['beta', 0],
    ]);
    expect(await readScheduleStatus(statements, { nowMs: NOW_MS })).toEqual(viaDrizzle);
  });

  it('refuses a schema that is behind, as every other command on PostgreSQL does', async () => {
    const empty = await createPostgresDatabase({ migrated: false });
    try {
      await expect(withStatementDatabase({ databaseUrl: empty.url, cwd: process.cwd() }, async () => 'ran')).rejects.toBeInstanceOf(SchemaBehindError);
      expect(await withStatementDatabase({ databaseUrl: server.url, cwd: process.cwd() }, async (opened) => opened.engine)).toBe('postgres');
    } finally {
      await empty.drop();
    }
  });
});

/**
 * The array literals of the runner's batch statements must arrive exactly as sent, whatever the
 * text (a job's stderr tail can hold anything), checked by a real database parsing them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { instantArray, integerArray, textArray } from '../../src/db/array-literal.js';
import { queryRows, type Database } from '../../src/db/client.js';
import { createPgliteDatabase } from '../support/databases.js';

describe('array literals', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createPgliteDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  const roundTrip = async (literal: string | null, type: 'text' | 'bigint' | 'timestamptz', length: number) =>
    (
      await queryRows<{ value: string | null }>(
        database.db,
        sql`select (case when ${type} = 'timestamptz' then to_char(v::timestamptz at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') else v end) as value
            from unnest(${literal}::text[], ${integerArray(Array.from({ length }, (_, i) => i))}::int[]) as x(v, n) order by n`,
      )
    ).map((row) => row.value);

  it('keeps any text, quotes, backslashes, braces, commas, blanks and the word NULL included', async () => {
    const values = ['SUCCEEDED', '', 'NULL', 'null', ' spaced ', 'a,b', '{x}', 'say "hi"', 'C:\\path\\', '\\"', 'line\nbreak\ttab', 'é€😀', null, 'last'];
    expect(await roundTrip(textArray(values), 'text', values.length)).toEqual(values);
  });

  it('keeps integers, negative and large, and nulls', async () => {
    const values = [0, -1, 42, Number.MAX_SAFE_INTEGER, null, 7];
    const back = await queryRows<{ v: string | null }>(database.db, sql`select v::text as v from unnest(${integerArray(values)}::bigint[]) with ordinality as x(v, n) order by n`);
    expect(back.map((row) => (row.v === null ? null : Number(row.v)))).toEqual(values);
    expect(() => integerArray([1.5])).toThrow(/not an integer/);
  });

  it('keeps instants to the millisecond, from Dates or epoch milliseconds', async () => {
    const first = new Date('2026-03-29T01:00:00.001Z');
    const second = Date.parse('1999-12-31T23:59:59.999Z');
    const values = [first, second, second, null, new Date(second), first];
    expect(await roundTrip(instantArray(values), 'timestamptz', values.length)).toEqual([
      '2026-03-29T01:00:00.001Z',
      '1999-12-31T23:59:59.999Z',
      '1999-12-31T23:59:59.999Z',
      null,
      '1999-12-31T23:59:59.999Z',
      '2026-03-29T01:00:00.001Z',
    ]);
  });

  it('sends a column with no value at all as NULL, which unnest pads with nulls', async () => {
    expect(textArray([null, null])).toBeNull();
    expect(integerArray([null])).toBeNull();
    expect(instantArray([null])).toBeNull();
    const rows = await queryRows<{ n: number; v: string | null }>(database.db, sql`select * from unnest(${integerArray([1, 2])}::int[], ${textArray([null, null])}::text[]) as x(n, v)`);
    expect(rows).toEqual([
      { n: 1, v: null },
      { n: 2, v: null },
    ]);
  });
});

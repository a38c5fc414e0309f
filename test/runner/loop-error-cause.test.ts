/**
 * The runner's "loop failed" log says why a statement failed, not only which: drizzle's error
 * message is the failed SQL, and its cause carries the SQLSTATE and the server's message.
 */
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { causeOf } from '../../src/runner/runner.js';
import { createPgliteDatabase } from '../support/databases.js';

let database: Database | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

describe('causeOf', () => {
  it('gives the SQLSTATE and the message of a failed query, which its own message lacks', async () => {
    database = await createPgliteDatabase();
    const error = await database.db.execute(sql`select 1 / 0`).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect((error as Error).message).toContain('select 1 / 0');
    expect((error as Error).message).not.toContain('division by zero');
    expect(causeOf(error)).toBe('22012 division by zero');
  });

  it('is undefined for an error without a cause', () => {
    expect(causeOf(new Error('boom'))).toBeUndefined();
    expect(causeOf(undefined)).toBeUndefined();
  });
});

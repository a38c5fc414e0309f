/**
 * The served embedded database (src/db/pglite-server.ts): clients on the `pg` driver, their
 * transactions and extended-protocol exchanges never interleaved with each other or with the
 * owner's in-process queries, a vanished client's transaction rolled back, NOTIFY delivered across
 * sessions. The differential part runs one workload through `pg` against real PostgreSQL and
 * against the served PGlite and expects the same answers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { servePglite, type PgliteServer } from '../../src/db/pglite-server.js';
import { createPgliteClient, createPostgresDatabase, postgresServerUrl } from '../support/databases.js';

const password = 'test-password';
let dir: string;
let pglite: PGlite;
let server: PgliteServer;
const clients: pg.Client[] = [];

async function connect(options: { password?: string } = {}): Promise<pg.Client> {
  const client = new pg.Client({ host: dir, port: 5432, user: 'cronform', database: 'postgres', password: options.password ?? password });
  client.on('error', () => undefined);
  clients.push(client);
  await client.connect();
  return client;
}

/** Resolves with whether `promise` settled within a few turns of the event loop. */
async function settlesSoon(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

// One PGlite for the file (starting one costs seconds); a fresh table and server per test.
beforeAll(async () => {
  pglite = await createPgliteClient();
}, 120_000);
afterAll(() => pglite.close());

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'cf-serve-'));
  await pglite.exec('drop table if exists t; drop table if exists d; create table t (id int primary key, note text)');
  server = await servePglite(pglite, { path: path.join(dir, '.s.PGSQL.5432') }, { password, idleInTransactionMs: 1_000 });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.end().catch(() => undefined)));
  await server.close();
  await pglite.exec('unlisten *');
  rmSync(dir, { recursive: true, force: true });
});

describe('served PGlite', () => {
  it('answers parameterized queries from the pg driver', async () => {
    const client = await connect();
    await client.query('insert into t values ($1, $2)', [1, 'one']);
    expect((await client.query('select id, note from t where id = $1', [1])).rows).toEqual([{ id: 1, note: 'one' }]);
  });

  it('refuses a wrong password', async () => {
    await expect(connect({ password: 'nope' })).rejects.toThrow(/password authentication failed/);
  });

  it('holds one client transaction until it ends: the other client and the owner wait', async () => {
    const a = await connect();
    const b = await connect();
    await a.query('begin');
    await a.query('insert into t values (1, $1)', ['from a']);
    const bBegins = b.query('begin');
    const ownerReads = pglite.query<{ n: number }>('select count(*)::int as n from t');
    expect(await settlesSoon(bBegins)).toBe(false);
    expect(await settlesSoon(ownerReads)).toBe(false);
    // a keeps working inside its transaction while the others queue.
    await a.query('insert into t values (2, $1)', ['from a']);
    await a.query('commit');
    await bBegins;
    expect((await b.query('select count(*)::int as n from t')).rows[0].n).toBe(2);
    expect((await ownerReads).rows[0]!.n).toBe(2);
    await b.query('rollback');
  });

  it('runs concurrent transactions of several clients one after the other, never interleaved', async () => {
    const sessions = [await connect(), await connect(), await connect(), await connect()];
    const transfer = async (client: pg.Client, id: number) => {
      await client.query('begin');
      const { rows } = await client.query('select count(*)::int as n from t');
      await client.query('insert into t values ($1, $2)', [id, `saw ${rows[0].n}`]);
      await client.query('commit');
    };
    await Promise.all(sessions.map((session, i) => transfer(session, i + 1)));
    const notes = (await sessions[0]!.query('select note from t order by note')).rows.map((row) => row.note);
    // Serialized: each transaction saw every earlier one, so the counts are 0, 1, 2, 3.
    expect(notes).toEqual(['saw 0', 'saw 1', 'saw 2', 'saw 3']);
  });

  it('rolls back the transaction of a client that disconnects and frees the backend', async () => {
    const a = await connect();
    await a.query('begin');
    await a.query('insert into t values (1, $1)', ['lost']);
    (a as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    const b = await connect();
    expect((await b.query('select count(*)::int as n from t')).rows[0].n).toBe(0);
    expect(pglite.isInTransaction()).toBe(false);
  });

  it('disconnects a client idle in a transaction past the limit', async () => {
    const a = await connect();
    await a.query('begin');
    await a.query('insert into t values (1, $1)', ['stuck']);
    const ended = new Promise((resolve) => a.once('end', resolve));
    await ended;
    expect((await pglite.query<{ n: number }>('select count(*)::int as n from t')).rows[0]!.n).toBe(0);
  }, 10_000);

  it('delivers NOTIFY across sessions: client to client, client to owner, owner to client', async () => {
    const listener = await connect();
    const sender = await connect();
    const heardByClient: string[] = [];
    listener.on('notification', (message) => heardByClient.push(`${message.channel}:${message.payload}`));
    await listener.query('listen "runs"');
    const heardByOwner: string[] = [];
    await server.listen('runs', (payload) => heardByOwner.push(payload));
    await sender.query("select pg_notify('runs', 'from sender')");
    await sender.query("select pg_notify('other', 'not listened')");
    await pglite.query("select pg_notify('runs', 'from owner')");
    // expect.poll gives up after 1 s by default: too short on a loaded 2-core host.
    await expect.poll(() => heardByClient, { timeout: 15_000 }).toEqual(['runs:from sender', 'runs:from owner']);
    expect(heardByOwner).toEqual(['from sender', 'from owner']);
  });
});

describe.skipIf(!postgresServerUrl)('served PGlite against PostgreSQL (differential)', () => {
  /** Each step's rows or error code, through the pg driver. */
  async function workload(client: pg.Client): Promise<unknown[]> {
    const steps: Array<[string, unknown[]?]> = [
      ['create table d (id int primary key, tags text[], at timestamptz, doc jsonb)'],
      ['insert into d values ($1, $2, $3, $4), (2, null, null, null)', [1, ['a', 'b'], new Date('2026-03-29T01:30:00Z'), { k: [1, 'x'] }]],
      ['select * from d order by id'],
      ['insert into d values (1)'],
      ['begin'],
      ['insert into d values (3)'],
      ['select 1/0'],
      ['select 1'],
      ['rollback'],
      ['select count(*)::int as n from d'],
      ['select $1::text || $2::text as joined', ['x', 'y']],
      ['update d set doc = $1 where id = 2 returning id, doc', [{ deep: { a: null } }]],
    ];
    const answers: unknown[] = [];
    for (const [text, params] of steps) {
      try {
        const result = await client.query(text, params);
        answers.push({ command: result.command, rowCount: result.rowCount, rows: result.rows });
      } catch (error) {
        answers.push({ error: (error as { code?: string }).code });
      }
    }
    return answers;
  }

  it('gives the same answers as PostgreSQL', async () => {
    const postgres = await createPostgresDatabase({ migrated: false });
    try {
      const reference = new pg.Client({ connectionString: postgres.url });
      await reference.connect();
      const expected = await workload(reference).finally(() => reference.end());
      const served = await connect();
      await served.query(`set timezone = '${(await readTimezone(postgres.url)) ?? 'UTC'}'`);
      expect(await workload(served)).toEqual(expected);
    } finally {
      await postgres.drop();
    }
  });
});

async function readTimezone(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ TimeZone: string }>('show timezone')).rows[0]?.TimeZone;
  } finally {
    await client.end();
  }
}

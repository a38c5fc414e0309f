/**
 * Migration 0023 on a database that already has runs (an embedded `.cronform/db` or a server
 * upgraded in place): the history becomes the legacy partition without a row moving, attempts
 * get their run's slot, ids go on from where they were, and new runs and days work after it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../support/databases.js';

const migrationsDir = fileURLToPath(new URL('../../migrations', import.meta.url));
const files = readdirSync(migrationsDir).filter((f) => f.endsWith('.sql')).sort();
const partitioning = files.findIndex((f) => f.startsWith('0023_'));

/** Runs SQL text (several statements) and returns the rows of the last one. */
type Exec = (text: string) => Promise<Array<Record<string, unknown>>>;

async function upgradeWithHistory(exec: Exec): Promise<void> {
  for (const file of files.slice(0, partitioning)) await exec(`begin;\n${readFileSync(path.join(migrationsDir, file), 'utf8')}\ncommit;`);
  await exec(`insert into schedules (name, version, definition, digest) values ('s', 1, '{}', 'd');
    insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, attempts, max_attempts)
      select 1, 1, timestamptz '2026-11-20T00:00:00Z' + g * interval '1 hour', 'SCHEDULED', 's:' || g, case when g = 5 then 'QUEUED' else 'SUCCESS' end, 2, 'default', now(), 1, 1
      from generate_series(1, 10) g;
    insert into run_attempts (run_id, attempt, runner_id, status, started_at) select id, 1, 'r', 'SUCCEEDED', now() from schedule_runs where status = 'SUCCESS';`);
  await exec(`begin;\n${readFileSync(path.join(migrationsDir, files[partitioning]!), 'utf8')}\ncommit;`);
}

async function expectUpgraded(exec: Exec): Promise<void> {
  expect(await exec(`select tableoid::regclass::text as p, count(*)::int as n from schedule_runs group by 1`)).toEqual([{ p: 'schedule_runs_legacy', n: 10 }]);
  // Every attempt carries its run's slot, in the legacy partition too.
  expect(await exec(`select count(*)::int as n from run_attempts a join schedule_runs r on r.id = a.run_id and r.scheduled_for = a.scheduled_for where a.tableoid = 'run_attempts_legacy'::regclass`)).toEqual([{ n: 9 }]);
  // The legacy partition ends at the midnight after the newest slot, or after now.
  const [bound] = await exec(`select pg_get_expr(relpartbound, oid) as b from pg_class where relname = 'schedule_runs_legacy'`);
  expect(String(bound!.b)).toMatch(/^FOR VALUES FROM \(MINVALUE\) TO \('.* 00:00:00\+00'\)$/);
  // The queued run is still in active_runs, and the triggers follow the new table.
  expect(await exec(`select count(*)::int as n from active_runs`)).toEqual([{ n: 1 }]);
  const [next] = await exec(`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts)
    values (1, 1, timestamptz '2030-01-01T00:00:00Z', 'MANUAL', 'later', 'QUEUED', 2, 'default', now(), 1) returning id, tableoid::regclass::text as p`);
  expect(next).toEqual({ id: 11, p: 'schedule_runs_default' });
  expect(await exec(`select count(*)::int as n from active_runs`)).toEqual([{ n: 2 }]);
}

const servers: TestPostgres[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.drop();
});

describe('migration 0023 over an existing history', () => {
  it('on PGlite', async () => {
    const client = new PGlite();
    const exec: Exec = async (text) => {
      const results = await client.exec(text);
      return (results.at(-1)?.rows ?? []) as Array<Record<string, unknown>>;
    };
    try {
      await upgradeWithHistory(exec);
      await expectUpgraded(exec);
    } finally {
      await client.close();
    }
  });

  it.runIf(postgresServerUrl)('on PostgreSQL', async () => {
    const server = await createPostgresDatabase({ migrated: false });
    servers.push(server);
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    const exec: Exec = async (text) => {
      const result = (await client.query(text)) as unknown as pg.QueryResult | pg.QueryResult[];
      const last = Array.isArray(result) ? result.at(-1)! : result;
      return last.rows.map((row: Record<string, unknown>) => ({ ...row, ...('id' in row ? { id: Number(row.id) } : {}) }));
    };
    try {
      await upgradeWithHistory(exec);
      await expectUpgraded(exec);
    } finally {
      await client.end();
    }
  });
});

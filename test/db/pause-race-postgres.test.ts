/**
 * Pause against a run that moves while pause waits for its lock: an ending run promotes its
 * PENDING successor to QUEUED (QUEUE_NEW) in another transaction. The run must still be skipped,
 * not escape the pause because its status changed between pause's snapshot and its lock.
 * Real PostgreSQL: two transactions, the second waiting on the first's row lock.
 */
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';
import { migrateDatabase } from '../../src/db/migrate.js';
import { skipUnstartedRuns } from '../../src/db/run-operations-queries.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';
import { createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../support/databases.js';

const T0 = Date.parse('2026-11-29T12:00:00Z');

describe.runIf(postgresServerUrl)('pause racing a promotion (PostgreSQL)', () => {
  let server: TestPostgres | undefined;
  let database: Database | undefined;
  afterEach(async () => {
    await server?.drop();
    server = undefined;
  });

  it('skips a PENDING run that became QUEUED while pause waited for its lock', async () => {
    server = await createPostgresDatabase();
    database = await server.open();
    await migrateDatabase(database);
    await applyManifests(database, { 'a.yaml': scheduleManifest('alpha', { cron: '0 0 1 1 *' }) }, T0);
    const [run] = await queryRows<{ id: string; schedule_id: string }>(
      database.db,
      sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts)
          select id, 1, '2026-11-29T11:00:00Z', 'SCHEDULED', 'alpha:1', 'PENDING', 2, 'default', '2026-11-29T11:00:00Z', 1 from schedules
          returning id, schedule_id`,
    );
    const promoter = new pg.Client({ connectionString: server.url });
    await promoter.connect();
    try {
      await promoter.query('begin');
      await promoter.query(`update schedule_runs set status = 'QUEUED' where id = $1`, [run!.id]);
      const pausing = database.db.transaction((tx) => skipUnstartedRuns(tx, Number(run!.schedule_id), new Date(T0)));
      // Wait until pause is blocked on the promoter's row lock (a state, not a duration).
      for (;;) {
        const { rows } = await promoter.query(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
        if (rows[0].n > 0) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      await promoter.query('commit');
      expect(await pausing).toEqual([{ id: Number(run!.id), previousStatus: 'QUEUED' }]);
    } finally {
      await promoter.end();
    }
    const [after] = await queryRows<{ status: string; status_reason: string }>(database.db, sql`select status, status_reason from schedule_runs`);
    expect(after).toEqual({ status: 'SKIPPED', status_reason: 'PAUSED' });
  });
});

/**
 * plan lists every stored schedule as a summary (listStoredScheduleSummaries: one JSON text, the
 * timing fields taken out of the definition in SQL). It must say what the full rows say
 * (listStoredSchedules, read through the ORM), on both engines, including what only operators and
 * the runner write: pauses, archives, unmanaged rows, next slots with microseconds, and a
 * definition edited behind apply's back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Database } from '../../src/db/client.js';
import { migrateDatabase } from '../../src/db/migrate.js';
import { listStoredScheduleSummaries, listStoredSchedules } from '../../src/db/schedule-queries.js';
import type { StoredSchedule, StoredScheduleSummary } from '../../src/compile/stored-schedule.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';
import { createPgliteDatabase, createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../support/databases.js';

const NOW_MS = Date.parse('2026-11-29T12:00:00Z');

function asSummary({ definition, ...rest }: StoredSchedule): StoredScheduleSummary {
  const { name, cron, timezone, enabled, dayMatch, dst } = definition;
  return { ...rest, timing: { name, cron, timezone, enabled, dayMatch, dst } };
}

async function checkSummaries(database: Database): Promise<void> {
  await applyManifests(
    database,
    {
      'schedules/a.yaml': scheduleManifest('alpha', { cron: '0 3 * * *', timezone: 'Europe/Berlin', dst: { gap: 'skip', fold: 'both' } }),
      'schedules/b.yaml': scheduleManifest('beta', { cron: '*/5 * * * *', enabled: false }),
      'schedules/c.yaml': scheduleManifest('gamma', { cron: '15 9 * * 1-5', dayMatch: 'all' }),
      'schedules/d.yaml': scheduleManifest('delta', { cron: '0 0 1 * *' }),
      'schedules/e.yaml': scheduleManifest('epsilon', { cron: '0 1 * * *' }),
    },
    NOW_MS,
  );
  // What operators and the runner write, with PostgreSQL's microseconds where they come from now().
  await database.db.execute(sql`update schedules set paused_at = now(), paused_by = 'ops', paused_reason = 'incident "#42" — café\\n', paused_until = '2026-12-01T08:00:00.123456Z' where name = 'alpha'`);
  await database.db.execute(sql`update schedules set paused_at = '2026-11-29T11:59:59.999999Z', paused_by = null, paused_reason = null where name = 'beta'`);
  await database.db.execute(sql`update schedules set status = 'ARCHIVED', next_run_at = null where name = 'gamma'`);
  await database.db.execute(sql`update schedules set managed = false, next_run_at = '2026-11-30T00:00:00.000999Z' where name = 'delta'`);
  await database.db.execute(sql`update schedules set definition = jsonb_set(definition, '{cron}', '"30 1 * * *"'), version = version + 1 where name = 'epsilon'`);

  // Fewer float digits in text output must not round the instants.
  const summaries = await database.db.transaction(async (tx) => {
    await tx.execute(sql`set local extra_float_digits = -3`);
    return listStoredScheduleSummaries(tx);
  });
  const full = await listStoredSchedules(database.db);
  expect(summaries).toEqual(full.map(asSummary));
  expect(summaries.map((s) => s.name)).toEqual(['alpha', 'beta', 'delta', 'epsilon', 'gamma']);
  const byName = new Map(summaries.map((s) => [s.name, s]));
  expect(byName.get('alpha')!.paused).toMatchObject({ by: 'ops', reason: 'incident "#42" — café\\n', until: '2026-12-01T08:00:00.123Z' });
  expect(byName.get('beta')!.paused).toEqual({ at: '2026-11-29T11:59:59.999Z', by: null, reason: null, until: null });
  expect(byName.get('delta')).toMatchObject({ managed: false, nextRunAt: '2026-11-30T00:00:00.000Z' });
  expect(byName.get('gamma')).toMatchObject({ status: 'ARCHIVED', nextRunAt: null, timing: { dayMatch: 'all', enabled: true } });
  expect(byName.get('epsilon')).toMatchObject({ versionDigest: null, timing: { cron: '30 1 * * *' } });
}

describe('listStoredScheduleSummaries', () => {
  let postgres: TestPostgres | undefined;
  let pglite: Database | undefined;
  afterEach(async () => {
    await pglite?.close();
    await postgres?.drop();
    pglite = undefined;
    postgres = undefined;
  });

  it('says what the full rows say (PGlite)', async () => {
    pglite = await createPgliteDatabase();
    await checkSummaries(pglite);
  });

  it('lists nothing from an empty database', async () => {
    pglite = await createPgliteDatabase();
    expect(await listStoredScheduleSummaries(pglite.db)).toEqual([]);
  });

  it.runIf(postgresServerUrl)('says what the full rows say (PostgreSQL)', async () => {
    postgres = await createPostgresDatabase();
    const database = await postgres.open();
    await migrateDatabase(database);
    await checkSummaries(database);
  });
});

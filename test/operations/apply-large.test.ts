import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.js';
import { migrateDatabase } from '../../src/db/migrate.js';
import { createPostgresDatabase, postgresServerUrl } from '../support/databases.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';

describe.runIf(postgresServerUrl)('a large apply', () => {
  it('creates 6,000 schedules in one transaction (more rows than one statement may bind)', async () => {
    const server = await createPostgresDatabase();
    try {
      const database = await server.open();
      await migrateDatabase(database);
      const files: Record<string, string> = {};
      for (let i = 0; i < 6_000; i += 1) files[`s${i}.yaml`] = scheduleManifest(`job-${i}`, { cron: `${i % 60} ${i % 24} * * *` });
      await applyManifests(database, files, Date.parse('2026-11-29T12:00:00Z'));
      const [counts] = await queryRows<{ schedules: number; versions: number; audits: number }>(
        database.db,
        sql`select (select count(*)::int from schedules) as schedules, (select count(*)::int from schedule_versions) as versions,
              (select count(*)::int from audit_log where action = 'SCHEDULE_CREATED') as audits`,
      );
      expect(counts).toEqual({ schedules: 6_000, versions: 6_000, audits: 6_000 });
    } finally {
      await server.drop();
    }
  }, 180_000);
});

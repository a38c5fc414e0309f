/**
 * The plan/apply suite on real PostgreSQL (a fresh migrated database per test, dropped after),
 * plus what only PostgreSQL can show: the same plan as PGlite for the same scenario, pg_dump of a
 * rolled-back apply, and the NOTIFY that wakes runners only after a commit.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/db/migrate.js';
import { SCHEDULES_CHANNEL } from '../../src/db/schedule-queries.js';
import type { Plan } from '../../src/plan/plan-types.js';
import { createPgliteDatabase, createPostgresDatabase, postgresServerUrl } from '../support/databases.js';
import { buildRichPlan, definePlanApplySuite, PlanApplyDriver, prepareFailingApply, type FreshDatabase } from './plan-apply.suite.js';
import { scheduleSource } from './plan-apply-manifests.js';

async function openFreshPostgres(): Promise<FreshDatabase & { url: string }> {
  const server = await createPostgresDatabase();
  try {
    const database = await server.open();
    await migrateDatabase(database);
    return { database, url: server.url, cleanup: () => server.drop() };
  } catch (error) {
    await server.drop();
    throw error;
  }
}

/** What must not depend on the engine: everything but ids, the engine name and the id derived from it. */
function withoutIds(plan: Plan) {
  return {
    changes: plan.changes.map(({ scheduleId: _id, ...change }) => change),
    drift: plan.drift.map(({ scheduleId: _id, ...item }) => item),
    policyChange: plan.policyChange,
    unchanged: plan.unchanged,
    summary: plan.summary,
    errors: plan.errors,
    createdAt: plan.createdAt,
  };
}

/** `pg_dump --data-only`, minus the `\restrict` lines, whose key is random per dump (pg_dump ≥ 15.14). */
function pgDumpData(url: string): string {
  const dump = execFileSync('pg_dump', ['--data-only', '--no-owner', '--no-privileges', url], { encoding: 'utf8' });
  return dump
    .split('\n')
    .filter((line) => !/^\\(un)?restrict /.test(line))
    .join('\n');
}

const hasPgDump = (() => {
  try {
    execFileSync('pg_dump', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.runIf(postgresServerUrl)('PostgreSQL', () => {
  definePlanApplySuite('plan and apply (PostgreSQL)', openFreshPostgres);

  it('produces the same rich plan as PGlite, ids aside', async () => {
    const postgres = await openFreshPostgres();
    const pglite = await createPgliteDatabase();
    try {
      const onPostgres = await buildRichPlan(new PlanApplyDriver(postgres.database));
      const onPglite = await buildRichPlan(new PlanApplyDriver(pglite));
      expect(onPostgres.against).toEqual({ kind: 'database', engine: 'postgres' });
      expect(onPglite.against).toEqual({ kind: 'database', engine: 'pglite' });
      expect(withoutIds(onPostgres)).toEqual(withoutIds(onPglite));
      expect(onPostgres.changes.map((c) => c.action)).toEqual(['archive', 'update', 'rename', 'restore', 'create']);
    } finally {
      await pglite.close();
      await postgres.cleanup();
    }
  }, 60_000);

  it.runIf(hasPgDump)('leaves pg_dump --data-only unchanged after a failed apply, but for the burnt sequence values', async () => {
    const fresh = await openFreshPostgres();
    try {
      const driver = new PlanApplyDriver(fresh.database);
      const { plan } = await prepareFailingApply(driver);
      const before = pgDumpData(fresh.url);
      await expect(driver.apply(plan)).rejects.toMatchObject({ cause: { message: 'injected failure for fifth' } });
      const after = pgDumpData(fresh.url);

      const beforeLines = before.split('\n');
      const afterLines = after.split('\n');
      const changed = afterLines.filter((line, index) => line !== beforeLines[index]);
      expect(afterLines.length).toBe(beforeLines.length);
      // Only the schedules id sequence moved: five ids were drawn by the attempted inserts.
      expect(changed).toEqual(["SELECT pg_catalog.setval('public.schedules_id_seq', 8, true);"]);
      expect(beforeLines).toContain("SELECT pg_catalog.setval('public.schedules_id_seq', 3, true);");
      // The dump really holds the data compared above.
      expect(beforeLines.filter((line) => /^COPY public\.(schedules|schedule_versions|audit_log) /.test(line))).toHaveLength(3);
      expect(beforeLines.filter((line) => line.includes('SCHEDULE_CREATED'))).toHaveLength(3);
    } finally {
      await fresh.cleanup();
    }
  });

  it('wakes runners with NOTIFY only when an apply commits', async () => {
    const fresh = await openFreshPostgres();
    try {
      const driver = new PlanApplyDriver(fresh.database);
      const { plan: failing, dropFailure } = await prepareFailingApply(driver);
      const payloads: string[] = [];
      let received!: () => void;
      const first = new Promise<void>((resolve) => (received = resolve));
      const stop = await fresh.database.listen(SCHEDULES_CHANNEL, (payload) => {
        payloads.push(payload);
        received();
      });
      try {
        await expect(driver.apply(failing)).rejects.toThrow();
        await dropFailure();
        const next = await driver.plan([scheduleSource('kept'), scheduleSource('old'), scheduleSource('z-updated'), scheduleSource('another')]);
        await driver.apply(next);
        // Notifications arrive in commit order: had the failed apply notified, it would come first.
        await first;
        expect(payloads).toEqual([next.planId]);
      } finally {
        await stop();
      }
    } finally {
      await fresh.cleanup();
    }
  });
});

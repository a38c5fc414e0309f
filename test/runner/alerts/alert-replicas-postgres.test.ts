/**
 * Replicas evaluating alerts at the same moment on one PostgreSQL database: the unique condition
 * key decides who records an alert (and who resolves it), and only that replica sends.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { captureOutput } from '@oclif/test';
import Alerts from '../../../src/commands/alerts.js';
import { queryRows, type Database } from '../../../src/db/client.js';
import type { AlertEntry } from '../../../src/operations/alerts.js';
import { migrateDatabase } from '../../../src/db/migrate.js';
import type { SendRequest } from '../../../src/runner/alerts/dispatcher.js';
import { AlertEvaluator } from '../../../src/runner/alerts/evaluator.js';
import { ManualClock } from '../../../src/shared/clock.js';
import { applyManifests, scheduleManifest } from '../../support/apply-manifests.js';
import { createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../../support/databases.js';
import { waitFor } from '../../support/processes.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const T0 = Date.parse('2026-11-29T12:00:00Z');
const TARGETS = [{ name: 'oncall', type: 'webhook' as const, url: 'https://alerts.example.com/cronform' }];

describe.runIf(postgresServerUrl)('alert replicas on real PostgreSQL', () => {
  let server: TestPostgres;
  let setup: Database;
  const connections: Database[] = [];
  beforeAll(async () => {
    server = await createPostgresDatabase();
    setup = await server.open();
    await migrateDatabase(setup);
  });
  afterAll(async () => {
    for (const db of connections) await db.close();
    await setup.close();
    await server.drop();
  });

  async function insertRun(slotMs: number, status: 'FAILED' | 'SUCCESS'): Promise<void> {
    const slot = new Date(slotMs).toISOString();
    await setup.db.execute(sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, attempts, max_attempts, started_at, finished_at)
      select id, 1, ${slot}::timestamptz, 'SCHEDULED', ${`billing:${slot}:SCHEDULED`}, ${status}, 2, 'default', ${slot}::timestamptz, 1, 1, ${slot}::timestamptz, ${slot}::timestamptz + interval '5 seconds'
      from schedules where name = 'billing'`);
  }

  it('four replicas evaluating together record one alert and send it once, then resolve it once', async () => {
    await applyManifests(setup, { 'a.yaml': scheduleManifest('billing', { cron: '0 * * * *', criticality: 'CRITICAL' }) }, T0);
    const clock = new ManualClock(T0 + 3_600_000 + 60_000);
    const sent: string[] = [];
    const replicas = await Promise.all(
      Array.from({ length: 4 }, async (_, index) => {
        const db = await server.open({ maxConnections: 2 });
        connections.push(db);
        const send: SendRequest = async (_url, init) => {
          sent.push(`replica-${index} ${(JSON.parse(init.body) as { event: string }).event}`);
          return { status: 200 };
        };
        return new AlertEvaluator(db, { runnerId: `replica-${index}`, runnerStartedAtMs: T0, noRunnerAlertAfterMs: 300_000, clock, env: {}, delivery: { send } });
      }),
    );
    const evaluateAll = async () => {
      for (let round = 0; round < 3; round += 1) await Promise.all(replicas.map((replica) => replica.evaluate(clock.nowMs(), TARGETS)));
      await Promise.all(replicas.map((replica) => replica.dispatcher.whenIdle()));
      // The sender records each result after the receiver answered, without awaiting the write.
      await waitFor('the deliveries to be recorded', async () => ((await queryRows(setup.db, sql`select 1 from alert_deliveries where state = 'PENDING'`)).length === 0 ? true : undefined), 30_000);
    };

    await insertRun(T0 + 3_600_000, 'FAILED');
    await evaluateAll();
    const rows = () => queryRows<{ rule: string; state: string; deliveries: number }>(setup.db, sql`select rule, state, deliveries from alerts order by id`);
    expect(await rows()).toEqual([{ rule: 'run-failed', state: 'OPEN', deliveries: 1 }]);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^replica-\d firing$/);

    await insertRun(T0 + 2 * 3_600_000, 'SUCCESS');
    clock.set(T0 + 2 * 3_600_000 + 60_000);
    await evaluateAll();
    expect(await rows()).toEqual([{ rule: 'run-failed', state: 'RESOLVED', deliveries: 2 }]);
    expect(sent.map((s) => s.split(' ')[1])).toEqual(['firing', 'resolved']);
  }, 120_000);

  it('`cronform alerts` lists them, --open only the open ones, --json as data', async () => {
    const run = async (...argv: string[]) => captureOutput(() => Alerts.run([...argv, '--database-url', server.url], repoRoot));
    const all = await run('--json');
    expect(all.error).toBeUndefined();
    expect((JSON.parse(all.stdout) as AlertEntry[]).map((a) => ({ rule: a.rule, schedule: a.schedule, state: a.state, deliveries: a.deliveries, summary: a.summary }))).toEqual([
      { rule: 'run-failed', schedule: 'billing', state: 'RESOLVED', deliveries: 2, summary: 'billing: run 1 failed: no error recorded' },
    ]);
    const text = await run();
    expect(text.stdout).toBe('#1  RESOLVED  run-failed            2026-11-29T13:01:00.000Z → 2026-11-29T14:01:00.000Z  delivered 2, 2 requests\n      billing: run 1 failed: no error recorded\n');
    expect((await run('--open')).stdout).toBe('no open alerts\n');
  });
});

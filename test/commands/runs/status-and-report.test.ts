/**
 * `status --check` and `report`, in-process. `status --check` is for an external probe: exit 0
 * while a runner heartbeats and no CRITICAL schedule is overdue, exit 6 (ExitCodes.UNHEALTHY)
 * with the reason otherwise. The command reads
 * the system clock, so the seeded instants are minutes away from now. PostgreSQL only, like
 * run-commands.test.ts: the verdict is engine-independent (test/operations/runs/liveness.test.ts
 * checks it on PGlite), and each command on the embedded engine reopens its files.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Report from '../../../src/commands/report.js';
import Status from '../../../src/commands/status.js';
import type { Database } from '../../../src/db/client.js';
import { upsertRunner } from '../../../src/db/reconcile-queries.js';
import type { ScheduleReport } from '../../../src/operations/runs/schedule-report.js';
import type { ScheduleStatusReport } from '../../../src/operations/runs/schedule-status.js';
import { ExitCodes } from '../../../src/shared/exit-codes.js';
import { applyManifests, scheduleManifest } from '../../support/apply-manifests.js';
import { createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../../support/databases.js';
import { runCommand } from '../../support/run-command.js';

const MINUTE = 60_000;

const heartbeatAt = (database: Database, ms: number) => upsertRunner(database.db, { id: 'probe-runner', hostname: 'worker-1', pid: 4242, version: '1.2.3' }, new Date(ms));

describe.runIf(postgresServerUrl)('status --check and report on PostgreSQL', () => {
  let server: TestPostgres;
  let database: Database;
  beforeAll(async () => {
    server = await createPostgresDatabase();
    database = await server.open();
  });
  afterAll(() => server?.drop());

  it('exits 0 while healthy, 6 with the reason when no runner is alive or a CRITICAL slot is overdue', async () => {
    await applyManifests(database, { 'payments.yaml': scheduleManifest('payments', { cron: '0 3 * * *', criticality: 'CRITICAL' }) }, Date.now());
    await heartbeatAt(database, Date.now());
    const status = (...argv: string[]) => runCommand(Status, ['--check', ...argv, '--database-url', server.url]);

    const healthy = await status();
    expect(healthy.exitCode).toBe(ExitCodes.SUCCESS);
    expect(healthy.stdout).toMatch(/^probe-runner +worker-1 +4242 +1\.2\.3 .* alive$/m);
    expect(healthy.stdout).toContain('1 runner(s) alive.\ncheck: OK\n');

    // The runner went silent ten minutes ago.
    await database.db.execute(sql`update runners set heartbeat_at = now() - interval '10 minutes'`);
    const silent = await status();
    expect(silent.exitCode).toBe(ExitCodes.UNHEALTHY);
    expect(silent.stdout).toContain('No runner is alive (none has heartbeated in the last 1m30s): nothing will run. Start one with `cronform runner`.');
    expect(silent.stderr).toMatch(/^check failed: no runner is alive: none has heartbeated in the last 1m30s \(last heartbeat 10m0\ds ago, from probe-runner\)/m);

    // A live runner again, but the CRITICAL schedule's slot is ten minutes late: --json says why.
    await heartbeatAt(database, Date.now());
    await database.db.execute(sql`update schedules set next_run_at = ${new Date(Date.now() - 10 * MINUTE).toISOString()}::timestamptz`);
    const late = await status('--json');
    expect(late.exitCode).toBe(ExitCodes.UNHEALTHY);
    const report = JSON.parse(late.stdout) as ScheduleStatusReport;
    expect(report.aliveRunners).toBe(1);
    expect(report.health.healthy).toBe(false);
    expect(report.health.problems).toEqual([expect.stringMatching(/^CRITICAL schedule payments is overdue: slot \S+ not turned into a run 10m0\ds after it was due/)]);
    expect(report.schedules[0]!.overdue).toMatchObject({ kind: 'slot' });

    // Without --check the same state is shown, and the exit is 0.
    const shown = await runCommand(Status, ['--database-url', server.url]);
    expect(shown.exitCode).toBe(ExitCodes.SUCCESS);
    expect(shown.stdout).toMatch(/^payments .* OVERDUE 10m0\ds, idle$/m);
  });

  // report reads the same database (its figures: test/operations/runs/schedule-report.test.ts).
  it('report prints a digest in each format and refuses a window that is not one', async () => {
    const report = (...argv: string[]) => runCommand(Report, [...argv, '--database-url', server.url]);
    expect((JSON.parse((await report('--json')).stdout) as ScheduleReport).schedules.map((s) => s.name)).toEqual(['payments']);
    expect((await report('--since', '7d', '--format', 'markdown')).stdout).toMatch(/^\| payments \| CRITICAL \| 0 \|/m);
    expect((await report()).stdout).toMatch(/^payments +CRITICAL +0 /m);
    const bad = await report('--since', 'yesterday');
    expect([bad.exitCode, bad.message]).toEqual([1, '--since must be an ISO-8601 instant with a zone (2026-03-01T09:00:00Z) or a duration (30m, 2h, 7d) (got "yesterday")']);
  });
});

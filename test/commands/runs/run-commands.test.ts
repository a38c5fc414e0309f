/**
 * The run commands end to end, in-process, against a real PostgreSQL database (a command opens
 * its own connection, so it cannot share an in-memory PGlite with the test). Set
 * CRONFORM_TEST_DATABASE_URL to run them.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { captureOutput } from '@oclif/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Backfill from '../../../src/commands/backfill.js';
import Export from '../../../src/commands/export.js';
import Cancel from '../../../src/commands/cancel.js';
import Approve from '../../../src/commands/approve.js';
import PlanCommand from '../../../src/commands/plan.js';
import Pause from '../../../src/commands/pause.js';
import Resume from '../../../src/commands/resume.js';
import Retry from '../../../src/commands/retry.js';
import Runs from '../../../src/commands/runs.js';
import Status from '../../../src/commands/status.js';
import Trigger from '../../../src/commands/trigger.js';
import type { Database } from '../../../src/db/client.js';
import { migrateDatabase } from '../../../src/db/migrate.js';
import type { RunEntry } from '../../../src/operations/runs/list-runs.js';
import type { ScheduleStatusReport } from '../../../src/operations/runs/schedule-status.js';
import { createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../../support/databases.js';
import { applySources, scheduleSource } from '../../operations/runs/run-fixtures.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

interface Runnable {
  run(argv: string[], root: string): Promise<unknown>;
}

describe.runIf(postgresServerUrl)('run commands on PostgreSQL', () => {
  let server: TestPostgres;
  let database: Database;
  const scratch = mkdtempSync(path.join(tmpdir(), 'cronform-run-commands-'));

  /** Mutating commands also get `--actor tester`. */
  async function run(command: Runnable, argv: string[]) {
    const actor = [Runs, Status, Export, PlanCommand].includes(command as never) ? [] : ['--actor', 'tester'];
    const output = await captureOutput(() => command.run([...argv, '--database-url', server.url, ...actor], repoRoot));
    const exitCode = (output.error as { oclif?: { exit?: number } } | undefined)?.oclif?.exit ?? (output.error ? -1 : 0);
    return { ...output, exitCode, message: output.error?.message ?? '' };
  }

  beforeAll(async () => {
    server = await createPostgresDatabase();
    database = await server.open();
    await migrateDatabase(database);
    // Applied "now": the schedules exist; the scheduler is not running, so only our runs exist.
    await applySources(database, [scheduleSource('report'), scheduleSource('tick', { cron: '*/10 * * * *' })], Date.now());
  });
  afterAll(async () => {
    await server?.drop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('trigger prints the run id, refuses a second trigger with exit 1, and runs lists it', async () => {
    const first = await run(Trigger, ['report']);
    expect(first.exitCode).toBe(0);
    const runId = Number(/run (\d+)/.exec(first.stdout)![1]);
    expect(first.stdout).toContain(`Triggered report: run ${runId} for `);

    const second = await run(Trigger, ['report']);
    expect(second.exitCode).toBe(1);
    expect(second.message).toContain(`report already has an active run: run ${runId}`);

    const listed = await run(Runs, ['report', '--json']);
    expect((JSON.parse(listed.stdout) as RunEntry[]).map((r) => [r.id, r.trigger, r.status])).toEqual([[runId, 'MANUAL', 'QUEUED']]);
    const table = await run(Runs, []);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+SCHEDULE\s+SCHEDULED FOR\s+TRIGGER\s+STATUS/);

    const retry = await run(Retry, [String(runId)]);
    expect(retry.exitCode).toBe(1);
    expect(retry.message).toContain('it is QUEUED');

    // cancel → retry puts the same run back in line; approve refuses a run that is not waiting.
    const cancelled = await run(Cancel, [String(runId), '--reason', 'wrong day']);
    expect(cancelled.exitCode).toBe(0);
    expect(cancelled.stdout).toContain(`Cancelled run ${runId} of report`);
    const retried = await run(Retry, [String(runId)]);
    expect(retried.exitCode).toBe(0);
    const approve = await run(Approve, [String(runId)]);
    expect(approve.exitCode).toBe(1);
    expect((await run(Cancel, ['999999'])).exitCode).toBe(1);
  });

  it('pause, status and resume', async () => {
    const paused = await run(Pause, ['tick', '--reason', 'downstream outage', '--until', '2h']);
    expect(paused.exitCode).toBe(0);
    expect(paused.stdout).toMatch(/^Paused tick until \S+ \(downstream outage\)\./);
    const again = await run(Pause, ['tick', '--reason', 'again']);
    expect(again.exitCode).toBe(1);
    expect(again.message).toContain('tick is already paused');

    const status = JSON.parse((await run(Status, ['--json'])).stdout) as ScheduleStatusReport;
    expect(status.schedules.find((s) => s.name === 'tick')!.paused).toMatchObject({ by: 'tester', reason: 'downstream outage' });

    const resumed = await run(Resume, ['tick', '--missed', 'all']);
    expect(resumed.stdout).toContain('Resumed tick (paused since');
    expect((await run(Resume, ['tick'])).message).toContain('tick is not paused');
  });

  it('backfill --dry-run lists the slots and writes nothing; a bad instant is a clear error', async () => {
    const dry = await run(Backfill, ['tick', '--from', '2026-01-01T00:00:00Z', '--to', '2026-01-01T01:00:00Z', '--dry-run']);
    expect(dry.exitCode).toBe(0);
    expect(dry.stdout.split('\n').filter((line) => line.startsWith('  create'))).toHaveLength(6);
    expect(dry.stdout).toContain('Backfill tick [2026-01-01T00:00:00.000Z, 2026-01-01T01:00:00.000Z): 6 slot(s); would create 6, would re-queue 0');
    const listed = JSON.parse((await run(Runs, ['tick', '--json'])).stdout) as RunEntry[];
    expect(listed.filter((r) => r.trigger === 'BACKFILL')).toEqual([]);

    const bad = await run(Backfill, ['tick', '--from', '2026-01-01T00:00', '--to', '2026-01-02']);
    expect(bad.exitCode).toBe(1);
    expect(bad.message).toContain('--from must be an ISO-8601 instant with a zone');
  });

  it('export writes one manifest per schedule', async () => {
    const outDir = path.join(scratch, 'exported');
    const exported = await run(Export, ['--out-dir', outDir]);
    expect(exported.exitCode).toBe(0);
    expect(readdirSync(outDir).sort()).toEqual(['report.yaml', 'tick.yaml']);
    expect((await run(Export, ['--out-dir', outDir])).message).toContain('already exist');
    // Adoption round trip on PostgreSQL: planning the exported manifests changes nothing.
    const planned = await run(PlanCommand, ['--dir', outDir, '--detailed-exitcode']);
    expect(planned.exitCode).toBe(0);
    expect(planned.stdout).toContain('No changes. 2 schedules unchanged.');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/client.js';
import { RunOperationError } from '../../../src/operations/runs/run-operation-error.js';
import { triggerRun } from '../../../src/operations/runs/trigger.js';
import { applySources, auditRows, author, databaseWith, NOW_MS, notificationsDuring, policySource, runsOf, scheduleSource } from './run-fixtures.js';

let database: Database | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

describe('triggerRun', () => {
  it('creates a QUEUED MANUAL run for now (truncated to the second), audits it and wakes the runners', async () => {
    database = await databaseWith([
      scheduleSource('report', { priority: 'HIGH', queue: 'reports', timezone: 'Asia/Seoul', businessDate: { offsetDays: -1 } }),
      policySource({ queues: { reports: { concurrency: 1 } } }),
    ]);
    let result: Awaited<ReturnType<typeof triggerRun>> | undefined;
    const notified = await notificationsDuring(database, 'cronform_runs', async () => {
      result = await triggerRun(database!, { name: 'report', forceNew: false, nowMs: NOW_MS + 1234, author });
    });
    expect(result).toMatchObject({
      schedule: 'report',
      scheduledFor: '2026-11-29T12:00:01.000Z',
      idempotencyKey: 'report:2026-11-29T12:00:01.000Z:MANUAL',
      // 21:00:01 in Seoul on the 29th, offset -1 day.
      businessDate: '2026-11-28',
      status: 'QUEUED',
      paused: false,
    });
    expect(notified).toHaveLength(1);
    const [run] = await runsOf(database, 'report');
    expect(run).toMatchObject({ id: result!.runId, trigger_type: 'MANUAL', status: 'QUEUED', priority: 1, queue: 'reports', business_date: '2026-11-28', run_after: '2026-11-29T12:00:01.234Z' });
    expect(await auditRows(database)).toEqual([
      expect.objectContaining({ action: 'RUN_TRIGGERED', actor: author.actor, schedule_name: 'report', run_id: result!.runId, after: expect.objectContaining({ status: 'QUEUED' }) }),
    ]);
  });

  it('is idempotent: a second trigger is refused while the first run is active, naming it', async () => {
    database = await databaseWith([scheduleSource('report')]);
    const first = await triggerRun(database, { name: 'report', forceNew: false, nowMs: NOW_MS, author });
    const second = triggerRun(database, { name: 'report', forceNew: false, nowMs: NOW_MS + 5000, author });
    await expect(second).rejects.toThrow(RunOperationError);
    await expect(second).rejects.toThrow(`report already has an active run: run ${first.runId} (MANUAL 2026-11-29T12:00:00.000Z, QUEUED)`);
    expect(await runsOf(database, 'report')).toHaveLength(1);
    expect((await auditRows(database)).map((r) => r.action)).toEqual(['RUN_TRIGGERED']);
  });

  it('--force-new runs another alongside, but never two for the same second', async () => {
    database = await databaseWith([scheduleSource('report')]);
    await triggerRun(database, { name: 'report', forceNew: false, nowMs: NOW_MS, author });
    const forced = await triggerRun(database, { name: 'report', forceNew: true, nowMs: NOW_MS + 1000, author });
    expect(forced.scheduledFor).toBe('2026-11-29T12:00:01.000Z');
    await expect(triggerRun(database, { name: 'report', forceNew: true, nowMs: NOW_MS + 1500, author })).rejects.toThrow(
      `report already has a manual run for 2026-11-29T12:00:01.000Z (run ${forced.runId}); try again in a second`,
    );
    expect(await runsOf(database, 'report')).toHaveLength(2);
  });

  it('waits for approval when the schedule requires it', async () => {
    database = await databaseWith([scheduleSource('cleanup', { approval: 'required' })]);
    const notified = await notificationsDuring(database, 'cronform_runs', () => triggerRun(database!, { name: 'cleanup', forceNew: false, nowMs: NOW_MS, author }));
    expect((await runsOf(database, 'cleanup'))[0]!.status).toBe('MANUAL_REQUIRED');
    expect(notified).toEqual([]);
  });

  it('refuses an unknown or archived schedule', async () => {
    database = await databaseWith([scheduleSource('report'), scheduleSource('other')]);
    await expect(triggerRun(database, { name: 'nope', forceNew: false, nowMs: NOW_MS, author })).rejects.toThrow('no schedule named "nope"');
    await applySources(database, [scheduleSource('other')], NOW_MS, { allowMassArchive: true });
    await expect(triggerRun(database, { name: 'report', forceNew: false, nowMs: NOW_MS, author })).rejects.toThrow('cannot trigger report: the schedule is archived');
    expect(await auditRows(database)).toEqual([expect.objectContaining({ action: 'SCHEDULE_ARCHIVED' })]);
  });
});

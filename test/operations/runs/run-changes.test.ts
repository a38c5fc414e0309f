import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../../src/db/client.js';
import { claimRuns, completeAttempts, extendLeases } from '../../../src/db/worker-queries.js';
import { approveRun } from '../../../src/operations/runs/approve.js';
import { cancelRun } from '../../../src/operations/runs/cancel.js';
import { retryRun } from '../../../src/operations/runs/retry.js';
import { applySources, auditRows, author, databaseWith, insertRunsAt, NOW_MS, notificationsDuring, runsOf, scheduleSource } from './run-fixtures.js';

let database: Database | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

const slot = '2026-11-29T03:00:00.000Z';
const change = (runId: number, nowMs = NOW_MS) => ({ runId, nowMs, author });

async function claimAll(db: Database, runnerId = 'runner-a') {
  return db.db.transaction((tx) => claimRuns(tx, { runnerId, now: new Date(NOW_MS), leaseMs: 30_000, capacity: 10, queueLimits: {}, defaultQueueLimit: 10 }));
}

describe('retryRun', () => {
  it.each(['FAILED', 'CANCELLED', 'MISSED', 'SKIPPED'] as const)('puts a %s run back in line: same row and key, one more attempt allowed', async (status) => {
    database = await databaseWith([scheduleSource('daily')]);
    const [id] = await insertRunsAt(database, 'daily', [{ slot, status, attempts: status === 'FAILED' ? 3 : 0 }]);
    const notified = await notificationsDuring(database, 'cronform_runs', async () => {
      expect(await retryRun(database!, change(id!, NOW_MS + 5000))).toMatchObject({ runId: id, previousStatus: status, status: 'QUEUED', attempt: status === 'FAILED' ? 4 : 1 });
    });
    expect(notified).toHaveLength(1);
    expect((await runsOf(database, 'daily'))[0]).toMatchObject({
      id,
      status: 'QUEUED',
      status_reason: null,
      idempotency_key: `daily:${slot}:SCHEDULED`,
      business_date: '2026-11-29',
      max_attempts: status === 'FAILED' ? 4 : 1,
      run_after: new Date(NOW_MS + 5000).toISOString(),
      finished_at: null,
    });
    expect(await auditRows(database)).toEqual([expect.objectContaining({ action: 'RUN_RETRIED', run_id: id, before: expect.objectContaining({ status }) })]);
  });

  it('refuses runs that have not ended or succeeded, with their status', async () => {
    database = await databaseWith([scheduleSource('daily')]);
    const [queued, success] = await insertRunsAt(database, 'daily', [
      { slot, status: 'QUEUED' },
      { slot: '2026-11-28T03:00:00.000Z', status: 'SUCCESS' },
    ]);
    await claimAll(database);
    await expect(retryRun(database, change(queued!))).rejects.toThrow(`cannot retry run ${queued} (SCHEDULED ${slot}, RUNNING): it is RUNNING; only FAILED, PARTIAL_SUCCESS, CANCELLED, MISSED, SKIPPED runs can be retried`);
    await expect(retryRun(database, change(success!))).rejects.toThrow('it is SUCCESS');
    await expect(retryRun(database, change(999))).rejects.toThrow('no run with id 999');
    expect(await auditRows(database)).toEqual([]);
  });

  it('refuses a summary row of a long outage and a run of an archived schedule', async () => {
    database = await databaseWith([scheduleSource('daily'), scheduleSource('other')]);
    const [summary, failed] = await insertRunsAt(database, 'daily', [
      { slot: '2026-10-01T03:00:00.000Z', status: 'MISSED', reason: 'GRACE_EXCEEDED', summarizedSlots: 40 },
      { slot, status: 'FAILED' },
    ]);
    await expect(retryRun(database, change(summary!))).rejects.toThrow(`cannot retry run ${summary}: it stands for 40 missed slots of daily; run them with cronform backfill daily`);
    await applySources(database, [scheduleSource('other')], NOW_MS, { allowMassArchive: true });
    await expect(retryRun(database, change(failed!))).rejects.toThrow('cannot retry a run of daily: the schedule is archived');
  });
});

describe('approveRun', () => {
  it('queues a MANUAL_REQUIRED run, or makes it wait behind an active run', async () => {
    database = await databaseWith([scheduleSource('cleanup', { approval: 'required', overlap: 'QUEUE_NEW' })]);
    const [first, second] = await insertRunsAt(database, 'cleanup', [
      { slot: '2026-11-28T03:00:00.000Z', status: 'MANUAL_REQUIRED' },
      { slot, status: 'MANUAL_REQUIRED' },
    ]);
    expect(await approveRun(database, change(first!))).toMatchObject({ status: 'QUEUED', behindRunId: null });
    expect(await approveRun(database, change(second!))).toMatchObject({ status: 'PENDING', behindRunId: first });
    expect((await runsOf(database, 'cleanup')).map((r) => r.status)).toEqual(['QUEUED', 'PENDING']);
    expect((await auditRows(database)).map((r) => [r.action, r.run_id, r.after])).toEqual([
      ['RUN_APPROVED', first, { status: 'QUEUED' }],
      ['RUN_APPROVED', second, { status: 'PENDING' }],
    ]);
    await expect(approveRun(database, change(first!))).rejects.toThrow(`cannot approve run ${first} (SCHEDULED 2026-11-28T03:00:00.000Z, QUEUED): only MANUAL_REQUIRED runs wait for approval`);
  });
});

describe('cancelRun', () => {
  it.each(['PENDING', 'QUEUED', 'RETRY_PENDING', 'MANUAL_REQUIRED'] as const)('cancels a %s run', async (status) => {
    database = await databaseWith([scheduleSource('daily')]);
    const [id] = await insertRunsAt(database, 'daily', [{ slot, status }]);
    expect(await cancelRun(database, change(id!))).toMatchObject({ previousStatus: status, status: 'CANCELLED', stopped: false });
    expect((await runsOf(database, 'daily'))[0]).toMatchObject({ status: 'CANCELLED', finished_at: new Date(NOW_MS).toISOString() });
    expect(await auditRows(database)).toEqual([expect.objectContaining({ action: 'RUN_CANCELLED', run_id: id, after: { status: 'CANCELLED' } })]);
  });

  it('takes the lease of a RUNNING run: the runner learns at once (NOTIFY) or at its next heartbeat, and cannot write an outcome', async () => {
    database = await databaseWith([scheduleSource('daily', { overlap: 'QUEUE_NEW' })]);
    const [running, pending] = await insertRunsAt(database, 'daily', [
      { slot: '2026-11-28T03:00:00.000Z', status: 'QUEUED' },
      { slot, status: 'PENDING' },
    ]);
    const [claimed] = await claimAll(database);
    expect(claimed!.id).toBe(running);
    const notified = await notificationsDuring(database, 'cronform_cancel', async () => {
      expect(await cancelRun(database!, change(running!))).toMatchObject({ previousStatus: 'RUNNING', stopped: true, promoted: 1 });
    });
    expect(notified).toEqual([String(running)]);
    expect((await runsOf(database, 'daily')).map((r) => [r.id, r.status, r.lease_owner])).toEqual([
      [running, 'CANCELLED', null],
      [pending, 'QUEUED', null],
    ]);
    const attempts = await queryRows<{ status: string; error: string }>(database.db, sql`select status, error from run_attempts where run_id = ${running!}`);
    expect(attempts).toEqual([{ status: 'CANCELLED', error: `cancelled by ${author.actor}` }]);
    expect(await extendLeases(database.db, 'runner-a', [{ runId: running!, slot: claimed!.slot }], new Date(NOW_MS + 10_000), 30_000)).toEqual([running]);
    const written = await database.db.transaction((tx) =>
      completeAttempts(tx, 'runner-a', [{ runId: running!, slot: claimed!.slot, attempt: 1, attemptStatus: 'SUCCEEDED', runStatus: 'SUCCESS', runAfter: null, exitCode: 0, httpStatus: null, error: null, stdoutTail: null, stderrTail: null }], new Date(NOW_MS + 20_000)),
    );
    expect(written).toEqual([]);
  });

  it('refuses runs that have already ended', async () => {
    database = await databaseWith([scheduleSource('daily')]);
    const [id] = await insertRunsAt(database, 'daily', [{ slot, status: 'SUCCESS' }]);
    await expect(cancelRun(database, change(id!))).rejects.toThrow(`cannot cancel run ${id} (SCHEDULED ${slot}, SUCCESS): it has already ended`);
    await expect(cancelRun(database, change(12345))).rejects.toThrow('no run with id 12345');
  });
});

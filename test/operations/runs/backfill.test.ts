import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/client.js';
import { backfillRuns, type BackfillOptions } from '../../../src/operations/runs/backfill.js';
import { planBackfillSlots, type ExistingSlotRun } from '../../../src/operations/runs/backfill-plan.js';
import { applySources, auditRows, author, databaseWith, insertRunsAt, NOW_MS, notificationsDuring, policySource, runsOf, scheduleSource } from './run-fixtures.js';

let database: Database | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

const FROM = Date.parse('2026-11-20T00:00:00Z');
const TO = Date.parse('2026-11-29T00:00:00Z');
const options = (overrides: Partial<BackfillOptions> = {}): BackfillOptions => ({ name: 'daily', fromMs: FROM, toMs: TO, reprocess: 'none', dryRun: false, nowMs: NOW_MS, author, ...overrides });
const day = (n: number) => `2026-11-${String(n).padStart(2, '0')}T03:00:00.000Z`;

/** 20th…28th at 03:00 UTC; the scheduler already made the 25th (SUCCESS), 26th (FAILED) and 27th (SKIPPED). */
async function dailyWithHistory(extra: Parameters<typeof policySource>[0] | null = null): Promise<Database> {
  const db = await databaseWith([scheduleSource('daily', { businessDate: { offsetDays: -1 } }), ...(extra ? [policySource(extra)] : [])]);
  await insertRunsAt(db, 'daily', [
    { slot: day(25), status: 'SUCCESS' },
    { slot: day(26), status: 'FAILED', attempts: 1 },
    { slot: day(27), status: 'SKIPPED', reason: 'OVERLAP' },
  ]);
  return db;
}

describe('planBackfillSlots', () => {
  const slots = [1, 2, 3, 4, 5, 6];
  const existing: ExistingSlotRun[] = [
    { id: 10, scheduledForMs: 2, triggerType: 'SCHEDULED', status: 'SUCCESS' },
    { id: 11, scheduledForMs: 3, triggerType: 'SCHEDULED', status: 'FAILED' },
    { id: 12, scheduledForMs: 4, triggerType: 'SCHEDULED', status: 'FAILED' },
    { id: 13, scheduledForMs: 4, triggerType: 'BACKFILL', status: 'FAILED' },
    { id: 14, scheduledForMs: 5, triggerType: 'BACKFILL', status: 'RUNNING' },
    { id: 15, scheduledForMs: 6, triggerType: 'BACKFILL', status: 'SUCCESS' },
  ];
  it.each([
    ['none', ['1:create']],
    ['failed', ['1:create', '3:create', '4:requeue 13']],
    ['all', ['1:create', '2:create', '3:create', '4:requeue 13', '6:requeue 15']],
  ] as const)('reprocess %s', (reprocess, expected) => {
    expect(planBackfillSlots(slots, existing, reprocess).map((a) => (a.action === 'create' ? `${a.slotMs}:create` : `${a.slotMs}:requeue ${a.run.id}`))).toEqual(expected);
  });
});

describe('backfillRuns', () => {
  it('creates BACKFILL runs for the missing slots only, LOW priority, business date per slot, at most --concurrency runnable', async () => {
    database = await dailyWithHistory();
    let progress: Array<[number, number]> = [];
    const notified = await notificationsDuring(database, 'cronform_runs', async () => {
      const result = await backfillRuns(database!, options({ onProgress: (done, total) => progress.push([done, total]) }));
      expect(result).toMatchObject({ slotsInRange: 9, created: 6, requeued: 0, concurrency: 2, priority: 'LOW', dryRun: false });
    });
    expect(notified).toHaveLength(1);
    expect(progress).toEqual([[6, 6]]);
    const backfill = (await runsOf(database, 'daily')).filter((r) => r.trigger_type === 'BACKFILL');
    expect(backfill.map((r) => [r.scheduled_for, r.status, r.business_date])).toEqual([
      [day(20), 'QUEUED', '2026-11-19'],
      [day(21), 'QUEUED', '2026-11-20'],
      [day(22), 'PENDING', '2026-11-21'],
      [day(23), 'PENDING', '2026-11-22'],
      [day(24), 'PENDING', '2026-11-23'],
      [day(28), 'PENDING', '2026-11-27'],
    ]);
    expect(backfill.every((r) => r.priority === 3 && r.idempotency_key === `daily:${r.scheduled_for}:BACKFILL`)).toBe(true);
    expect(await auditRows(database)).toEqual([
      expect.objectContaining({ action: 'BACKFILL_CREATED', schedule_name: 'daily', after: expect.objectContaining({ created: 6, requeued: 0, reprocess: 'none' }) }),
    ]);

    // Again: nothing is missing any more; nothing is written, not even an audit row.
    progress = [];
    expect(await backfillRuns(database, options())).toMatchObject({ created: 0, requeued: 0, entries: [] });
    expect(await auditRows(database)).toHaveLength(1);
  });

  it('--reprocess failed re-runs FAILED/MISSED/SKIPPED slots: new BACKFILL runs beside SCHEDULED ones, back in line for BACKFILL ones', async () => {
    database = await dailyWithHistory();
    await backfillRuns(database, options({ concurrency: 10 }));
    const first = (await runsOf(database, 'daily')).find((r) => r.trigger_type === 'BACKFILL' && r.scheduled_for === day(20))!;
    await database.db.execute(sql`update schedule_runs set status = 'FAILED', attempts = 2, max_attempts = 2, finished_at = now() where id = ${first.id}`);

    const result = await backfillRuns(database, options({ reprocess: 'failed', concurrency: 10, nowMs: NOW_MS + 60_000 }));
    expect(result.entries.map((e) => [e.scheduledFor, e.action, e.status, e.previousStatus])).toEqual([
      [day(20), 'requeue', 'QUEUED', 'FAILED'],
      [day(26), 'create', 'QUEUED', null],
      [day(27), 'create', 'QUEUED', null],
    ]);
    const runs = await runsOf(database, 'daily');
    expect(runs.find((r) => r.id === first.id)).toMatchObject({ status: 'QUEUED', attempts: 2, max_attempts: 3, finished_at: null, run_after: new Date(NOW_MS + 60_000).toISOString() });
    // The scheduled runs keep their history.
    expect(runs.filter((r) => r.trigger_type === 'SCHEDULED').map((r) => r.status)).toEqual(['SUCCESS', 'FAILED', 'SKIPPED']);
  });

  it('--reprocess all re-runs every ended slot, never one still in progress', async () => {
    database = await dailyWithHistory();
    await backfillRuns(database, options({ concurrency: 10 }));
    const result = await backfillRuns(database, options({ reprocess: 'all', concurrency: 10 }));
    // 20-24 and 28 are QUEUED BACKFILL runs (in progress): untouched. 25-27 get BACKFILL runs.
    expect(result.entries.map((e) => [e.scheduledFor, e.action])).toEqual([
      [day(25), 'create'],
      [day(26), 'create'],
      [day(27), 'create'],
    ]);
    await database.db.execute(sql`update schedule_runs set status = 'SUCCESS', finished_at = now() where trigger_type = 'BACKFILL'`);
    const again = await backfillRuns(database, options({ reprocess: 'all', concurrency: 3 }));
    expect(again.entries.map((e) => e.action)).toEqual(Array(9).fill('requeue'));
    // Past --concurrency 3 the re-queued runs wait their turn as PENDING.
    expect(again.entries.map((e) => e.status)).toEqual([...Array(3).fill('QUEUED'), ...Array(6).fill('PENDING')]);
  });

  it('takes priority and concurrency from the stored Policy', async () => {
    database = await dailyWithHistory({ backfill: { priority: 'HIGH', concurrency: 4 } });
    const result = await backfillRuns(database, options());
    expect(result).toMatchObject({ priority: 'HIGH', concurrency: 4 });
    expect((await runsOf(database, 'daily')).filter((r) => r.trigger_type === 'BACKFILL').map((r) => `${r.status}/${r.priority}`)).toEqual([
      'QUEUED/1',
      'QUEUED/1',
      'QUEUED/1',
      'QUEUED/1',
      'PENDING/1',
      'PENDING/1',
    ]);
  });

  it('--dry-run lists what it would do and writes nothing', async () => {
    database = await dailyWithHistory();
    const result = await backfillRuns(database, options({ dryRun: true, reprocess: 'failed' }));
    expect(result.entries.map((e) => e.scheduledFor)).toEqual([day(20), day(21), day(22), day(23), day(24), day(26), day(27), day(28)]);
    expect((await runsOf(database, 'daily')).filter((r) => r.trigger_type === 'BACKFILL')).toEqual([]);
    expect(await auditRows(database)).toEqual([]);
  });

  it('new runs of a schedule that requires approval wait in MANUAL_REQUIRED', async () => {
    database = await databaseWith([scheduleSource('daily', { approval: 'required' })]);
    await backfillRuns(database, options({ fromMs: Date.parse('2026-11-27T00:00:00Z') }));
    expect((await runsOf(database, 'daily')).map((r) => r.status)).toEqual(['MANUAL_REQUIRED', 'MANUAL_REQUIRED']);
  });

  it('refuses more than 10,000 slots, suggesting where to stop', async () => {
    database = await databaseWith([scheduleSource('minutely', { cron: '* * * * *' })]);
    await expect(backfillRuns(database, options({ name: 'minutely' }))).rejects.toThrow(
      'minutely has more than 10000 slots in [2026-11-20T00:00:00.000Z, 2026-11-29T00:00:00.000Z); backfill at most 10000 at a time, e.g. --to 2026-11-26T22:40:00.000Z',
    );
    expect(await runsOf(database, 'minutely')).toEqual([]);
  });

  it('refuses an empty or future range, an unknown or archived schedule', async () => {
    database = await databaseWith([scheduleSource('daily'), scheduleSource('other')]);
    await expect(backfillRuns(database, options({ fromMs: TO, toMs: FROM }))).rejects.toThrow('--from must be before --to');
    await expect(backfillRuns(database, options({ toMs: NOW_MS + 1 }))).rejects.toThrow('backfill covers past slots only');
    await expect(backfillRuns(database, options({ concurrency: 0 }))).rejects.toThrow('--concurrency must be a whole number of at least 1');
    await expect(backfillRuns(database, options({ name: 'nope' }))).rejects.toThrow('no schedule named "nope"');
    await applySources(database, [scheduleSource('other')], NOW_MS, { allowMassArchive: true });
    await expect(backfillRuns(database, options())).rejects.toThrow('cannot backfill daily: the schedule is archived');
  });
});

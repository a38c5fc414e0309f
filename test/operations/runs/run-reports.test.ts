import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/client.js';
import { listRuns } from '../../../src/operations/runs/list-runs.js';
import { pauseSchedule } from '../../../src/operations/runs/pause.js';
import { readScheduleStatus } from '../../../src/operations/runs/schedule-status.js';
import { author, databaseWith, insertRunsAt, NOW_MS, scheduleSource } from './run-fixtures.js';

let database: Database | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

const HOUR = 3_600_000;
const hoursAgo = (hours: number) => new Date(NOW_MS - hours * HOUR).toISOString();

/** Sets when a run started (first attempt) and finished. */
async function timeRun(db: Database, id: number, startedAt: string, finishedAt: string | null): Promise<void> {
  await db.db.execute(sql`update schedule_runs set started_at = ${startedAt}::timestamptz, finished_at = ${finishedAt}::timestamptz, attempts = 1 where id = ${id}`);
}

describe('listRuns', () => {
  it('lists runs newest slot first, filtered by schedule, status and slot time, with durations', async () => {
    database = await databaseWith([scheduleSource('a'), scheduleSource('b')]);
    const [a1, a2] = await insertRunsAt(database, 'a', [
      { slot: hoursAgo(48), status: 'SUCCESS' },
      { slot: hoursAgo(2), status: 'FAILED', reason: null },
    ]);
    const [b1] = await insertRunsAt(database, 'b', [{ slot: hoursAgo(1), status: 'SKIPPED', reason: 'OVERLAP' }]);
    await timeRun(database, a2!, hoursAgo(2), new Date(NOW_MS - 2 * HOUR + 90_000).toISOString());

    const all = await listRuns(database, {});
    expect(all.map((r) => r.id)).toEqual([b1, a2, a1]);
    expect(all[1]).toMatchObject({ schedule: 'a', trigger: 'SCHEDULED', status: 'FAILED', attempts: 1, startedAt: hoursAgo(2), durationMs: 90_000 });
    expect(all[0]).toMatchObject({ status: 'SKIPPED', statusReason: 'OVERLAP', durationMs: null });

    expect((await listRuns(database, { name: 'a' })).map((r) => r.id)).toEqual([a2, a1]);
    expect((await listRuns(database, { status: 'failed' })).map((r) => r.id)).toEqual([a2]);
    expect((await listRuns(database, { sinceMs: NOW_MS - 24 * HOUR })).map((r) => r.id)).toEqual([b1, a2]);
    expect((await listRuns(database, { limit: 1 })).map((r) => r.id)).toEqual([b1]);
  });

  it('reads the newest week first and older days only for what it lacks, in one order either way', async () => {
    database = await databaseWith([scheduleSource('a')]);
    // Three runs in the last week and four before it, one exactly at the week's edge.
    const ids = await insertRunsAt(database, 'a', [hoursAgo(24 * 30), hoursAgo(24 * 9), hoursAgo(24 * 8), hoursAgo(24 * 7), hoursAgo(24 * 6), hoursAgo(3), hoursAgo(1)].map((slot) => ({ slot, status: 'SUCCESS' as const })));
    const newestFirst = [...ids].reverse();
    for (const limit of [1, 2, 3, 4, 5, 7, 20]) {
      const expected = newestFirst.slice(0, limit);
      expect((await listRuns(database, { name: 'a', limit, nowMs: NOW_MS })).map((r) => r.id)).toEqual(expected);
      expect((await listRuns(database, { name: 'a', limit })).map((r) => r.id)).toEqual(expected);
    }
    expect((await listRuns(database, { name: 'a', limit: 20, nowMs: NOW_MS, sinceMs: NOW_MS - 24 * 8 * HOUR })).map((r) => r.id)).toEqual(newestFirst.slice(0, 5));
    expect((await listRuns(database, { name: 'a', limit: 20, nowMs: NOW_MS, sinceMs: NOW_MS - 2 * HOUR })).map((r) => r.id)).toEqual(newestFirst.slice(0, 1));
  });

  it('refuses an unknown schedule, status or limit', async () => {
    database = await databaseWith([scheduleSource('a')]);
    await expect(listRuns(database, { name: 'nope' })).rejects.toThrow('no schedule named "nope"');
    await expect(listRuns(database, { status: 'DONE' })).rejects.toThrow('--status must be one of PENDING, QUEUED');
    await expect(listRuns(database, { limit: 0 })).rejects.toThrow('--limit must be a whole number of at least 1');
  });
});

describe('readScheduleStatus', () => {
  it('reports last result, next slot, 7-day success rate, p95 start delay, runs today (UTC) and pauses', async () => {
    database = await databaseWith([scheduleSource('a', { cron: '0 * * * *' }), scheduleSource('b')]);
    const ids = await insertRunsAt(database, 'a', [
      { slot: hoursAgo(24 * 8), status: 'FAILED' },
      ...Array.from({ length: 20 }, (_, i) => ({ slot: hoursAgo(20 - i), status: i === 19 ? ('FAILED' as const) : ('SUCCESS' as const) })),
      { slot: hoursAgo(0), status: 'QUEUED' as const },
    ]);
    // Started 1 s late, except the last finished one: 21 s late.
    for (const [position, id] of ids.entries()) {
      if (position === 0 || position === 21) continue;
      const slotMs = NOW_MS - (20 - (position - 1)) * HOUR;
      const delayMs = position === 20 ? 21_000 : 1000;
      await timeRun(database, id, new Date(slotMs + delayMs).toISOString(), new Date(slotMs + 60_000).toISOString());
    }
    await timeRun(database, ids[0]!, hoursAgo(24 * 8), hoursAgo(24 * 8 - 1));
    await pauseSchedule(database, { name: 'b', reason: 'maintenance', untilMs: NOW_MS + HOUR, nowMs: NOW_MS, author });

    const report = await readScheduleStatus(database, { nowMs: NOW_MS });
    expect(report).toMatchObject({ windowDays: 7, utcDay: '2026-11-29' });
    const [a, b] = report.schedules;
    expect(a).toMatchObject({
      name: 'a',
      lastResult: { runId: ids[20], status: 'FAILED', scheduledFor: hoursAgo(1) },
      nextRunAt: '2026-11-29T13:00:00.000Z',
      finishedRuns: 20,
      successRate: 19 / 20,
      // percentile_cont over nineteen 1 s delays and one 21 s: position 0.95 × 19 = 18.05, so 1000 + 0.05 × 20000.
      p95StartDelayMs: 2000,
      // Slots from 00:00 to 12:00 UTC.
      runsToday: 13,
      activeRuns: 1,
      paused: null,
    });
    expect(b).toMatchObject({ name: 'b', lastResult: null, successRate: null, p95StartDelayMs: null, runsToday: 0, paused: { by: author.actor, reason: 'maintenance', until: new Date(NOW_MS + HOUR).toISOString() } });
  });
});

import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/client.js';
import { countActiveSchedules } from '../../../src/db/run-report-queries.js';
import { readScheduleStatus } from '../../../src/operations/runs/schedule-status.js';
import { databaseWith, insertRunsAt, NOW_MS, scheduleSource } from './run-fixtures.js';

let database: Database | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

const HOUR = 3_600_000;
const hoursAgo = (hours: number) => new Date(NOW_MS - hours * HOUR).toISOString();

describe('readScheduleStatus for the dashboard', () => {
  it('reads one page of schedules by name, filtered by a substring (LIKE wildcards literal) or one name', async () => {
    database = await databaseWith(['alpha', 'beta', 'gamma', 'delta-job'].map((name) => scheduleSource(name)));
    const page = async (p: { nameContains?: string; name?: string; offset: number; limit: number }) => (await readScheduleStatus(database!, { nowMs: NOW_MS, page: p })).schedules.map((s) => s.name);
    expect(await page({ offset: 1, limit: 2 })).toEqual(['beta', 'delta-job']);
    expect(await page({ nameContains: 'A', offset: 0, limit: 10 })).toEqual(['alpha', 'beta', 'delta-job', 'gamma']);
    expect(await page({ nameContains: 'ta', offset: 0, limit: 10 })).toEqual(['beta', 'delta-job']);
    expect(await page({ nameContains: '_', offset: 0, limit: 10 })).toEqual([]);
    expect(await page({ nameContains: '%', offset: 0, limit: 10 })).toEqual([]);
    expect(await page({ name: 'gamma', offset: 0, limit: 1 })).toEqual(['gamma']);
    expect(await countActiveSchedules(database.db, { nameContains: 'ta' })).toBe(2);
    const [entry] = (await readScheduleStatus(database, { nowMs: NOW_MS, page: { name: 'alpha', offset: 0, limit: 1 } })).schedules;
    expect(entry).toMatchObject({ cron: '0 3 * * *', timezone: 'UTC', approvalRequired: false, description: null });
  });

  it('reads the stats of the latest recentRunsCap slots only', async () => {
    database = await databaseWith([scheduleSource('a', { cron: '0 * * * *' })]);
    const ids = await insertRunsAt(database, 'a', [
      { slot: hoursAgo(4), status: 'FAILED' },
      { slot: hoursAgo(3), status: 'FAILED' },
      { slot: hoursAgo(2), status: 'SUCCESS' },
      { slot: hoursAgo(1), status: 'FAILED' },
    ]);
    for (const [index, id] of ids.entries()) {
      const slotMs = NOW_MS - (4 - index) * HOUR;
      await database.db.execute(sql`update schedule_runs set started_at = ${new Date(slotMs + (index + 1) * 1000).toISOString()}::timestamptz, attempts = 1 where id = ${id}`);
    }
    const all = (await readScheduleStatus(database, { nowMs: NOW_MS })).schedules[0]!;
    expect(all).toMatchObject({ finishedRuns: 4, successRate: 0.25 });
    const capped = (await readScheduleStatus(database, { nowMs: NOW_MS, recentRunsCap: 2 })).schedules[0]!;
    expect(capped).toMatchObject({ finishedRuns: 2, successRate: 0.5, lastResult: { runId: ids[3] } });
    // percentile_cont over delays of 3 s and 4 s: 3000 + 0.95 × 1000.
    expect(capped.p95StartDelayMs).toBe(3950);
  });
});

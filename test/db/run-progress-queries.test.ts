/**
 * run_progress and run_items are written only by the runner holding the run's lease (SPEC §8a):
 * live counts check the lease in the statement itself; items upsert by key, so a retry's report
 * replaces the earlier status of the same item.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';
import { loadPriorProgress, saveFinalProgress, saveLiveProgress } from '../../src/db/run-progress-queries.js';
import { triggerRun } from '../../src/operations/runs/trigger.js';
import { author, databaseWith, NOW_MS, scheduleSource } from '../operations/runs/run-fixtures.js';

let database: Database | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

const counts = (attempt: number, done: number) => ({ runId: 1, attempt, total: 10, done, failed: 0, wouldAffect: null, itemsTruncated: false });
const now = new Date(NOW_MS);

async function progress(db: Database): Promise<Array<{ attempt: number; done: number }>> {
  return queryRows(db.db, sql`select attempt, done::int as done from run_progress`);
}

describe('run progress statements', () => {
  it('writes live counts only for the lease owner of the running attempt', async () => {
    database = await databaseWith([scheduleSource('batch', {})]);
    await triggerRun(database, { name: 'batch', forceNew: false, nowMs: NOW_MS, author });
    await database.db.execute(sql`update schedule_runs set status = 'RUNNING', lease_owner = 'runner-a', attempts = 2`);
    await saveLiveProgress(database.db, 'runner-b', [counts(2, 3)], now);
    await saveLiveProgress(database.db, 'runner-a', [counts(1, 4)], now);
    expect(await progress(database)).toEqual([]);
    await saveLiveProgress(database.db, 'runner-a', [counts(2, 5)], now);
    await saveLiveProgress(database.db, 'runner-a', [counts(2, 7)], now);
    expect(await progress(database)).toEqual([{ attempt: 2, done: 7 }]);
    await database.db.execute(sql`update schedule_runs set lease_owner = 'runner-b'`);
    await saveLiveProgress(database.db, 'runner-a', [counts(2, 9)], now);
    expect(await progress(database)).toEqual([{ attempt: 2, done: 7 }]);
  });

  it("upserts items by key: a retry's report replaces the earlier status", async () => {
    database = await databaseWith([scheduleSource('batch', {})]);
    await saveFinalProgress(database.db, [{ ...counts(1, 1), completeReport: true, items: [{ key: 'a', status: 'DONE', error: null }, { key: 'b', status: 'FAILED', error: 'no' }] }], now);
    await saveFinalProgress(database.db, [{ ...counts(2, 2), completeReport: false, items: [{ key: 'b', status: 'DONE', error: null }] }], now);
    const prior = await loadPriorProgress(database.db, [1]);
    expect(prior.get(1)).toEqual({ total: 10, approvedAffected: null, completeReport: false, items: new Map([['a', 'DONE'], ['b', 'DONE']]) });
    expect(await queryRows(database.db, sql`select item_key, attempt, error from run_items order by item_key`)).toEqual([
      { item_key: 'a', attempt: 1, error: null },
      { item_key: 'b', attempt: 2, error: null },
    ]);
  });
});

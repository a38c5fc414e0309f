/**
 * The outbox of final statuses written outside the runners (db/final-event-queries.ts), on PGlite:
 * cancel and pause write one row per run in their own statement; only a reconciler told to drain
 * (a runner serving metrics) takes the rows out, into its observer, once; rows nobody drained are
 * pruned after the retention so the table stays bounded.
 */
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../src/db/client.js';
import type { FinalEvent } from '../../src/db/final-event-queries.js';
import { cancelRun } from '../../src/operations/runs/cancel.js';
import { pauseSchedule } from '../../src/operations/runs/pause.js';
import { FINAL_EVENTS_RETENTION_MS, runReconcileTick } from '../../src/runner/reconciler.js';
import { author, databaseWith, insertRunsAt, NOW_MS, scheduleSource } from '../operations/runs/run-fixtures.js';

let database: Database | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

const outboxSize = async (db: Database) => Number((await queryRows<{ n: string | number }>(db.db, sql`select count(*) as n from run_final_events`))[0]!.n);

describe('the outbox of final statuses written by operations', () => {
  it('is drained once, into the observer, only by a reconciler that counts; what nobody drains is pruned', async () => {
    database = await databaseWith([scheduleSource('daily'), scheduleSource('hourly')]);
    const [waiting] = await insertRunsAt(database, 'daily', [{ slot: '2026-11-29T03:00:00.000Z', status: 'QUEUED' }]);
    await insertRunsAt(database, 'hourly', [
      { slot: '2026-11-29T10:00:00.000Z', status: 'PENDING' },
      { slot: '2026-11-29T11:00:00.000Z', status: 'RETRY_PENDING', trigger: 'MANUAL' },
    ]);
    await cancelRun(database, { runId: waiting!, nowMs: NOW_MS, author });
    await pauseSchedule(database, { name: 'hourly', reason: 'incident', untilMs: null, nowMs: NOW_MS, author });
    expect(await outboxSize(database)).toBe(3);

    const drained: FinalEvent[] = [];
    const observer = { finalEventsDrained: (events: readonly FinalEvent[]) => drained.push(...events) };
    // A runner without metrics leaves the rows for one that has them.
    expect(await runReconcileTick(database, { nowMs: NOW_MS + 1_000, runnerSilenceMs: 90_000, observer })).toMatchObject({ finalEventsDrained: 0, finalEventsPruned: 0 });
    expect(drained).toEqual([]);
    expect(await runReconcileTick(database, { nowMs: NOW_MS + 2_000, runnerSilenceMs: 90_000, observer, drainFinalEvents: true })).toMatchObject({ finalEventsDrained: 3 });
    expect(drained.map((e) => `${e.schedule} ${e.status} ${e.reason ?? '-'} ${e.trigger}`).sort()).toEqual([
      'daily CANCELLED - SCHEDULED',
      'hourly SKIPPED PAUSED MANUAL',
      'hourly SKIPPED PAUSED SCHEDULED',
    ]);
    await runReconcileTick(database, { nowMs: NOW_MS + 3_000, runnerSilenceMs: 90_000, observer, drainFinalEvents: true });
    expect(drained).toHaveLength(3);
    expect(await outboxSize(database)).toBe(0);

    const [late] = await insertRunsAt(database, 'daily', [{ slot: '2026-11-29T04:00:00.000Z', status: 'QUEUED' }]);
    await cancelRun(database, { runId: late!, nowMs: NOW_MS, author });
    expect(await runReconcileTick(database, { nowMs: NOW_MS + FINAL_EVENTS_RETENTION_MS - 1, runnerSilenceMs: 90_000 })).toMatchObject({ finalEventsPruned: 0 });
    expect(await runReconcileTick(database, { nowMs: NOW_MS + FINAL_EVENTS_RETENTION_MS + 1, runnerSilenceMs: 90_000 })).toMatchObject({ finalEventsPruned: 1 });
    expect(await outboxSize(database)).toBe(0);
  }, 60_000);
});

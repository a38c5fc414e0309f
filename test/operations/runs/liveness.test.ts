/**
 * `status` liveness (SPEC §8): which runners are alive, which schedules are overdue, and the
 * verdict `status --check` exits on, read at instants the test chooses.
 */
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/client.js';
import { markRunnerStopped, upsertRunner } from '../../../src/db/reconcile-queries.js';
import { pauseSchedule } from '../../../src/operations/runs/pause.js';
import { readScheduleStatus } from '../../../src/operations/runs/schedule-status.js';
import { author, databaseWith, insertRunsAt, NOW_MS, policySource, scheduleSource } from './run-fixtures.js';

let database: Database | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

const MINUTE = 60_000;
const at = (ms: number) => new Date(ms).toISOString();
const registerRunner = (db: Database, id: string, heartbeatMs: number) => upsertRunner(db.db, { id, hostname: 'worker-1', pid: 4242, version: '1.2.3' }, new Date(heartbeatMs));

function schedulesWith(): Promise<Database> {
  // Applied at 12:00: payments' next slot is 03:00 tomorrow, hourly's 13:00.
  return databaseWith([scheduleSource('payments', { criticality: 'CRITICAL' }), scheduleSource('hourly', { cron: '0 * * * *', criticality: 'LOW' })]);
}

describe('status liveness', () => {
  it('says plainly that no runner is alive when none ever registered', async () => {
    database = await schedulesWith();
    const report = await readScheduleStatus(database, { nowMs: NOW_MS });
    expect(report).toMatchObject({ runners: [], aliveRunners: 0, staleAfterMs: 90_000, overdueAfterMs: 60_000 });
    expect(report.health).toEqual({
      healthy: false,
      problems: ['no runner is alive: none has heartbeated in the last 1m30s (no runner ever registered); nothing will run until one is started (cronform runner)'],
      warnings: [],
    });
  });

  it('lists a live runner with its runs in flight, then the same runner stale, then stopped', async () => {
    database = await schedulesWith();
    await registerRunner(database, 'worker-1-4242-abc', NOW_MS - 20_000);
    const [running] = await insertRunsAt(database, 'payments', [{ slot: at(NOW_MS - 30 * MINUTE), status: 'RUNNING' }]);
    await database.db.execute(sql`update schedule_runs set lease_owner = 'worker-1-4242-abc' where id = ${running!}`);

    const live = await readScheduleStatus(database, { nowMs: NOW_MS });
    expect(live.runners).toEqual([
      { id: 'worker-1-4242-abc', hostname: 'worker-1', pid: 4242, version: '1.2.3', startedAt: at(NOW_MS - 20_000), heartbeatAt: at(NOW_MS - 20_000), heartbeatAgeMs: 20_000, stoppedAt: null, runsInFlight: 1, state: 'alive' },
    ]);
    expect(live.aliveRunners).toBe(1);
    expect(live.health).toEqual({ healthy: true, problems: [], warnings: [] });

    // Five minutes on, without a heartbeat: not marked stopped yet (no reconciler ran), but stale.
    const stale = await readScheduleStatus(database, { nowMs: NOW_MS + 5 * MINUTE });
    expect(stale.runners.map((r) => [r.state, r.heartbeatAgeMs])).toEqual([['stale', 5 * MINUTE + 20_000]]);
    expect(stale.health.healthy).toBe(false);
    expect(stale.health.problems).toEqual(['no runner is alive: none has heartbeated in the last 1m30s (last heartbeat 5m20s ago, from worker-1-4242-abc); nothing will run until one is started (cronform runner)']);
    expect(stale.health.warnings).toEqual(['runner worker-1-4242-abc is not marked stopped but has not heartbeated for 5m20s']);
    // A longer window (runners with a long lease) keeps it alive.
    expect((await readScheduleStatus(database, { nowMs: NOW_MS + 5 * MINUTE, staleAfterMs: 10 * MINUTE })).health.healthy).toBe(true);

    await markRunnerStopped(database.db, 'worker-1-4242-abc', new Date(NOW_MS + MINUTE));
    const stopped = await readScheduleStatus(database, { nowMs: NOW_MS + 2 * MINUTE });
    expect(stopped.runners.map((r) => [r.state, r.stoppedAt])).toEqual([['stopped', at(NOW_MS + MINUTE)]]);
    expect(stopped.health.healthy).toBe(false);
  });

  it('marks overdue slots and runs; only a CRITICAL one fails the check; paused and backfills are not overdue', async () => {
    database = await schedulesWith();
    const nowMs = NOW_MS + 63 * MINUTE; // 13:03, with a runner that heartbeats but does not schedule
    await registerRunner(database, 'worker-1-4242-abc', nowMs - 5_000);

    const lowLate = await readScheduleStatus(database, { nowMs });
    const hourly = lowLate.schedules.find((s) => s.name === 'hourly')!;
    expect(hourly.overdue).toEqual({ kind: 'slot', dueAt: '2026-11-29T13:00:00.000Z', lateMs: 3 * MINUTE, message: 'slot 2026-11-29T13:00:00.000Z not turned into a run 3m00s after it was due (is a runner scheduling?)' });
    expect(lowLate.schedules.find((s) => s.name === 'payments')!.overdue).toBeNull();
    expect(lowLate.health).toEqual({ healthy: true, problems: [], warnings: [`LOW schedule hourly is overdue: ${hourly.overdue!.message}`] });
    // Within the tolerance (the Policy's misfireThreshold, 1m by default) nothing is overdue.
    expect((await readScheduleStatus(database, { nowMs: NOW_MS + 60 * MINUTE + 59_000 })).schedules.every((s) => s.overdue === null)).toBe(true);

    // A CRITICAL run due at 12:55 and still QUEUED: overdue, and the check fails.
    await insertRunsAt(database, 'payments', [{ slot: at(NOW_MS + 55 * MINUTE), status: 'QUEUED' }]);
    const critical = await readScheduleStatus(database, { nowMs });
    expect(critical.schedules.find((s) => s.name === 'payments')!.overdue).toMatchObject({ kind: 'run', dueAt: at(NOW_MS + 55 * MINUTE), lateMs: 8 * MINUTE });
    expect(critical.health.healthy).toBe(false);
    expect(critical.health.problems).toEqual(['CRITICAL schedule payments is overdue: a run due at 2026-11-29T12:55:00.000Z has not started 8m00s later (no runner claiming it, or its queue is full)']);

    // A paused schedule is not overdue, nor is a backfill waiting its turn.
    await pauseSchedule(database, { name: 'hourly', reason: 'maintenance', untilMs: null, nowMs, author });
    await database.db.execute(sql`update schedule_runs set status = 'CANCELLED' where status = 'QUEUED'`);
    await insertRunsAt(database, 'payments', [{ slot: at(NOW_MS + 55 * MINUTE), status: 'QUEUED', trigger: 'BACKFILL' }]);
    const calm = await readScheduleStatus(database, { nowMs });
    expect(calm.schedules.map((s) => [s.name, s.overdue])).toEqual([['hourly', null], ['payments', null]]);
    expect(calm.health.healthy).toBe(true);
  });

  it("takes the tolerance from the Policy's misfireThreshold", async () => {
    database = await databaseWith([scheduleSource('hourly', { cron: '0 * * * *' }), policySource({ misfireThreshold: '10m' })]);
    await registerRunner(database, 'worker-1', NOW_MS + 63 * MINUTE);
    expect((await readScheduleStatus(database, { nowMs: NOW_MS + 63 * MINUTE })).schedules[0]!.overdue).toBeNull();
    expect((await readScheduleStatus(database, { nowMs: NOW_MS + 71 * MINUTE, staleAfterMs: 10 * MINUTE })).schedules[0]!.overdue).toMatchObject({ kind: 'slot', lateMs: 11 * MINUTE });
  });
});

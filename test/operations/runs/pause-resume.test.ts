import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../../src/compile/definition.js';
import { queryRows, type Database } from '../../../src/db/client.js';
import { sql } from 'drizzle-orm';
import { pauseSchedule, type PauseOptions } from '../../../src/operations/runs/pause.js';
import { resumeSchedule, type MissedMode } from '../../../src/operations/runs/resume.js';
import { triggerRun } from '../../../src/operations/runs/trigger.js';
import { storablePolicy } from '../../../src/plan/build-plan.js';
import { runSchedulerTick } from '../../../src/runner/scheduler.js';
import { applySources, auditRows, author, databaseWith, NOW_MS, notificationsDuring, runsOf, scheduleSource } from './run-fixtures.js';

let database: Database | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

const MINUTE = 60_000;
const policy = storablePolicy(DEFAULT_POLICY);
const pause = (overrides: Partial<PauseOptions> = {}): PauseOptions => ({ name: 'tick', reason: 'downstream outage', untilMs: null, nowMs: NOW_MS + MINUTE, author, ...overrides });
const at = (minutes: number) => new Date(NOW_MS + minutes * MINUTE).toISOString();

/**
 * Every 10 minutes from 12:00. A manual run is queued at 12:00, the schedule is paused at 12:01
 * (the run is skipped), and the scheduler records 12:10, 12:20 and 12:30 as SKIPPED/PAUSED.
 */
async function pausedWithSkippedSlots(spec: Record<string, unknown> = {}): Promise<Database> {
  const db = await databaseWith([scheduleSource('tick', { cron: '*/10 * * * *', ...spec })]);
  await triggerRun(db, { name: 'tick', forceNew: false, nowMs: NOW_MS, author });
  await pauseSchedule(db, pause());
  await runSchedulerTick(db, { nowMs: NOW_MS + 35 * MINUTE, policy });
  return db;
}

describe('pauseSchedule', () => {
  it('marks the schedule paused and skips its runs that have not started; the scheduler then skips its slots', async () => {
    database = await pausedWithSkippedSlots();
    const [schedule] = await queryRows<{ paused_by: string; paused_reason: string; paused_until: string | null }>(database.db, sql`select paused_by, paused_reason, paused_until from schedules where name = 'tick'`);
    expect(schedule).toEqual({ paused_by: author.actor, paused_reason: 'downstream outage', paused_until: null });
    expect((await runsOf(database, 'tick')).map((r) => [r.scheduled_for, r.trigger_type, `${r.status}/${r.status_reason}`])).toEqual([
      [at(0), 'MANUAL', 'SKIPPED/PAUSED'],
      [at(10), 'SCHEDULED', 'SKIPPED/PAUSED'],
      [at(20), 'SCHEDULED', 'SKIPPED/PAUSED'],
      [at(30), 'SCHEDULED', 'SKIPPED/PAUSED'],
    ]);
    expect((await auditRows(database)).map((r) => r.action)).toEqual(['RUN_TRIGGERED', 'SCHEDULE_PAUSED']);
    expect((await auditRows(database))[1]).toMatchObject({ reason: 'downstream outage', after: { skippedRunIds: [expect.any(Number)] } });
  });

  it('refuses a second pause, naming the first, a missing reason, a past --until, unknown and archived schedules', async () => {
    database = await databaseWith([scheduleSource('tick'), scheduleSource('other')]);
    const first = await pauseSchedule(database, pause({ untilMs: NOW_MS + 60 * MINUTE }));
    expect(first).toMatchObject({ until: at(60), skippedRunIds: [] });
    await expect(pauseSchedule(database, pause())).rejects.toThrow(
      `tick is already paused since ${at(1)} by ${author.actor} (downstream outage) until ${at(60)}; resume it first to change the pause`,
    );
    await expect(pauseSchedule(database, pause({ name: 'other', reason: '  ' }))).rejects.toThrow('--reason is required');
    await expect(pauseSchedule(database, pause({ name: 'other', untilMs: NOW_MS }))).rejects.toThrow('is not in the future');
    await expect(pauseSchedule(database, pause({ name: 'nope' }))).rejects.toThrow('no schedule named "nope"');
    await applySources(database, [scheduleSource('tick')], NOW_MS, { allowMassArchive: true });
    await expect(pauseSchedule(database, pause({ name: 'other' }))).rejects.toThrow('cannot pause other: the schedule is archived');
  });
});

describe('resumeSchedule', () => {
  const resume = (missed: MissedMode, name = 'tick') => resumeSchedule(database!, { name, missed, nowMs: NOW_MS + 40 * MINUTE, author });

  it('--missed skip leaves the skipped runs as they are', async () => {
    database = await pausedWithSkippedSlots();
    expect(await resume('skip')).toMatchObject({ requeued: [], leftSkipped: 4, pausedSince: at(1) });
    expect((await runsOf(database, 'tick')).every((r) => r.status === 'SKIPPED')).toBe(true);
    const [schedule] = await queryRows<{ paused_at: string | null }>(database.db, sql`select paused_at from schedules where name = 'tick'`);
    expect(schedule!.paused_at).toBeNull();
    expect((await auditRows(database)).at(-1)).toMatchObject({ action: 'SCHEDULE_RESUMED', after: { paused: null, missed: 'skip', requeuedRunIds: [] } });
  });

  it('--missed last re-queues the latest skipped slot only', async () => {
    database = await pausedWithSkippedSlots();
    const notified = await notificationsDuring(database, 'cronform_runs', async () => {
      expect(await resume('last')).toMatchObject({ requeued: [{ scheduledFor: at(30), status: 'QUEUED' }], leftSkipped: 3 });
    });
    expect(notified).toHaveLength(1);
    expect((await runsOf(database, 'tick')).map((r) => r.status)).toEqual(['SKIPPED', 'SKIPPED', 'SKIPPED', 'QUEUED']);
    expect((await runsOf(database, 'tick'))[3]).toMatchObject({ status_reason: null, finished_at: null, run_after: at(40) });
  });

  it('--missed all re-queues every skipped run oldest first, one at a time unless overlap is ALLOW', async () => {
    database = await pausedWithSkippedSlots();
    expect((await resume('all')).requeued.map((r) => [r.scheduledFor, r.status])).toEqual([
      [at(0), 'QUEUED'],
      [at(10), 'PENDING'],
      [at(20), 'PENDING'],
      [at(30), 'PENDING'],
    ]);
    await database.close();
    database = await pausedWithSkippedSlots({ overlap: 'ALLOW' });
    expect((await resume('all')).requeued.map((r) => r.status)).toEqual(['QUEUED', 'QUEUED', 'QUEUED', 'QUEUED']);
  });

  it('only touches the runs of the pause being resumed', async () => {
    database = await pausedWithSkippedSlots();
    await resume('skip');
    await pauseSchedule(database, pause({ nowMs: NOW_MS + 41 * MINUTE }));
    await runSchedulerTick(database, { nowMs: NOW_MS + 55 * MINUTE, policy });
    const result = await resumeSchedule(database, { name: 'tick', missed: 'all', nowMs: NOW_MS + 56 * MINUTE, author });
    expect(result.requeued.map((r) => r.scheduledFor)).toEqual([at(40), at(50)]);
  });

  it('refuses a schedule that is not paused', async () => {
    database = await databaseWith([scheduleSource('tick')]);
    await expect(resume('all')).rejects.toThrow('tick is not paused');
    await expect(resume('all', 'nope')).rejects.toThrow('no schedule named "nope"');
  });
});

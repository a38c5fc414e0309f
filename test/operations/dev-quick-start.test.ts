/**
 * README "Quick start": `cronform dev` on this repository's own schedules/, in a fresh clone with no
 * secret set, shows a SUCCESS within a minute (schedules/hello.yaml, a real child process), and a
 * job that needs a secret ends SKIPPED naming the variable to set instead of failing. In process
 * (DevSession on PGlite, manual clock); only the jobs are processes.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import type { RunStatus } from '../../src/db/run-vocabulary.js';
import { DevSession } from '../../src/operations/dev-session.js';
import { ManualClock } from '../../src/shared/clock.js';
import { createJsonLogger } from '../../src/shared/logger.js';
import { createPgliteDatabase } from '../support/databases.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
// Half a minute before a slot that is both hello's (every minute) and api-health-check's (every 5).
const START_MS = Date.parse('2026-03-02T10:04:30Z');
const SLOT_MS = Date.parse('2026-03-02T10:05:00Z');

let database: Database;
let session: DevSession;
const clock = new ManualClock(START_MS);
const printed: string[] = [];
const logged: Array<{ msg: string; schedule?: string; status?: string; reason?: string }> = [];
const finished: Array<{ schedule: string; runStatus: RunStatus | null; stdout: string | null }> = [];

beforeAll(async () => {
  database = await createPgliteDatabase();
  session = new DevSession(database, {
    dir: 'schedules',
    cwd: repoRoot,
    clock,
    concurrency: 4,
    baseDir: repoRoot,
    // A fresh clone: none of the examples' secrets, only what starts `node`.
    env: { PATH: process.env.PATH },
    logger: createJsonLogger({ write: (line) => logged.push(JSON.parse(line) as (typeof logged)[number]) }),
    observer: { attemptFinished: (run, outcome, runStatus) => finished.push({ schedule: run.scheduleName, runStatus, stdout: outcome.stdoutTail }) },
    print: (line) => printed.push(line),
    alerts: false,
  });
  await session.start();
}, 60_000);

afterAll(async () => {
  await session?.stop();
  await database?.close();
});

it('applies the examples and says hello runs within a minute', () => {
  expect(printed).toContain('  hello                   2026-03-02 10:05Z  in 1m');
});

it('runs hello to SUCCESS at its first slot and skips the job whose secret is not set, naming it', async () => {
  await clock.waitForTimerDueBy(SLOT_MS);
  clock.set(SLOT_MS + 500);
  await expect.poll(() => finished.map((f) => `${f.schedule} ${f.runStatus}`).sort(), { timeout: 15_000 }).toEqual(['api-health-check SKIPPED', 'hello SUCCESS']);
  expect(JSON.parse(finished.find((f) => f.schedule === 'hello')!.stdout!)).toMatchObject({ job: 'hello', context: { schedule: 'hello', scheduledFor: '2026-03-02T10:05:00.000Z' } });
  expect(logged.find((line) => line.schedule === 'api-health-check' && line.status === 'SKIPPED')).toMatchObject({
    msg: 'job not run; run SKIPPED: environment variable HEALTH_CHECK_API_KEY is not set on this runner: set HEALTH_CHECK_API_KEY to enable this job',
    reason: 'MISSING_SECRET',
  });
  expect(logged.find((line) => line.schedule === 'hello' && line.status === 'SUCCESS')).toMatchObject({ msg: 'attempt finished; run SUCCESS' });
});

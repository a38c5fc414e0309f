/**
 * The values of a job's `fromEnv` variables never reach `run_attempts`, which the plan role can
 * read: a real child process and a loopback HTTP server echo the secret, an in-process `execute`
 * returns and throws it, and the stored tails and errors hold `[redacted:NAME]` instead, on both
 * engines.
 */
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../src/db/client.js';
import { Runner, type RunnerOptions } from '../../src/runner/runner.js';
import { ManualClock } from '../../src/shared/clock.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';
import { createPgliteDatabase, createPostgresDatabase, postgresServerUrl } from '../support/databases.js';
import { startServer, type TestServer } from './executors/executor-fixtures.js';

const T0 = Date.parse('2026-11-29T12:00:00Z');
const SECRET = 'job-api-token-5d41402abc4b2a76';
const env = { ...process.env, JOB_API_TOKEN: SECRET };

interface StoredAttempt {
  schedule: string;
  status: string;
  error: string | null;
  stdout_tail: string | null;
  stderr_tail: string | null;
}

const engines: Array<[string, () => Promise<{ database: Database; drop(): Promise<void> }>]> = [
  ['embedded PGlite', async () => {
    const database = await createPgliteDatabase();
    return { database, drop: () => database.close() };
  }],
  ['PostgreSQL', async () => {
    const server = await createPostgresDatabase();
    return { database: await server.open(), drop: () => server.drop() };
  }],
];

describe.each(engines)('stored output tails on %s', (engine, open) => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  async function runOnce(manifests: Record<string, string>, options: Partial<RunnerOptions> = {}): Promise<StoredAttempt[]> {
    const { database, drop } = await open();
    cleanups.push(drop);
    await applyManifests(database, manifests, T0);
    const runner = new Runner(database, { clock: new ManualClock(T0 + 5 * 60_000 + 120), concurrency: 4, leaseMs: 30_000, baseDir: process.cwd(), env, killGraceMs: 500, ...options });
    cleanups.push(() => runner.worker.releaseUnfinished());
    await runner.tick();
    expect(await runner.worker.waitForExecutions(10_000)).toBe(true);
    await runner.tick();
    return queryRows<StoredAttempt>(
      database.db,
      sql`select s.name as schedule, a.status, a.error, a.stdout_tail, a.stderr_tail
          from run_attempts a join schedule_runs r on r.id = a.run_id join schedules s on s.id = r.schedule_id order by s.name`,
    );
  }

  it.runIf(engine !== 'PostgreSQL' || postgresServerUrl)('keeps the secret a job process and an HTTP server echo out of run_attempts', async () => {
    const server: TestServer = await startServer((request, response) => response.writeHead(200).end(`you sent ${request.headers.authorization}`));
    cleanups.push(() => server.close());
    const echo = 'process.stdout.write("out " + process.env.TOKEN); process.stderr.write("err " + process.env.TOKEN); process.exit(2)';
    const stored = await runOnce({
      'command.yaml': scheduleManifest('echo-command', { cron: '*/5 * * * *', job: { type: 'command', command: [process.execPath, '-e', echo], env: { TOKEN: { fromEnv: 'JOB_API_TOKEN' } } } }),
      'http.yaml': scheduleManifest('echo-http', { cron: '*/5 * * * *', job: { type: 'http', url: server.url, headers: { Authorization: { fromEnv: 'JOB_API_TOKEN' } } } }),
    });
    expect(stored).toEqual([
      { schedule: 'echo-command', status: 'FAILED', error: 'exited with code 2', stdout_tail: 'out [redacted:JOB_API_TOKEN]', stderr_tail: 'err [redacted:JOB_API_TOKEN]' },
      { schedule: 'echo-http', status: 'SUCCEEDED', error: null, stdout_tail: 'you sent [redacted:JOB_API_TOKEN]', stderr_tail: null },
    ]);
    expect(JSON.stringify(stored)).not.toContain(SECRET);
  });

  it.runIf(engine !== 'PostgreSQL' || postgresServerUrl)('keeps it out when an in-process execute returns or throws it', async () => {
    const job = { type: 'command', command: ['in-process'], env: { TOKEN: { fromEnv: 'JOB_API_TOKEN' } } };
    const stored = await runOnce(
      {
        'returns.yaml': scheduleManifest('returns-secret', { cron: '*/5 * * * *', job }),
        'throws.yaml': scheduleManifest('throws-secret', { cron: '*/5 * * * *', job }),
      },
      {
        execute: (_job, context, options) => {
          const token = options.env.JOB_API_TOKEN ?? '';
          if (context.schedule === 'throws-secret') return Promise.reject(new Error(`login failed for ${token}`));
          return Promise.resolve({ status: 'SUCCEEDED', exitCode: 0, httpStatus: null, error: null, stdoutTail: `token=${token}`, stderrTail: `${token}\n`, durationMs: 1 });
        },
      },
    );
    expect(stored).toEqual([
      { schedule: 'returns-secret', status: 'SUCCEEDED', error: null, stdout_tail: 'token=[redacted:JOB_API_TOKEN]', stderr_tail: '[redacted:JOB_API_TOKEN]\n' },
      { schedule: 'throws-secret', status: 'FAILED', error: 'runner error: login failed for [redacted:JOB_API_TOKEN]', stdout_tail: null, stderr_tail: null },
    ]);
  });
});

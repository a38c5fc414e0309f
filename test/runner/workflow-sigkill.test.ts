/**
 * A runner process SIGKILLed between two steps of a workflow (real processes, real PostgreSQL):
 * another replica resumes the run at the step that had not finished, and never runs a finished
 * step again (docs/workflows.md).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';
import { applyManifests } from '../support/apply-manifests.js';
import { createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../support/databases.js';
import { waitFor } from '../support/processes.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const cli = path.join(repoRoot, 'bin', 'run.js');
const built = existsSync(path.join(repoRoot, 'dist', 'commands', 'index.js'));

/**
 * Each step logs `<step>@<attempt>`; `first` writes a result. `second` waits in attempt 1 until
 * the test has killed the runner (it never finishes there), so the kill falls after `first` was
 * recorded SUCCEEDED and before `second` could be.
 */
const STEP = `
const fs = require('fs');
const step = process.env.CRONFORM_STEP, attempt = process.env.CRONFORM_ATTEMPT;
fs.appendFileSync('log.txt', step + '@' + attempt + ' ' + process.argv.slice(1).join(' ') + '\\n');
if (step === 'first') fs.writeFileSync(process.env.CRONFORM_STEP_OUTPUT, JSON.stringify({ token: 'from-first' }));
if (step === 'second' && attempt === '1') setInterval(() => {}, 1000);
`;

describe.runIf(postgresServerUrl && built)('runner killed with SIGKILL between steps', () => {
  let server: TestPostgres;
  let database: Database;
  let scratch: string;
  const runners: ChildProcess[] = [];
  beforeAll(async () => {
    server = await createPostgresDatabase();
    database = await server.open();
    scratch = mkdtempSync(path.join(tmpdir(), 'cronform-steps-kill-'));
  });
  afterAll(async () => {
    for (const runner of runners) runner.kill('SIGKILL');
    await server.drop();
    rmSync(scratch, { recursive: true, force: true });
  });

  function startRunner(): ChildProcess {
    const child = spawn(process.execPath, [cli, 'runner', '--database-url', server.url, '--lease', '2s', '--concurrency', '1', '--kill-grace', '500ms', '--base-dir', scratch], { stdio: 'ignore', env: { ...process.env, CRONFORM_LOG_LEVEL: 'error' } });
    runners.push(child);
    return child;
  }

  it('resumes at the step that had not finished, with the finished step run once', async () => {
    writeFileSync(path.join(scratch, 'log.txt'), '');
    const step = (name: string, args: string[] = []) => ({ name, type: 'command', command: [process.execPath, '-e', STEP, ...args] });
    const spec = {
      cron: '0 0 1 1 *',
      timezone: 'UTC',
      timeout: '10m',
      onStall: 'retry',
      retry: { maxAttempts: 2, backoff: 'fixed', initialDelay: '1s' },
      job: { steps: [step('first'), step('second', ['{{steps.first.output.token}}']), step('third')] },
    };
    await applyManifests(database, { 'wf.yaml': `apiVersion: cronform/v1\nkind: Schedule\nmetadata:\n  name: killed\nspec: ${JSON.stringify(spec)}\n` }, Date.now());
    await database.db.execute(
      sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts)
          select id, version, now(), 'MANUAL', 'killed:manual', 'QUEUED', 2, 'default', now(), 2 from schedules`,
    );
    const first = startRunner();
    await waitFor('step first to be recorded and second to start', async () => (readFileSync(path.join(scratch, 'log.txt'), 'utf8').includes('second@1') ? true : undefined));
    const before = await queryRows<{ name: string; status: string }>(database.db, sql`select name, status from run_steps order by step_index`);
    expect(before).toEqual([
      { name: 'first', status: 'SUCCEEDED' },
      { name: 'second', status: 'RUNNING' },
    ]);
    first.kill('SIGKILL');
    startRunner();
    const run = await waitFor('the run to be resumed and finished', async () => {
      const [row] = await queryRows<{ status: string; attempts: number }>(database.db, sql`select status, attempts from schedule_runs`);
      return row?.status === 'SUCCESS' ? row : undefined;
    }, 60_000);
    expect(run).toEqual({ status: 'SUCCESS', attempts: 2 });
    const ran = readFileSync(path.join(scratch, 'log.txt'), 'utf8').trim().split('\n').map((line) => line.trim());
    // first ran once; second again in attempt 2, reading first's result from attempt 1; then third.
    expect(ran).toEqual(['first@1', 'second@1 from-first', 'second@2 from-first', 'third@2']);
    const steps = await queryRows<{ attempt: number; name: string; status: string }>(database.db, sql`select attempt, name, status from run_steps order by attempt, step_index`);
    expect(steps.map((s) => `${s.attempt} ${s.name} ${s.status}`)).toEqual(['1 first SUCCEEDED', '1 second RUNNING', '2 second SUCCEEDED', '2 third SUCCEEDED']);
  }, 120_000);
});

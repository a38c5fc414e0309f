/**
 * Workflows (`spec.job.steps`, docs/workflows.md) on real PostgreSQL with real child processes:
 * a failed step is where the next attempt resumes, with the earlier steps' results intact;
 * `retry --from-step` re-runs from a chosen step; a step's timeout kills only that step.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DEFAULT_POLICY } from '../../src/compile/definition.js';
import { queryRows, type Database } from '../../src/db/client.js';
import { retryRun } from '../../src/operations/runs/retry.js';
import { RunOperationError } from '../../src/operations/runs/run-operation-error.js';
import { showRun } from '../../src/operations/runs/show-run.js';
import { readRunLogs } from '../../src/operations/runs/show-run.js';
import { Worker } from '../../src/runner/worker.js';
import { ManualClock } from '../../src/shared/clock.js';
import { applyManifests } from '../support/apply-manifests.js';
import { createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../support/databases.js';
import { isAlive } from '../support/processes.js';

const { source: _source, ...policy } = DEFAULT_POLICY;

const author = { actor: 'oncall', reason: 'retry after fix', gitSha: null };

/**
 * One script for every step: logs `<step> <attempt> <args…>` to log.txt, fails while a file
 * `fail-<step>` exists, and writes the result given as JSON in STEP_RESULT to its output file.
 */
const STEP_SCRIPT = `
const fs = require('fs');
const step = process.env.CRONFORM_STEP;
fs.appendFileSync('log.txt', JSON.stringify([step, process.env.CRONFORM_ATTEMPT, ...process.argv.slice(1)]) + '\\n');
if (step === 'load') fs.appendFileSync('seen.txt', fs.readFileSync(process.env.CRONFORM_STEPS_DIR + '/extract.json', 'utf8') + '\\n');
if (fs.existsSync('fail-' + step)) { console.error(step + ' is failing'); process.exit(3); }
if (process.env.STEP_RESULT) fs.writeFileSync(process.env.CRONFORM_STEP_OUTPUT, process.env.STEP_RESULT.replace('ATTEMPT', process.env.CRONFORM_ATTEMPT).replace('%%', '{{'));
`;

function workflowManifest(name: string, scratch: string, extra: Record<string, unknown> = {}): string {
  const step = (stepName: string, args: string[], result?: string) => ({
    name: stepName,
    type: 'command',
    command: [process.execPath, '-e', STEP_SCRIPT, ...args],
    cwd: scratch,
    ...(result ? { env: { STEP_RESULT: result } } : {}),
  });
  const spec = {
    cron: '0 0 1 1 *',
    timezone: 'UTC',
    timeout: '10m',
    job: {
      steps: [
        step('extract', [], '{"rows": 42, "file": "a b; $(touch pwned) %%runId}}"}'),
        step('transform', ['{{steps.extract.output.rows}}', '{{steps.extract.output.file}}'], '{"batch": "t-ATTEMPT"}'),
        step('load', ['{{steps.transform.output.batch}}']),
        step('notify', ['{{steps.extract.output.rows}}']),
      ],
    },
    ...extra,
  };
  return `apiVersion: cronform/v1\nkind: Schedule\nmetadata:\n  name: ${name}\nspec: ${JSON.stringify(spec)}\n`;
}

async function queueManualRun(database: Database, nowMs: number): Promise<number> {
  const at = new Date(nowMs).toISOString();
  const [row] = await queryRows<{ id: string }>(
    database.db,
    sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts)
        select id, version, ${at}::timestamptz, 'MANUAL', name || ':manual', 'QUEUED', 2, 'default', ${at}::timestamptz, ${2} from schedules
        returning id`,
  );
  return Number(row!.id);
}

describe.runIf(postgresServerUrl)('workflow steps (PostgreSQL, real processes)', () => {
  let server: TestPostgres;
  let database: Database;
  let scratch: string;
  let clock: ManualClock;
  let worker: Worker;

  beforeAll(async () => {
    server = await createPostgresDatabase();
    database = await server.open();
  });
  afterAll(async () => {
    await server.drop();
  });
  beforeEach(async () => {
    await database.db.execute(sql`truncate run_steps, run_attempts, audit_log, schedule_runs, schedule_versions, schedules restart identity cascade`);
    scratch = mkdtempSync(path.join(tmpdir(), 'cronform-steps-'));
    clock = new ManualClock(Date.parse('2026-11-29T12:00:00Z'));
    worker = new Worker(database, { runnerId: 'steps-runner', clock, concurrency: 1, leaseMs: 600_000, killGraceMs: 200, baseDir: scratch, env: { PATH: process.env.PATH } }, policy);
    return () => rmSync(scratch, { recursive: true, force: true });
  });

  /** Claims the run, waits for its attempt to end and writes the outcome. */
  async function runOneAttempt(): Promise<void> {
    expect(await worker.claimAndStart()).toBe(1);
    expect(await worker.waitForExecutions(60_000)).toBe(true);
    expect(await worker.flushCompletions()).toBe(1);
  }

  const logLines = (): string[][] => readFileSync(path.join(scratch, 'log.txt'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as string[]);
  const stepsRan = (): string[] => logLines().map(([step, attempt]) => `${step}@${attempt}`);

  it('step 3 of 4 fails: the automatic retry runs only steps 3 and 4, with the results of 1 and 2 intact', async () => {
    await applyManifests(database, { 'wf.yaml': workflowManifest('etl', scratch, { retry: { maxAttempts: 2, backoff: 'fixed', initialDelay: '1m' } }) }, clock.nowMs());
    const runId = await queueManualRun(database, clock.nowMs());
    writeFileSync(path.join(scratch, 'fail-load'), '');

    await runOneAttempt();
    expect(stepsRan()).toEqual(['extract@1', 'transform@1', 'load@1']);
    const afterFirst = await showRun(database, runId);
    expect(afterFirst.status).toBe('RETRY_PENDING');
    expect(afterFirst.attemptDetails[0]).toMatchObject({ status: 'FAILED', exitCode: 3, error: 'step load: exited with code 3' });
    expect(afterFirst.steps.map((s) => [s.attempt, s.name, s.status, s.exitCode])).toEqual([
      [1, 'extract', 'SUCCEEDED', 0],
      [1, 'transform', 'SUCCEEDED', 0],
      [1, 'load', 'FAILED', 3],
    ]);
    expect(afterFirst.steps[2]!.stderrTail).toBe('load is failing\n');
    // A result is data: substituted as one argv element each, never through a shell or a second substitution.
    expect(logLines()[1]).toEqual(['transform', '1', '42', 'a b; $(touch pwned) {{runId}}']);
    expect(existsSync(path.join(scratch, 'pwned'))).toBe(false);

    rmSync(path.join(scratch, 'fail-load'));
    clock.advance(60_000);
    await runOneAttempt();
    expect(stepsRan()).toEqual(['extract@1', 'transform@1', 'load@1', 'load@2', 'notify@2']);
    // load read attempt 1's transform result (t-1) and the extract result file.
    expect(logLines()[3]).toEqual(['load', '2', 't-1']);
    expect(readFileSync(path.join(scratch, 'seen.txt'), 'utf8').trim().split('\n').map((line) => JSON.parse(line))).toEqual([
      { rows: 42, file: 'a b; $(touch pwned) {{runId}}' },
      { rows: 42, file: 'a b; $(touch pwned) {{runId}}' },
    ]);
    const done = await showRun(database, runId);
    expect(done.status).toBe('SUCCESS');
    expect(done.steps.filter((s) => s.attempt === 2).map((s) => [s.name, s.status])).toEqual([
      ['load', 'SUCCEEDED'],
      ['notify', 'SUCCEEDED'],
    ]);
    expect(done.steps.find((s) => s.name === 'transform')!.result).toEqual({ batch: 't-1' });
    expect((await readRunLogs(database, runId, undefined, 'load')).stdoutTail).toBe('');
    expect((await readRunLogs(database, runId, 1, 'load')).stderrTail).toBe('load is failing\n');
  }, 120_000);

  it('cronform retry resumes at the failed step; --from-step re-runs from a chosen one, audited', async () => {
    await applyManifests(database, { 'wf.yaml': workflowManifest('etl', scratch) }, clock.nowMs());
    const runId = await queueManualRun(database, clock.nowMs());
    await database.db.execute(sql`update schedule_runs set max_attempts = 1`);
    writeFileSync(path.join(scratch, 'fail-notify'), '');
    await runOneAttempt();
    expect((await showRun(database, runId)).status).toBe('FAILED');
    expect(stepsRan()).toEqual(['extract@1', 'transform@1', 'load@1', 'notify@1']);
    rmSync(path.join(scratch, 'fail-notify'));

    // A step after the one that failed would run without what it reads: refused, nothing changed.
    await expect(retryRun(database, { runId, nowMs: clock.nowMs(), author, fromStep: 'nope' })).rejects.toThrow('run 1 has no step "nope" (its steps: extract, transform, load, notify)');
    writeFileSync(path.join(scratch, 'fail-load'), '');
    // Plain retry: resumes at notify.
    const plain = await retryRun(database, { runId, nowMs: clock.nowMs(), author });
    expect(plain).toMatchObject({ attempt: 2, fromStep: 'notify' });
    await runOneAttempt();
    expect(stepsRan().slice(4)).toEqual(['notify@2']);
    expect((await showRun(database, runId)).status).toBe('SUCCESS');

    // SUCCESS is not retryable; make it FAILED the way an operator would find it after a bad load.
    await database.db.execute(sql`update schedule_runs set status = 'FAILED'`);
    const chosen = await retryRun(database, { runId, nowMs: clock.nowMs(), author, fromStep: 'transform' });
    expect(chosen).toMatchObject({ attempt: 3, fromStep: 'transform' });
    const queued = await showRun(database, runId);
    expect(queued.steps.filter((s) => s.attempt === 3).map((s) => [s.name, s.status])).toEqual([
      ['transform', 'RESET'],
      ['load', 'RESET'],
      ['notify', 'RESET'],
    ]);
    await runOneAttempt();
    // transform and load ran again; load fails now, so notify did not.
    expect(stepsRan().slice(5)).toEqual(['transform@3', 'load@3']);
    expect(logLines()[6]).toEqual(['load', '3', 't-3']);
    const afterChosen = await showRun(database, runId);
    expect(afterChosen.status).toBe('FAILED');
    expect(afterChosen.steps.filter((s) => s.attempt === 3).map((s) => [s.name, s.status])).toEqual([
      ['transform', 'SUCCEEDED'],
      ['load', 'FAILED'],
      ['notify', 'RESET'],
    ]);
    // notify lies after load, which has not succeeded since: refused.
    await expect(retryRun(database, { runId, nowMs: clock.nowMs(), author, fromStep: 'notify' })).rejects.toThrow(RunOperationError);
    const audit = await queryRows<{ action: string; after: { fromStep?: string; fromStepChosen?: boolean } }>(database.db, sql`select action, after from audit_log where action = 'RUN_RETRIED' order by id`);
    expect(audit.map((row) => [row.action, row.after.fromStep, row.after.fromStepChosen])).toEqual([
      ['RUN_RETRIED', 'notify', false],
      ['RUN_RETRIED', 'transform', true],
    ]);
  }, 120_000);

  it("a step's timeout kills only that step's process group and fails the attempt at it", async () => {
    // The slow step starts a grandchild in its own process group, records both pids, and hangs.
    const hang = `const {spawn}=require('child_process');const c=spawn(process.execPath,['-e','setInterval(()=>{},1000)'],{stdio:'ignore'});require('fs').writeFileSync('pids',process.pid+' '+c.pid);setInterval(()=>{},1000);`;
    const spec = {
      cron: '0 0 1 1 *',
      timezone: 'UTC',
      timeout: '10m',
      job: {
        steps: [
          { name: 'first', type: 'command', command: [process.execPath, '-e', STEP_SCRIPT], cwd: scratch },
          { name: 'slow', type: 'command', command: [process.execPath, '-e', hang], cwd: scratch, timeout: '1s' },
          { name: 'after', type: 'command', command: [process.execPath, '-e', STEP_SCRIPT], cwd: scratch },
        ],
      },
    };
    await applyManifests(database, { 'wf.yaml': `apiVersion: cronform/v1\nkind: Schedule\nmetadata:\n  name: slow\nspec: ${JSON.stringify(spec)}\n` }, clock.nowMs());
    const runId = await queueManualRun(database, clock.nowMs());
    await database.db.execute(sql`update schedule_runs set max_attempts = 1`);
    const startedMs = Date.now();
    await runOneAttempt();
    const elapsedMs = Date.now() - startedMs;
    // The step's 1 s, not the schedule's 10 m (measured under load: generous bound).
    expect(elapsedMs).toBeLessThan(30_000);
    const pids = readFileSync(path.join(scratch, 'pids'), 'utf8').split(' ').map(Number);
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
    const run = await showRun(database, runId);
    expect(run.status).toBe('FAILED');
    expect(run.attemptDetails[0]).toMatchObject({ status: 'TIMED_OUT', error: 'step slow: timed out after 1s' });
    expect(run.steps.map((s) => [s.name, s.status])).toEqual([
      ['first', 'SUCCEEDED'],
      ['slow', 'TIMED_OUT'],
    ]);
    expect(stepsRan()).toEqual(['first@1']);
  }, 120_000);
});

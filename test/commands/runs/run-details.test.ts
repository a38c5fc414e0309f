/**
 * `runs show`, `logs` and the reasons of `runs`, on both engines, for runs a real runner executed:
 * a real child process prints to stdout and stderr (echoing its `fromEnv` secret) and exits 3,
 * and a job whose secret is not set on the runner fails before it starts. The commands run
 * in-process once the runner's ticks are over and its database is closed.
 */
import { expect } from 'vitest';
import Logs from '../../../src/commands/logs.js';
import Runs from '../../../src/commands/runs.js';
import RunsShow from '../../../src/commands/runs/show.js';
import type { RunEntry } from '../../../src/operations/runs/list-runs.js';
import type { RunDetail, RunLogs } from '../../../src/operations/runs/show-run.js';
import { Runner } from '../../../src/runner/runner.js';
import { ManualClock } from '../../../src/shared/clock.js';
import { applyManifests, scheduleManifest } from '../../support/apply-manifests.js';
import { describeOnBothEngines } from '../../support/command-engines.js';
import { runCommand } from '../../support/run-command.js';

const T0 = Date.parse('2026-11-29T12:00:00Z');
const SECRET = 'sk_live_5d41402abc4b2a76e9';
const CHARGE_SCRIPT = [
  'console.log("charging with " + process.env.STRIPE_KEY);',
  'console.log("line two\\tafter a tab");',
  'console.error("card declined \\u001b[31mred\\u001b[0m");',
  'process.exit(3);',
].join(' ');

describeOnBothEngines('runs show and logs of runs a real runner executed', async (engine) => {
  const database = await engine.openForChecks();
  try {
    await applyManifests(
      database,
      {
        'charge.yaml': scheduleManifest('charge', { cron: '*/5 * * * *', job: { type: 'command', command: [process.execPath, '-e', CHARGE_SCRIPT], env: { STRIPE_KEY: { fromEnv: 'STRIPE_API_KEY' } } } }),
        'refund.yaml': scheduleManifest('refund', { cron: '*/5 * * * *', job: { type: 'command', command: [process.execPath, '-e', 'process.exit(0)'], env: { KEY: { fromEnv: 'REFUND_API_KEY' } } } }),
      },
      T0,
    );
    const env: NodeJS.ProcessEnv = { ...process.env, STRIPE_API_KEY: SECRET };
    delete env.REFUND_API_KEY;
    const runner = new Runner(database, { clock: new ManualClock(T0 + 5 * 60_000 + 120), concurrency: 4, leaseMs: 30_000, baseDir: process.cwd(), env, killGraceMs: 500, runnerId: 'runner-under-test' });
    await runner.tick();
    expect(await runner.worker.waitForExecutions(20_000)).toBe(true);
    await runner.tick();
  } finally {
    await database.close();
  }
  // Escape sequences kept in what is captured: whether they reach the terminal is under test.
  const run = (command: Parameters<typeof runCommand>[0], argv: string[]) => runCommand(command, [...argv, ...engine.databaseArgs], { stripAnsi: false });

  // runs: the reason of each FAILED run, in --json (statusReason) and in the table.
  const listed = JSON.parse((await run(Runs, ['--json'])).stdout) as RunEntry[];
  const charge = listed.find((r) => r.schedule === 'charge')!;
  const refund = listed.find((r) => r.schedule === 'refund')!;
  expect(charge).toMatchObject({ status: 'FAILED', statusReason: 'exited with code 3', lastAttempt: { attempt: 1, status: 'FAILED', exitCode: 3, httpStatus: null } });
  expect(refund).toMatchObject({ status: 'FAILED', statusReason: 'environment variable REFUND_API_KEY is not set on this runner: set REFUND_API_KEY to enable this job', lastAttempt: { exitCode: null } });
  const table = (await run(Runs, [])).stdout.split('\n');
  expect(table[0]).toMatch(/DURATION\s+REASON$/);
  expect(table.find((line) => line.startsWith(`${refund.id} `))).toMatch(/FAILED .* environment variable REFUND_API_KEY is not set on this runner: set REFUND_API_KEY to enable this job$/);

  // runs show: the run and its attempt, the output tails redacted and made visible.
  const shown = await run(RunsShow, [String(charge.id), '--json']);
  expect(shown.exitCode).toBe(0);
  const detail = JSON.parse(shown.stdout) as RunDetail;
  expect(detail).toMatchObject({
    id: charge.id,
    schedule: 'charge',
    scheduleVersion: 1,
    scheduledFor: new Date(T0 + 5 * 60_000).toISOString(),
    trigger: 'SCHEDULED',
    businessDate: '2026-11-29',
    status: 'FAILED',
    statusReason: 'exited with code 3',
    priority: 'NORMAL',
    queue: 'default',
    attempts: 1,
    maxAttempts: 1,
    events: [],
  });
  expect(detail.attemptDetails).toHaveLength(1);
  expect(detail.attemptDetails[0]).toMatchObject({
    attempt: 1,
    runnerId: 'runner-under-test',
    status: 'FAILED',
    exitCode: 3,
    httpStatus: null,
    error: 'exited with code 3',
    failure: 'exited with code 3',
    stdoutTail: 'charging with [redacted:STRIPE_API_KEY]\nline two\tafter a tab\n',
    stderrTail: 'card declined \u001b[31mred\u001b[0m\n',
  });
  expect(detail.attemptDetails[0]!.durationMs).toBeGreaterThanOrEqual(0);
  expect(shown.stdout).not.toContain(SECRET);

  const text = (await run(RunsShow, [String(charge.id)])).stdout;
  expect(text).toContain(`Run ${charge.id} of charge  FAILED: exited with code 3`);
  expect(text).toMatch(/^Attempt 1 {2}FAILED {2}on runner-under-test {2}\S+ → \S+ \(\S+\)$/m);
  expect(text).toContain('  exit code 3\n');
  expect(text).toContain('    charging with [redacted:STRIPE_API_KEY]\n    line two\\tafter a tab\n');
  // The job's escape sequences are shown, not obeyed.
  expect(text).toContain('    card declined \\u001B[31mred\\u001B[0m\n');
  expect(text).not.toContain('\u001b');

  // logs: the tails as stored, stdout to stdout and stderr to stderr (piped: raw).
  const logs = await run(Logs, [String(charge.id)]);
  expect(logs.exitCode).toBe(0);
  expect(logs.stdout).toBe('charging with [redacted:STRIPE_API_KEY]\nline two\tafter a tab\n');
  expect(logs.stderr).toBe('card declined \u001b[31mred\u001b[0m\n');
  expect((JSON.parse((await run(Logs, [String(charge.id), '--attempt', '1', '--json'])).stdout) as RunLogs)).toMatchObject({ runId: charge.id, schedule: 'charge', attempt: 1, status: 'FAILED' });

  // Ids that are not there: a clear error and exit 1.
  const missing = await run(RunsShow, ['999999']);
  expect([missing.exitCode, missing.message]).toEqual([1, 'no run with id 999999 (`cronform runs` lists recent runs with their ids)']);
  const noAttempt = await run(Logs, [String(charge.id), '--attempt', '2']);
  expect([noAttempt.exitCode, noAttempt.message]).toEqual([1, `run ${charge.id} of charge has no attempt 2 (attempts used: 1)`]);
  // (A usage error's exit code is the built CLI's, checked in test/commands/exit-codes-cli.test.ts.)
  expect((await run(RunsShow, ['abc'])).message).toContain('Expected an integer but received: abc');
  const runsOfId = await run(Runs, [String(charge.id)]);
  expect([runsOfId.exitCode, runsOfId.message]).toEqual([1, `no schedule named "${charge.id}" (did you mean \`cronform runs show ${charge.id}\` for the details of run ${charge.id}?)`]);
});

import { AsyncLocalStorage, createHook } from 'node:async_hooks';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getEventListeners } from 'node:events';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CommandJobDefinition } from '../../../src/compile/definition.js';
import { executeJob, type ExecuteOptions } from '../../../src/runner/executors/execute-job.js';
import type { ExecutionOutcome } from '../../../src/runner/run-types.js';
import { JobReaper, RUNNER_MARKER_ENV } from '../../../src/runner/job-reaper.js';
import { context, isProcessDead, jobsDir, repoRoot, runnerEnv, startNotifyServer, type TestServer } from './executor-fixtures.js';

const node = process.execPath;
const baseOptions: ExecuteOptions = { timeoutMs: 10_000, killGraceMs: 300, env: runnerEnv, baseDir: repoRoot };

function commandJob(command: string[], more: Partial<CommandJobDefinition> = {}): CommandJobDefinition {
  return { type: 'command', command, cwd: '.', env: {}, ...more };
}

function reported(outcome: ExecutionOutcome): { argv: string[]; cwd: string; env: Record<string, string> } {
  expect(outcome).toMatchObject({ status: 'SUCCEEDED', error: null, exitCode: 0 });
  return JSON.parse(outcome.stdoutTail!) as { argv: string[]; cwd: string; env: Record<string, string> };
}

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A started JobReaper whose process spawns the jobs (job-reaper.ts, launch). */
async function startLaunchingReaper(): Promise<JobReaper> {
  const reaper = new JobReaper();
  reaper.start(300);
  reaper.markJob();
  await vi.waitFor(() => expect(reaper.launchesJobs).toBe(true), { timeout: 10_000, interval: 10 });
  return reaper;
}

// Every guarantee holds whoever spawns the job: this process, or the runner's job reaper.
describe.each([
  { spawner: 'this process', viaReaper: false },
  { spawner: 'the job reaper', viaReaper: true },
])('command jobs spawned by $spawner', ({ viaReaper }) => {
  const options: ExecuteOptions = { ...baseOptions };
  let reaper: JobReaper | undefined;
  beforeAll(async () => {
    if (!viaReaper || process.platform === 'win32') return;
    reaper = await startLaunchingReaper();
    options.processGroups = reaper;
  });
  afterAll(() => reaper?.stop());

  it('spawns the job from the expected process', async () => {
    const outcome = await executeJob(commandJob([node, '-e', 'process.stdout.write(String(process.ppid))']), context, options);
    expect(outcome).toMatchObject({ status: 'SUCCEEDED', exitCode: 0 });
    expect(Number(outcome.stdoutTail)).toBe(reaper?.pid ?? process.pid);
  });

  it('runs argv without a shell, with placeholders substituted and the run context in the environment', async () => {
    const job = commandJob([node, `${jobsDir}/print-context.js`, '--date', '{{businessDate}}', 'run-{{ runId }}', '$HOME;`x`'], {
      env: { MODE: 'full-{{attempt}}', NOTION_TOKEN: { fromEnv: 'NOTION_TOKEN' } },
    });
    const { argv, cwd, env } = reported(await executeJob(job, context, options));
    expect(argv).toEqual(['--date', '2026-03-07', 'run-42', '$HOME;`x`']);
    expect(cwd).toBe(repoRoot);
    expect(env).toEqual({
      PATH: process.env.PATH,
      HOME: '/home/cronform',
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      MODE: 'full-2',
      // The job received the exact value: only that value is redacted from its output.
      NOTION_TOKEN: '[redacted:NOTION_TOKEN]',
      CRONFORM_RUN_ID: '42',
      CRONFORM_SCHEDULE: 'daily-report',
      CRONFORM_SCHEDULED_FOR: '2026-03-08T10:30:00.000Z',
      CRONFORM_BUSINESS_DATE: '2026-03-07',
      CRONFORM_IDEMPOTENCY_KEY: 'daily-report:2026-03-08T10:30:00.000Z:SCHEDULED',
      CRONFORM_ATTEMPT: '2',
      CRONFORM_TRIGGER: 'SCHEDULED',
      CRONFORM_PAYLOAD: '{"project":"platform","tags":["a","b"]}',
      ...(reaper ? { [RUNNER_MARKER_ENV]: expect.any(String) } : {}),
    });
  });

  it('lets the run context win over a job env of the same name, and omits a missing business date', async () => {
    const job = commandJob([node, `${jobsDir}/print-context.js`], { env: { CRONFORM_RUN_ID: 'forged' } });
    const { env } = reported(await executeJob(job, { ...context, businessDate: null }, options));
    expect(env.CRONFORM_RUN_ID).toBe('42');
    expect(env).not.toHaveProperty('CRONFORM_BUSINESS_DATE');
  });

  it('resolves cwd against baseDir', async () => {
    const { cwd } = reported(await executeJob(commandJob([node, `${jobsDir}/print-context.js`], { cwd: 'test/fixtures' }), context, options));
    expect(cwd).toBe(`${repoRoot}/test/fixtures`);
  });

  it.each([
    ['a missing secret', { env: { NOTION_TOKEN: { fromEnv: 'NOTION_TOKEN' } } }, { ...runnerEnv, NOTION_TOKEN: undefined }, 'environment variable NOTION_TOKEN is not set on this runner: set NOTION_TOKEN to enable this job'],
    ['several missing secrets', { env: { A: { fromEnv: 'TOKEN_A' }, B: { fromEnv: 'TOKEN_B' } } }, runnerEnv, 'environment variables TOKEN_A, TOKEN_B are not set on this runner: set them to enable this job'],
    ['an unknown placeholder in argv', { command: ['{{bizDate}}'] }, runnerEnv, 'unknown placeholder {{bizDate}} in command[3] (known: businessDate, scheduledFor, runId, attempt, idempotencyKey, schedule, trigger, upstreamRunId)'],
    ['an unknown placeholder in env', { env: { DAY: '{{day}}' } }, runnerEnv, 'unknown placeholder {{day}} in env.DAY (known: businessDate, scheduledFor, runId, attempt, idempotencyKey, schedule, trigger, upstreamRunId)'],
    ['a missing working directory', { cwd: 'no/such/dir' }, runnerEnv, `working directory ${repoRoot}/no/such/dir does not exist`],
  ] as const)('fails without starting the job on %s', async (_case, change, env, error) => {
    const marker = join(mkdtempSync(join(tmpdir(), 'cronform-')), 'started');
    const starts = [node, '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`];
    const job = commandJob('command' in change ? [...starts, ...change.command] : starts, 'command' in change ? {} : change);
    const outcome = await executeJob(job, context, { ...options, env });
    expect(outcome).toMatchObject({ status: 'FAILED', error, exitCode: null, stdoutTail: null, stderrTail: null });
    expect(existsSync(marker)).toBe(false);
    expect(JSON.stringify(outcome)).not.toMatch(/secret-value|password/);
  });

  it.each([
    ['a non-zero exit', [node, '-e', 'process.stderr.write("boom\\n"); process.exit(3)'], { error: 'exited with code 3', exitCode: 3, stderrTail: 'boom\n' }],
    ['death by a signal', [node, '-e', 'process.kill(process.pid, "SIGKILL")'], { error: 'killed by SIGKILL', exitCode: null }],
    ['a command that does not exist', ['cronform-no-such-command', '--flag'], { error: 'command not found: cronform-no-such-command', exitCode: null }],
  ])('reports %s as FAILED', async (_case, command, expected) => {
    expect(await executeJob(commandJob(command), context, options)).toMatchObject({ status: 'FAILED', httpStatus: null, ...expected });
  });

  it('keeps only the last maxOutputBytes of each stream, as text', async () => {
    const fiveMegabytes = 5 * 1024 * 1024;
    const script = `const big = 'x'.repeat(${fiveMegabytes}); process.stdout.write(big + 'THE-END'); process.stderr.write(big + 'é-END');`;
    const outcome = await executeJob(commandJob([node, '-e', script]), context, options);
    expect(outcome.status).toBe('SUCCEEDED');
    expect(Buffer.byteLength(outcome.stdoutTail!)).toBe(16 * 1024);
    expect(outcome.stdoutTail!.endsWith('xxxTHE-END')).toBe(true);
    expect(Buffer.byteLength(outcome.stderrTail!)).toBe(16 * 1024);
    expect(outcome.stderrTail!.endsWith('xé-END')).toBe(true);

    const small = await executeJob(commandJob([node, '-e', script]), context, { ...options, maxOutputBytes: 10 });
    expect(small.stdoutTail).toBe('xxxTHE-END');
  });

  it('redacts the values of its fromEnv variables from both tails, even written a byte at a time', async () => {
    const script = [
      'const token = process.env.TOKEN;',
      'process.stdout.write("start " + token + "\\n");',
      'for (const ch of "via stderr " + token + "\\n") process.stderr.write(ch);',
    ].join(' ');
    const job = commandJob([node, '-e', script], { env: { TOKEN: { fromEnv: 'NOTION_TOKEN' } } });
    const outcome = await executeJob(job, context, options);
    expect(outcome).toMatchObject({ status: 'SUCCEEDED', stdoutTail: 'start [redacted:NOTION_TOKEN]\n', stderrTail: 'via stderr [redacted:NOTION_TOKEN]\n' });
    expect(JSON.stringify(outcome)).not.toContain('notion-secret-value');
  });

  it('redacts a secret straddling the start of a cut tail instead of keeping its end', async () => {
    const script = 'process.stdout.write("x".repeat(100000) + process.env.TOKEN + "-end")';
    const job = commandJob([node, '-e', script], { env: { TOKEN: { fromEnv: 'NOTION_TOKEN' } } });
    for (const maxOutputBytes of [8, 12, 30]) {
      const { stdoutTail } = await executeJob(job, context, { ...options, maxOutputBytes });
      expect(stdoutTail).toMatch(/-end$/);
      expect(stdoutTail).not.toMatch(/cret|value/);
      expect(Buffer.byteLength(stdoutTail!)).toBeLessThanOrEqual(maxOutputBytes);
    }
  });

  it('stores output as UTF-8 text, replacing invalid bytes and NUL', async () => {
    const script = 'process.stdout.write(Buffer.from([0x6f, 0x6b, 0xff, 0x00, 0x21]))';
    expect((await executeJob(commandJob([node, '-e', script]), context, options)).stdoutTail).toBe('ok\uFFFD\uFFFD!');
  });

  it('on timeout kills the whole process group, SIGKILL after the grace when SIGTERM is ignored', async () => {
    const startedMs = performance.now();
    const outcome = await executeJob(commandJob([node, `${jobsDir}/process-tree.js`, '-', 'ignore-term', 'stay']), context, { ...options, timeoutMs: 1000, killGraceMs: 300 });
    const tookMs = performance.now() - startedMs;
    expect(outcome).toMatchObject({ status: 'TIMED_OUT', error: 'timed out after 1s', exitCode: null });
    const pids = JSON.parse(outcome.stdoutTail!) as { child: number; grandchild: number };
    expect(isProcessDead(pids.child)).toBe(true);
    expect(isProcessDead(pids.grandchild)).toBe(true);
    expect(tookMs).toBeGreaterThanOrEqual(1000 + 300 - 20);
    expect(tookMs).toBeLessThan(5000);
  });

  it('on abort stops the process group and reports CANCELLED, leaving no listener behind', async () => {
    const notify = await startNotifyServer<{ child: number; grandchild: number }>();
    servers.push(notify);
    const controller = new AbortController();
    const running = executeJob(commandJob([node, `${jobsDir}/process-tree.js`, notify.url, 'default', 'stay']), context, { ...options, signal: controller.signal });
    const pids = await Promise.race([notify.first, running.then((outcome) => Promise.reject(new Error(`job ended early: ${JSON.stringify(outcome)}`)))]);
    controller.abort('runner shutting down');
    const outcome = await running;
    expect(outcome).toMatchObject({ status: 'CANCELLED', error: 'cancelled: runner shutting down' });
    expect(isProcessDead(pids.child)).toBe(true);
    expect(isProcessDead(pids.grandchild)).toBe(true);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('stops a job whose abort lands while it is being launched', async () => {
    const controller = new AbortController();
    const running = executeJob(commandJob([node, '-e', 'setInterval(() => {}, 1000)']), context, { ...options, timeoutMs: 5000, signal: controller.signal });
    controller.abort('runner shutting down');
    expect(await running).toMatchObject({ status: 'CANCELLED', error: 'cancelled: runner shutting down', exitCode: null });
  });

  it('does not start a job whose signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const outcome = await executeJob(commandJob(['cronform-no-such-command']), context, { ...options, signal: controller.signal });
    expect(outcome).toMatchObject({ status: 'CANCELLED', error: 'cancelled', exitCode: null });
  });

  it.runIf(viaReaper && process.platform === 'linux')('keeps the result of a job that exited before its deadline when its exit is reported after it', async () => {
    // The reaper is stopped while the job runs: the job exits, unreaped, before its deadline, and
    // the exit reaches the runner only once the reaper resumes, after the deadline has passed.
    // It leaves a child in its group: that one is stopped at the deadline all the same, not once
    // the late exit arrives (a fenced job's leftovers must not outlive its lease).
    const dir = mkdtempSync(join(tmpdir(), 'cronform-'));
    const script = `sleep 30 & echo $! > '${dir}/child'; : > '${dir}/started'; sleep 0.3`;
    // The reaper is stopped only once the runner has its report that the job started (add), so
    // that the runner's timeout is running.
    let reportedStarted = false;
    const groups = { add: (id: number) => ((reportedStarted = true), reaper!.add(id)), remove: (id: number) => reaper!.remove(id), markJob: () => reaper!.markJob(), launch: reaper!.launch };
    const running = executeJob(commandJob(['/bin/sh', '-c', script]), context, { ...options, processGroups: groups, timeoutMs: 600, killGraceMs: 300 });
    await vi.waitFor(() => expect(reportedStarted && existsSync(join(dir, 'started'))).toBe(true), { timeout: 5_000, interval: 5 });
    const child = Number(readFileSync(join(dir, 'child'), 'utf8'));
    process.kill(reaper!.pid!, 'SIGSTOP');
    try {
      // With the reaper stopped, nothing reports the job's exit (0.3 s in) before its deadline
      // (0.6 s): the stop at the deadline finds the leader a zombie and kills the leftover child.
      await vi.waitFor(() => expect(isProcessDead(child)).toBe(true), { timeout: 5_000, interval: 10 });
    } finally {
      process.kill(reaper!.pid!, 'SIGCONT');
    }
    expect(await running).toMatchObject({ status: 'SUCCEEDED', exitCode: 0, error: null });
  });

  it('stops what a finished job left running in its group, keeping its own result', async () => {
    const outcome = await executeJob(commandJob([node, `${jobsDir}/process-tree.js`, '-', 'ignore-term', 'exit']), context, { ...options, killGraceMs: 200 });
    expect(outcome).toMatchObject({ status: 'SUCCEEDED', exitCode: 0, error: null });
    const pids = JSON.parse(outcome.stdoutTail!) as { child: number; grandchild: number };
    expect(isProcessDead(pids.grandchild)).toBe(true);
  });

  it('leaves no timer running after the job ends', async () => {
    // The timers created in this job's asynchronous context (tagged through AsyncLocalStorage),
    // followed from creation to their end: a count of all active timers also saw those of earlier
    // tests ending meanwhile on a loaded machine.
    const job = new AsyncLocalStorage<true>();
    const live = new Set<number>();
    const hook = createHook({
      init(asyncId, type) {
        if (type === 'Timeout' && job.getStore() === true) live.add(asyncId);
      },
      destroy(asyncId) {
        live.delete(asyncId);
      },
    }).enable();
    try {
      await job.run(true, () => executeJob(commandJob([node, '-e', '']), context, { ...options, timeoutMs: 60_000 }));
      await new Promise((resolve) => setImmediate(resolve)); // destroy hooks run after the current tick
    } finally {
      hook.disable();
    }
    expect(live.size).toBe(0);
  });

  it('throws for invalid options, which are the caller\'s bug', async () => {
    await expect(executeJob(commandJob([node]), context, { ...options, timeoutMs: 0 })).rejects.toThrow('timeoutMs must be a positive number (got 0)');
    await expect(executeJob(commandJob([node]), context, { ...options, baseDir: 'relative' })).rejects.toThrow('baseDir must be an absolute path');
  });
});

describe.skipIf(process.platform === 'win32')('a job reaper that dies while the job it spawned runs', () => {
  it('fails the attempt and stops what is left of the job', async () => {
    const reaper = await startLaunchingReaper();
    try {
      const notify = await startNotifyServer<{ child: number; grandchild: number }>();
      servers.push(notify);
      const running = executeJob(commandJob([node, `${jobsDir}/process-tree.js`, notify.url, 'default', 'stay']), context, { ...baseOptions, processGroups: reaper });
      const pids = await Promise.race([notify.first, running.then((outcome) => Promise.reject(new Error(`job ended early: ${JSON.stringify(outcome)}`)))]);
      process.kill(reaper.pid!, 'SIGKILL');
      // Its exit status went with the reaper: the attempt fails, and nothing of it is left running.
      expect(await running).toMatchObject({ status: 'FAILED', exitCode: null, error: "job launcher exited: the job's exit status is unknown; it was stopped" });
      expect(isProcessDead(pids.child)).toBe(true);
      expect(isProcessDead(pids.grandchild)).toBe(true);
    } finally {
      reaper.stop();
    }
  });

  it('fails a job it had not reported started, and stops the runner\'s jobs it never heard of', async () => {
    const reaper = await startLaunchingReaper();
    try {
      // As if the reaper had spawned a job and died before reporting it: a process carrying the
      // runner's marker, in a group of its own, that nobody registered.
      const unreported = spawn(node, ['-e', 'process.stdout.write("up"); setInterval(() => {}, 1000)'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'], env: { PATH: process.env.PATH, ...reaper.markJob() } });
      await once(unreported.stdout!, 'data');
      const running = executeJob(commandJob([node, '-e', 'setInterval(() => {}, 1000)']), context, { ...baseOptions, processGroups: reaper });
      // Killed before it could read the request: the job is not known to have started.
      process.kill(reaper.pid!, 'SIGKILL');
      expect(await running).toMatchObject({ status: 'FAILED', exitCode: null, error: 'job launcher exited before it reported the job started' });
      await vi.waitFor(() => expect(isProcessDead(unreported.pid!)).toBe(true), { timeout: 5_000, interval: 10 });
    } finally {
      reaper.stop();
    }
  });
});

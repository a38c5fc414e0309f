/**
 * One owner for the embedded database (issue 18), with real processes of the built CLI: `dev`
 * owns `.cronform/db` and serves it; `trigger`, `runs`, `status` and `apply` run in other processes
 * through it and see the same ids; the triggered run executes in dev's runner; a second `dev` is
 * refused with the holder named; a dev killed with SIGKILL leaves nothing that blocks the next.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleManifest } from '../support/apply-manifests.js';
import { seedEmbeddedDatabase } from '../support/databases.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const cli = path.join(repoRoot, 'bin', 'run.js');
let project: string;
const started: ChildProcess[] = [];

function startDev(): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const env: NodeJS.ProcessEnv = { ...process.env, CRONFORM_LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, [cli, 'dev'], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => text, exited };
}

/** A cronform command in its own process, in the project directory, without DATABASE_URL. */
function cronform(...argv: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...argv], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

async function waitFor(what: string, probe: () => boolean | Promise<boolean>, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface RunJson {
  id: number;
  status: string;
}

beforeAll(async () => {
  project = mkdtempSync(path.join(tmpdir(), 'cf-share-'));
  mkdirSync(path.join(project, 'schedules'));
  // The job records which process ran it: its parent is the runner that executed it.
  const job = { type: 'command', command: [process.execPath, '-e', "require('fs').writeFileSync('ran-by', String(process.ppid))"] };
  writeFileSync(path.join(project, 'schedules', 'report.yaml'), scheduleManifest('report', { cron: '0 3 * * *', job }));
  await seedEmbeddedDatabase(path.join(project, '.cronform', 'db'));
}, 120_000);

afterAll(async () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(project, { recursive: true, force: true });
});

describe.runIf(existsSync(path.join(repoRoot, 'dist', 'commands', 'index.js')))('the embedded database shared through dev', () => {
  it('serves trigger, runs, status and apply from other processes, refuses a second dev, survives SIGKILL', async () => {
    const dev = startDev();
    await waitFor('dev to start', () => dev.output().includes('watching schedules/'));
    expect(dev.output()).toMatch(/opening the embedded database \.cronform\/db: done \(\d+\.\d s\)/);
    expect(dev.output()).toContain('applied v1 report: created');

    // trigger in one process, runs in another: one id, executed by dev's runner.
    const trigger = await cronform('trigger', 'report', '--json');
    expect(trigger.code, trigger.stderr).toBe(0);
    const runId = (JSON.parse(trigger.stdout) as { runId: number }).runId;
    await waitFor('the triggered run to succeed', async () => {
      const runs = await cronform('runs', '--json');
      return (JSON.parse(runs.stdout) as RunJson[]).some((run) => run.id === runId && run.status === 'SUCCESS');
    });
    expect(readFileSync(path.join(project, 'ran-by'), 'utf8')).toBe(String(dev.child.pid));

    // apply from another process (a directory dev does not watch): dev's database has it.
    mkdirSync(path.join(project, 'more'));
    writeFileSync(path.join(project, 'more', 'report.yaml'), readFileSync(path.join(project, 'schedules', 'report.yaml')));
    writeFileSync(path.join(project, 'more', 'extra.yaml'), scheduleManifest('extra', { cron: '0 4 * * *' }));
    const apply = await cronform('apply', '--dir', 'more', '--auto-approve');
    expect(apply.code, apply.stderr).toBe(0);
    const status = await cronform('status', '--json');
    expect((JSON.parse(status.stdout) as { schedules: Array<{ name: string }> }).schedules.map((s) => s.name).sort()).toEqual(['extra', 'report']);

    // A second dev is refused, naming the holder.
    const second = await cronform('dev');
    expect(second.code).toBe(1);
    // oclif wraps the message at the terminal width behind ' ›' margins.
    expect(second.stderr.replace(/\s*›\s*/g, ' ')).toContain(`owned and served by \`cronform dev\` (pid ${dev.child.pid}`);

    // Killed without a chance to clean up: the next dev starts anyway and sees the same data.
    dev.child.kill('SIGKILL');
    await dev.exited;
    const next = startDev();
    await waitFor('the next dev to start', () => next.output().includes('watching schedules/'));
    const runs = await cronform('runs', '--json');
    expect((JSON.parse(runs.stdout) as RunJson[]).map((run) => run.id)).toContain(runId);
    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);
    expect(existsSync(path.join(project, '.cronform', 'db.lock'))).toBe(false);
  }, 300_000);
});

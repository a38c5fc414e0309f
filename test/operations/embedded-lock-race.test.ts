/**
 * Two processes that find the same stale embedded lock (its holder killed) must not both take it
 * over (src/operations/embedded-lock.ts): real processes on the built code, meeting at a barrier
 * just before the stale file is removed, each proving it is alone while it holds the lock.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
// Above Linux's largest pid_max (2^22): never a live process.
const DEAD_PID = 4_194_305;
const CONTENDERS = 4;

/**
 * One contender: takes the lock (waiting up to 20 s), marks itself inside with an exclusive file
 * (a second holder finds it there and fails), holds for 200 ms, leaves, releases. At the takeover
 * it waits (up to 1 s) until every contender has reached the stale lock, so they all race there.
 */
const contender = `
import { existsSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
const { acquireEmbeddedLock } = await import(process.env.LOCK_MODULE);
const [dataDir, meeting, name, contenders] = process.argv.slice(1);
const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const hooks = {
  beforeStaleLockRemoved() {
    writeFileSync(meeting + '/' + name + '.ready', '');
    const until = Date.now() + 1000;
    while (Date.now() < until && readdirSync(meeting).filter((f) => f.endsWith('.ready')).length < Number(contenders)) pause(1);
  },
};
const outcome = await acquireEmbeddedLock(dataDir, { command: 'cronform ' + name, waitMs: 20000, hooks });
if (outcome.kind !== 'acquired') throw new Error('not acquired: ' + outcome.kind);
try {
  writeFileSync(meeting + '/inside', name, { flag: 'wx' });
} catch {
  console.log('DOUBLE ' + name);
  process.exit(2);
}
pause(200);
unlinkSync(meeting + '/inside');
outcome.lock.release();
console.log('OK ' + name);
`;

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'cf-lock-race-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

it(`lets one of ${CONTENDERS} processes take over a stale lock at a time`, async () => {
  const dataDir = path.join(root, '.cronform', 'db');
  const meeting = path.join(root, 'meeting');
  mkdirSync(path.dirname(dataDir), { recursive: true });
  mkdirSync(meeting);
  writeFileSync(`${dataDir}.lock`, JSON.stringify({ pid: DEAD_PID, command: 'cronform dev', startedAt: '2026-12-01T10:00:00.000Z' }));
  const env = { ...process.env, LOCK_MODULE: pathToFileURL(path.join(repoRoot, 'dist/operations/embedded-lock.js')).href };
  const results = await Promise.all(
    Array.from({ length: CONTENDERS }, (_, i) =>
      promisify(execFile)(process.execPath, ['--input-type=module', '-e', contender, dataDir, meeting, `p${i}`, String(CONTENDERS)], { env }).then(
        ({ stdout }) => stdout.trim(),
        (error: { stdout: string; stderr: string }) => `${error.stdout}${error.stderr}`.trim(),
      ),
    ),
  );
  expect(results.sort()).toEqual(Array.from({ length: CONTENDERS }, (_, i) => `OK p${i}`).sort());
}, 60_000);

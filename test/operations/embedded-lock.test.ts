/**
 * The embedded database's lock file (src/operations/embedded-lock.ts): one holder at a time, the
 * holder named to the next opener, a serving owner reported instead of waited for, a dead holder's
 * lock taken over. Files only: the "other process" is this one's lock file rewritten with another pid.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddedDatabaseBusyError } from '../../src/operations/embedded-database-busy-error.js';
import { acquireEmbeddedLock, currentProcessIdentity, isProcessAlive, lockPathOf, takeoverPathOf } from '../../src/operations/embedded-lock.js';

// Above Linux's largest pid_max (2^22): never a live process.
const DEAD_PID = 4_194_305;
let dataDir: string;
let root: string;

/** A clock that moves by each sleep, so waiting never takes real time. */
function fakeTime() {
  let nowMs = 0;
  return { nowMs: () => nowMs, sleep: async (ms: number) => void (nowMs += ms) };
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'cf-lock-'));
  dataDir = path.join(root, '.cronform', 'db');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function writeHolder(holder: Record<string, unknown>) {
  mkdirSync(path.dirname(dataDir), { recursive: true });
  writeFileSync(lockPathOf(dataDir), JSON.stringify({ command: 'cronform dev', startedAt: '2026-12-01T10:00:00.000Z', ...holder }));
}

describe('acquireEmbeddedLock', () => {
  it('creates the lock readable by its owner only and removes it on release', async () => {
    const outcome = await acquireEmbeddedLock(dataDir, { command: 'cronform runs', waitMs: 0 });
    expect(outcome.kind).toBe('acquired');
    expect(JSON.parse(readFileSync(lockPathOf(dataDir), 'utf8'))).toMatchObject({ pid: process.pid, command: 'cronform runs' });
    expect(statSync(lockPathOf(dataDir)).mode & 0o777).toBe(0o600);
    if (outcome.kind === 'acquired') outcome.lock.release();
    expect(existsSync(lockPathOf(dataDir))).toBe(false);
  });

  it('waits for a live holder that does not serve, then names it', async () => {
    await acquireEmbeddedLock(dataDir, { command: 'cronform runs', waitMs: 0 });
    const time = fakeTime();
    const second = acquireEmbeddedLock(dataDir, { command: 'cronform trigger', waitMs: 1_000, ...time });
    await expect(second).rejects.toBeInstanceOf(EmbeddedDatabaseBusyError);
    await expect(second).rejects.toThrow(`is in use by \`cronform runs\` (pid ${process.pid}`);
    expect(time.nowMs()).toBeGreaterThanOrEqual(1_000);
  });

  it('reports a live serving owner instead of waiting', async () => {
    const serving = { address: { path: '/tmp/x/.s.PGSQL.5432' }, password: 'p' };
    const first = await acquireEmbeddedLock(dataDir, { command: 'cronform dev', waitMs: 0 });
    if (first.kind === 'acquired') first.lock.announce(serving);
    const second = await acquireEmbeddedLock(dataDir, { command: 'cronform runs', waitMs: 60_000 });
    expect(second).toEqual({ kind: 'served', holder: expect.objectContaining({ pid: process.pid, command: 'cronform dev', serving }) });
  });

  it('takes over the lock of a process that is gone', async () => {
    writeHolder({ pid: DEAD_PID, serving: { address: { path: '/gone' }, password: 'p' } });
    const outcome = await acquireEmbeddedLock(dataDir, { command: 'cronform dev', waitMs: 0 });
    expect(outcome.kind).toBe('acquired');
    expect(JSON.parse(readFileSync(lockPathOf(dataDir), 'utf8'))).toMatchObject({ pid: process.pid, command: 'cronform dev' });
  });

  it('leaves a lock that is not a cronform lock file alone and says so', async () => {
    mkdirSync(path.dirname(dataDir), { recursive: true });
    writeFileSync(lockPathOf(dataDir), 'not json');
    await expect(acquireEmbeddedLock(dataDir, { command: 'cronform runs', waitMs: 0 })).rejects.toThrow(/db\.lock is not a cronform lock file/);
    expect(readFileSync(lockPathOf(dataDir), 'utf8')).toBe('not json');
  });
});

describe('which holder is alive', () => {
  const me = currentProcessIdentity();

  it.runIf(me.startTicks !== undefined)('records the holder by pid, start time and boot, where /proc has them', async () => {
    const outcome = await acquireEmbeddedLock(dataDir, { command: 'cronform runs', waitMs: 0 });
    expect(JSON.parse(readFileSync(lockPathOf(dataDir), 'utf8'))).toMatchObject({ pid: process.pid, startTicks: me.startTicks, bootId: me.bootId });
    if (outcome.kind === 'acquired') outcome.lock.release();
  });

  it.runIf(me.startTicks !== undefined)('takes over a lock whose pid now belongs to another process (a reused pid)', async () => {
    // This process's pid, but not its start time: what a crashed holder's reused pid looks like.
    writeHolder({ pid: process.pid, startTicks: String(Number(me.startTicks) - 1), bootId: me.bootId });
    const outcome = await acquireEmbeddedLock(dataDir, { command: 'cronform dev', waitMs: 0 });
    expect(outcome.kind).toBe('acquired');
    expect(JSON.parse(readFileSync(lockPathOf(dataDir), 'utf8'))).toMatchObject({ pid: process.pid, command: 'cronform dev', startTicks: me.startTicks });
  });

  it.runIf(me.bootId !== undefined)('takes over a lock written before the machine rebooted', async () => {
    writeHolder({ pid: process.pid, startTicks: me.startTicks, bootId: 'another-boot' });
    expect((await acquireEmbeddedLock(dataDir, { command: 'cronform dev', waitMs: 0 })).kind).toBe('acquired');
  });

  it('keeps the lock of the same live process, and of a live pid in a lock that names no start time', async () => {
    for (const holder of [{ pid: process.pid, ...me }, { pid: process.pid }]) {
      writeHolder(holder);
      await expect(acquireEmbeddedLock(dataDir, { command: 'cronform runs', waitMs: 0 })).rejects.toBeInstanceOf(EmbeddedDatabaseBusyError);
    }
    expect(isProcessAlive(process.pid, me)).toBe(true);
    expect(isProcessAlive(DEAD_PID)).toBe(false);
  });
});

describe('taking over a stale lock', () => {
  it('waits while another live process holds the takeover claim, and leaves the stale lock to it', async () => {
    writeHolder({ pid: DEAD_PID });
    const stale = readFileSync(lockPathOf(dataDir), 'utf8');
    writeFileSync(takeoverPathOf(lockPathOf(dataDir)), JSON.stringify({ pid: process.pid, ...currentProcessIdentity() }));
    const time = fakeTime();
    await expect(acquireEmbeddedLock(dataDir, { command: 'cronform runs', waitMs: 1_000, ...time })).rejects.toThrow(/another process is taking over a stale lock/);
    expect(time.nowMs()).toBeGreaterThanOrEqual(1_000);
    expect(readFileSync(lockPathOf(dataDir), 'utf8')).toBe(stale);
  });

  it('removes the claim of a process that died while taking over, then takes over', async () => {
    writeHolder({ pid: DEAD_PID });
    writeFileSync(takeoverPathOf(lockPathOf(dataDir)), JSON.stringify({ pid: DEAD_PID }));
    const outcome = await acquireEmbeddedLock(dataDir, { command: 'cronform dev', waitMs: 1_000, ...fakeTime() });
    expect(outcome.kind).toBe('acquired');
    expect(existsSync(takeoverPathOf(lockPathOf(dataDir)))).toBe(false);
  });
});

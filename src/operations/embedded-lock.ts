/**
 * Who has the embedded database: `<data dir>.lock` (next to `.cronform/db`) holds the holder's pid,
 * command and, while it serves the database, its socket and password. The file is created whole
 * (written aside, then hard-linked into place, which fails if it exists), so a reader never sees
 * half of it, and it is readable by its owner only (it carries the password).
 *
 * A lock whose pid is gone (a killed process) is stale and taken over. The check is by pid: a pid
 * reused by an unrelated process keeps the lock until that process ends or the file is deleted,
 * which the error message says.
 */
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EmbeddedDatabaseBusyError, type EmbeddedHolder } from './embedded-database-busy-error.js';

export interface EmbeddedLock {
  holder: EmbeddedHolder;
  /** Record (atomically) that this holder now serves the database. */
  announce(serving: NonNullable<EmbeddedHolder['serving']>): void;
  release(): void;
}

export type LockOutcome = { kind: 'acquired'; lock: EmbeddedLock } | { kind: 'served'; holder: EmbeddedHolder & Required<Pick<EmbeddedHolder, 'serving'>> };

export const lockPathOf = (dataDir: string) => `${dataDir}.lock`;

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists and belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A killed process whose parent has not reaped it (a container whose PID 1 does not) is a zombie: dead.
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

function readLockText(lockPath: string): string | undefined {
  try {
    return readFileSync(lockPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function parseHolder(text: string, lockPath: string): EmbeddedHolder {
  try {
    const holder = JSON.parse(text) as EmbeddedHolder;
    if (Number.isInteger(holder.pid) && typeof holder.command === 'string') return holder;
  } catch {
    // reported below
  }
  throw new Error(`${lockPath} is not a cronform lock file; delete it if no cronform process uses the embedded database`);
}

/** The live holder of the lock, if any; a stale lock (dead pid) is removed on the way. */
export function readLiveHolder(dataDir: string): EmbeddedHolder | undefined {
  const lockPath = lockPathOf(dataDir);
  const text = readLockText(lockPath);
  if (text === undefined) return undefined;
  const holder = parseHolder(text, lockPath);
  if (isProcessAlive(holder.pid)) return holder;
  // Remove it only if it is still the stale file we read, not a successor's fresh one.
  if (readLockText(lockPath) === text) {
    try {
      unlinkSync(lockPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return undefined;
}

function writeAside(lockPath: string, holder: EmbeddedHolder): string {
  const aside = `${lockPath}.${process.pid}.tmp`;
  writeFileSync(aside, `${JSON.stringify(holder)}\n`, { mode: 0o600 });
  return aside;
}

/**
 * Takes the lock, or reports the live owner that serves the database (connect to it instead).
 * A holder that does not serve (another short command) is waited for up to `waitMs`, then named
 * in an EmbeddedDatabaseBusyError.
 */
export async function acquireEmbeddedLock(dataDir: string, options: { command: string; waitMs: number; nowMs?: () => number; sleep?: (ms: number) => Promise<void> }): Promise<LockOutcome> {
  const lockPath = lockPathOf(dataDir);
  mkdirSync(path.dirname(lockPath), { recursive: true, mode: 0o700 });
  const nowMs = options.nowMs ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const deadline = nowMs() + options.waitMs;
  const holder: EmbeddedHolder = { pid: process.pid, command: options.command, startedAt: new Date(nowMs()).toISOString() };
  for (;;) {
    const aside = writeAside(lockPath, holder);
    try {
      linkSync(aside, lockPath);
      return { kind: 'acquired', lock: heldLock(lockPath, holder) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(aside);
    }
    const current = readLiveHolder(dataDir);
    if (current === undefined) continue;
    if (current.serving) return { kind: 'served', holder: current as EmbeddedHolder & Required<Pick<EmbeddedHolder, 'serving'>> };
    if (nowMs() >= deadline) throw new EmbeddedDatabaseBusyError(dataDir, current, 'in use by');
    await sleep(100);
  }
}

function heldLock(lockPath: string, holder: EmbeddedHolder): EmbeddedLock {
  let released = false;
  return {
    holder,
    announce(serving) {
      holder.serving = serving;
      renameSync(writeAside(lockPath, holder), lockPath);
    },
    release() {
      if (released) return;
      released = true;
      const text = readLockText(lockPath);
      if (text !== undefined && parseHolder(text, lockPath).pid === process.pid) unlinkSync(lockPath);
    },
  };
}

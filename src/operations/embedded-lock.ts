/**
 * Who has the embedded database: `<data dir>.lock` (next to `.cronform/db`) holds the holder's pid,
 * command and, while it serves the database, its socket and password. The file is created whole
 * (written aside, then hard-linked into place, which fails if it exists), so a reader never sees
 * half of it, and it is readable by its owner only (it carries the password).
 *
 * A lock whose holder is gone (a killed process) is stale and taken over. The holder is the pid
 * and, where /proc exists (Linux), the process's start time and the boot id: a pid reused by an
 * unrelated process, or a lock left from before a reboot, is stale too. Elsewhere (macOS), or in a
 * lock written without them, the check is by pid alone, and a reused pid keeps the lock until that
 * process ends or the file is deleted, which the error message says.
 *
 * Taking over is claimed first: a process that finds a stale lock creates `<lock>.takeover`
 * exclusively (O_EXCL), removes the stale file only if it is still the one it read, then drops the
 * claim. Without the claim, two processes that read the same stale file could both remove "it",
 * the second removing the first one's fresh lock, and both would hold the database. A claim whose
 * own holder died inside those few system calls is itself stale and removed.
 */
import { linkSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
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

/** What tells this process from a later one with the same pid; absent where /proc is not (macOS). */
export interface ProcessIdentity {
  /** /proc/<pid>/stat field 22: clock ticks from boot to the process's start. */
  startTicks?: string;
  /** /proc/sys/kernel/random/boot_id: a pid and start time name one process within one boot only. */
  bootId?: string;
}

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function readProcStat(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

function readBootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** This process's identity, recorded in the lock beside its pid. */
export function currentProcessIdentity(pid = process.pid): ProcessIdentity {
  const startTicks = readProcStat(pid)?.[19];
  const bootId = readBootId();
  return { ...(startTicks ? { startTicks } : {}), ...(bootId ? { bootId } : {}) };
}

/**
 * Whether the process that wrote `holder` still runs: its pid exists, is not a zombie, and where
 * the holder recorded its start time and boot, they match (else the pid was reused, or the
 * machine rebooted since).
 */
export function isProcessAlive(pid: number, identity: ProcessIdentity = {}): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists and belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (identity.bootId !== undefined) {
    const bootId = readBootId();
    if (bootId !== undefined && bootId !== identity.bootId) return false;
  }
  const stat = readProcStat(pid);
  // No /proc: the pid is all there is to go on.
  if (stat === undefined) return true;
  // A killed process whose parent has not reaped it (a container whose PID 1 does not) is a zombie: dead.
  if (stat[0] === 'Z') return false;
  return identity.startTicks === undefined || stat[19] === identity.startTicks;
}

const holderIsAlive = (holder: EmbeddedHolder) => isProcessAlive(holder.pid, holder);

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

/** A takeover claim that was never written (its claimant died between create and write). */
const EMPTY_CLAIM_STALE_MS = 10_000;

export const takeoverPathOf = (lockPath: string) => `${lockPath}.takeover`;

function unlinkIfPresent(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** For tests: runs under the takeover claim, between checking that the lock is still the stale one and removing it. */
export interface TakeoverHooks {
  beforeStaleLockRemoved?: () => void;
}

/**
 * Removes the stale lock whose text is `staleText`, under the takeover claim. False when another
 * process holds the claim (it is taking over; try again shortly).
 */
function takeOverStale(lockPath: string, staleText: string, hooks: TakeoverHooks): boolean {
  const claimPath = takeoverPathOf(lockPath);
  try {
    writeFileSync(claimPath, `${JSON.stringify({ pid: process.pid, ...currentProcessIdentity() })}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    removeDeadClaim(claimPath);
    return false;
  }
  try {
    // Only the claim's holder removes a stale lock, so the file is still the stale one we read
    // unless someone already replaced it (then it is theirs, and live).
    if (readLockText(lockPath) === staleText) {
      hooks.beforeStaleLockRemoved?.();
      unlinkIfPresent(lockPath);
    }
  } finally {
    unlinkIfPresent(claimPath);
  }
  return true;
}

/** A claim left by a process that died while taking over (a few system calls long) is removed. */
function removeDeadClaim(claimPath: string): void {
  const text = readLockText(claimPath);
  if (text === undefined) return;
  let claimant: { pid?: unknown } & ProcessIdentity;
  try {
    claimant = JSON.parse(text) as { pid?: unknown } & ProcessIdentity;
  } catch {
    // Read between its claimant's create and write: in progress, unless it has stayed empty for long.
    const stat = statSync(claimPath, { throwIfNoEntry: false });
    if (stat && Date.now() - stat.mtimeMs > EMPTY_CLAIM_STALE_MS && readLockText(claimPath) === text) unlinkIfPresent(claimPath);
    return;
  }
  if (typeof claimant.pid === 'number' && !isProcessAlive(claimant.pid, claimant) && readLockText(claimPath) === text) unlinkIfPresent(claimPath);
}

type HolderState = { kind: 'none' } | { kind: 'live'; holder: EmbeddedHolder } | { kind: 'taking-over' };

function readHolderState(lockPath: string, hooks: TakeoverHooks): HolderState {
  const text = readLockText(lockPath);
  if (text === undefined) return { kind: 'none' };
  const holder = parseHolder(text, lockPath);
  if (holderIsAlive(holder)) return { kind: 'live', holder };
  return takeOverStale(lockPath, text, hooks) ? { kind: 'none' } : { kind: 'taking-over' };
}

/** The live holder of the lock, if any; a stale lock (its holder gone) is removed on the way. */
export function readLiveHolder(dataDir: string): EmbeddedHolder | undefined {
  const state = readHolderState(lockPathOf(dataDir), {});
  return state.kind === 'live' ? state.holder : undefined;
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
export async function acquireEmbeddedLock(dataDir: string, options: { command: string; waitMs: number; nowMs?: () => number; sleep?: (ms: number) => Promise<void>; hooks?: TakeoverHooks }): Promise<LockOutcome> {
  const lockPath = lockPathOf(dataDir);
  mkdirSync(path.dirname(lockPath), { recursive: true, mode: 0o700 });
  const nowMs = options.nowMs ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const deadline = nowMs() + options.waitMs;
  const holder: EmbeddedHolder = { pid: process.pid, ...currentProcessIdentity(), command: options.command, startedAt: new Date(nowMs()).toISOString() };
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
    const state = readHolderState(lockPath, options.hooks ?? {});
    if (state.kind === 'none') continue;
    if (state.kind === 'taking-over') {
      // Another process is removing a stale lock: a few system calls, then the lock is free or theirs.
      if (nowMs() >= deadline) throw new Error(`${lockPath}: another process is taking over a stale lock; if none is running, delete ${takeoverPathOf(lockPath)}`);
      await sleep(10);
      continue;
    }
    const current = state.holder;
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

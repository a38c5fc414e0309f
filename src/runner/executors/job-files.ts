/**
 * The private directory (mode 0700, under the system's temp dir) holding the files this process
 * exchanges with its command jobs: progress files and retry-item lists (progress-channel.ts) and
 * the result files of workflow steps (step-files.ts). One directory per process, made on first use,
 * not one per attempt: making and removing a directory is several round trips to libuv's thread
 * pool, and on the runner's hot path (a process spawned per job) those were a large part of the
 * runner's CPU per real job (bench/README.md, runner). Each attempt gets files of its own in it.
 *
 * The directory goes when the process exits. A process killed with SIGKILL cannot remove it, so
 * every process removes, once, the directories left by dead processes of this machine: the name
 * carries the machine (a hash of the host name) and the owner's pid.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';

const PREFIX = 'cronform-jobs-';
const HOST = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);

let directory: Promise<string> | undefined;
let sweep: Promise<number> | undefined;
let fileNumber = 0;

/** This process's directory, made (and stale ones swept) on first use. */
export function jobFilesDirectory(): Promise<string> {
  directory ??= makeDirectory().then(
    (made) => {
      void sweepStaleJobFiles();
      return made;
    },
    (error: unknown) => {
      directory = undefined;
      throw error;
    },
  );
  return directory;
}

/** A name no other file of this process's directory has, e.g. `progress-12.jsonl`. */
export function uniqueJobFileName(prefix: string, suffix: string): string {
  fileNumber += 1;
  return `${prefix}-${fileNumber}${suffix}`;
}

/**
 * Runs `make` in the directory; if the directory has gone meanwhile (a temp cleaner removed it
 * while the process sat idle), makes a new one and tries once more.
 */
export async function inJobFilesDirectory<T>(make: (directory: string) => T | Promise<T>): Promise<T> {
  const current = await jobFilesDirectory();
  try {
    return await make(current);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    if (directory !== undefined && (await directory.catch(() => undefined)) === current) directory = undefined;
    return make(await jobFilesDirectory());
  }
}

/**
 * Removes, once per process, the directories of this machine's processes that no longer run (or
 * whose pid is now this process's: a restarted container). Resolves with how many it removed.
 */
export async function sweepStaleJobFiles(): Promise<number> {
  const ours = await jobFilesDirectory();
  sweep ??= removeStaleJobFiles(ours).catch(() => 0);
  return sweep;
}

async function makeDirectory(): Promise<string> {
  const made = await mkdtemp(join(tmpdir(), `${PREFIX}${HOST}-${process.pid}-`));
  process.once('exit', () => rmSync(made, { recursive: true, force: true }));
  return made;
}

/** The sweep itself (sweepStaleJobFiles runs it once per process): every directory but `ours`. */
export async function removeStaleJobFiles(ours: string): Promise<number> {
  const mine = `${PREFIX}${HOST}-`;
  let removed = 0;
  for (const name of await readdir(tmpdir())) {
    if (!name.startsWith(mine)) continue;
    const pid = Number(name.slice(mine.length).split('-')[0]);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    const path = join(tmpdir(), name);
    if (path === ours || (pid !== process.pid && isRunning(pid))) continue;
    await rm(path, { recursive: true, force: true }).then(
      () => (removed += 1),
      () => undefined,
    );
  }
  return removed;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user (whose directory this process could not remove anyway).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

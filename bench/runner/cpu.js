/**
 * CPU time from Linux's /proc, in milliseconds (user + system, every thread): what a process, or
 * one PostgreSQL server, spent on a piece of work, which wall time on a busy 2-core machine hides.
 * Clock ticks are 100 per second on Linux. Elsewhere (no /proc) every reading is null.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10;

/**
 * From a process's /proc stat line: its name, parent pid, start time (which tells a reused pid
 * apart), its own CPU ms and the CPU ms of its children it has reaped; null when it is gone.
 */
function readStat(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    // Fields of stat counted from the state field (3): 4 ppid, 14–15 utime and stime, 16–17
    // cutime and cstime (reaped children), 22 starttime.
    return {
      name: stat.slice(stat.indexOf('(') + 1, close),
      parentPid: Number(fields[1]),
      startTime: fields[19],
      cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
      reapedChildrenCpuMs: (Number(fields[13]) + Number(fields[14])) * TICK_MS,
    };
  } catch {
    return null;
  }
}

/** CPU ms of one process (a benchmark's worker child), or null. Processes it spawned are not included. */
export function readProcessCpuMs(pid) {
  return readStat(pid)?.cpuMs ?? null;
}

/**
 * CPU ms of the processes `parentPids` started that are still running (a cronform runner's job
 * reaper, which spawns its command jobs), each by itself; the jobs it reaped are not included.
 */
export function readChildrenCpuMs(parentPids) {
  let spentMs = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(name);
    if (stat !== null && parentPids.includes(stat.parentPid)) spentMs += stat.cpuMs;
  }
  return spentMs;
}

/**
 * CPU ms of the PostgreSQL server that `backendPid` (a connection's `pg_backend_pid()`) belongs
 * to, by process (pid and start time): its postmaster, with the CPU of the processes it has
 * reaped (so a backend or autovacuum worker that ends between two readings still counts), and
 * every process it started. Null when that backend is not a postgres process visible here (the
 * server runs in another container or on another host).
 */
export function readServerCpuByPid(backendPid) {
  const backend = readStat(backendPid);
  const postmaster = backend === null ? null : readStat(backend.parentPid);
  if (backend?.name !== 'postgres' || postmaster?.name !== 'postgres') return null;
  const cpu = new Map([[`${backend.parentPid}:${postmaster.startTime}`, postmaster.cpuMs + postmaster.reapedChildrenCpuMs]]);
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(name);
    if (stat !== null && stat.parentPid === backend.parentPid) cpu.set(`${name}:${stat.startTime}`, stat.cpuMs);
  }
  return cpu;
}

/**
 * What the server spent between two readings, process by process (one started in between counts
 * in full; one that ended counts through its postmaster's reaped-children total), leaving out
 * `excludedPid` (the benchmark's own polling connection).
 */
export function sumServerCpuMs(before, after, excludedPid) {
  if (before === null || after === null) return null;
  let spentMs = 0;
  for (const [key, cpuMs] of after) if (!key.startsWith(`${excludedPid}:`)) spentMs += cpuMs - (before.get(key) ?? 0);
  return spentMs;
}

/**
 * CPU time from Linux's /proc, in milliseconds (user + system, every thread): what a process, or
 * one PostgreSQL server, spent on a piece of work, which wall time on a busy 2-core machine hides.
 * Clock ticks are 100 per second on Linux. Elsewhere (no /proc) every reading is null.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10;

/** A process's CPU ms (its own, not its children's) and parent pid from its /proc stat line; null when it is gone. */
function readStat(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 4 (ppid), 14 (utime) and 15 (stime) of stat, counted from the state field (3).
    return { parentPid: Number(fields[1]), cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS };
  } catch {
    return null;
  }
}

/** CPU ms of one process (a benchmark's worker child), or null. Processes it spawned are not included. */
export function readProcessCpuMs(pid) {
  return readStat(pid)?.cpuMs ?? null;
}

/**
 * CPU ms by pid of the PostgreSQL server that `backendPid` (a connection's `pg_backend_pid()`)
 * belongs to: its postmaster and every process the postmaster started (backends and background
 * processes), and nothing of another server on the machine. Null when that backend is not visible
 * here (the server runs in another container or on another host).
 */
export function readServerCpuByPid(backendPid) {
  const backend = readStat(backendPid);
  if (backend === null) return null;
  const postmasterPid = backend.parentPid;
  const cpu = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const stat = readStat(pid);
    if (stat !== null && (pid === postmasterPid || stat.parentPid === postmasterPid)) cpu.set(pid, stat.cpuMs);
  }
  return cpu;
}

/**
 * What the server spent between two readings, process by process (one started in between counts in
 * full), leaving out `excludedPid` (the benchmark's own polling connection). A process that ended in
 * between (an autovacuum worker) takes its CPU with it: the figure undercounts a little, for every
 * system alike.
 */
export function sumServerCpuMs(before, after, excludedPid) {
  if (before === null || after === null) return null;
  let spentMs = 0;
  for (const [pid, cpuMs] of after) if (pid !== excludedPid) spentMs += cpuMs - (before.get(pid) ?? 0);
  return spentMs;
}

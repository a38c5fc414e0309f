/**
 * CPU time from Linux's /proc, in milliseconds (user + system, every thread): what a process, or
 * the PostgreSQL server, spent on a piece of work, which wall time on a busy 2-core machine hides.
 * Clock ticks are 100 per second on Linux. Elsewhere (no /proc) every reading is null.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10;

/** utime + stime of one process from its /proc stat line, in ticks; null when it is gone. */
function ticksOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    return { name: stat.slice(stat.indexOf('(') + 1, close), ticks: Number(fields[11]) + Number(fields[12]) }; // fields 14 and 15 of stat
  } catch {
    return null;
  }
}

/** CPU ms of one process (a benchmark's worker child), or null. */
export function processCpuMs(pid) {
  const read = ticksOf(pid);
  return read === null ? null : read.ticks * TICK_MS;
}

/**
 * CPU ms of every process named postgres: backends and background processes alike. A process that
 * exits between two readings (an autovacuum worker) takes its share with it, so a difference
 * undercounts a little; it does so for every system measured.
 */
export function postgresCpuMs() {
  let pids;
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  let ticks = 0;
  for (const pid of pids) {
    const read = ticksOf(pid);
    if (read?.name === 'postgres') ticks += read.ticks;
  }
  return ticks * TICK_MS;
}

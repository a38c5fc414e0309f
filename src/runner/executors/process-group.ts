import { readdirSync, readFileSync } from 'node:fs';

/**
 * A command job runs as the leader of its own process group (spawned detached), so the group id is
 * its pid and one signal reaches every process it started that did not leave the group.
 */

/** Sends `signal` to the whole group; false when the group no longer exists. */
export function signalProcessGroup(groupId: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-groupId, signal);
    return true;
  } catch (error) {
    if (errorCode(error) === 'ESRCH') return false;
    // EPERM: a member changed user (setuid); it exists, and nothing more can be done from here.
    if (errorCode(error) === 'EPERM') return true;
    throw error;
  }
}

/**
 * Whether any process of the group is still running. `kill(-group, 0)` also succeeds for zombies,
 * and in a container whose PID 1 does not reap orphans (Docker without --init) a killed grandchild
 * stays a zombie forever; on Linux the group's members are therefore read from /proc, where a
 * zombie shows state Z. Only called while stopping a job, so the scan is rare.
 */
export function isProcessGroupAlive(groupId: number): boolean {
  try {
    process.kill(-groupId, 0);
  } catch (error) {
    if (errorCode(error) === 'ESRCH') return false;
    if (errorCode(error) !== 'EPERM') throw error;
  }
  return process.platform === 'linux' ? hasRunningMemberInProc(groupId) : true;
}

/**
 * Whether the process `pid`, a job's leader, has exited: gone, or a zombie its parent has not
 * reaped yet. On Linux from /proc (a zombie shows state Z; a pid reused by a process outside the
 * job's group is not the leader); elsewhere only a process that is gone counts.
 */
export function hasProcessExited(pid: number): boolean {
  if (process.platform !== 'linux') {
    try {
      process.kill(pid, 0);
      return false;
    } catch (error) {
      return errorCode(error) === 'ESRCH';
    }
  }
  const stat = readProcStat(pid);
  return stat === null || isGone(stat.state) || stat.group !== pid;
}

function hasRunningMemberInProc(groupId: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProcStat(Number(entry)); // null: exited while scanning
    if (stat !== null && stat.group === groupId && !isGone(stat.state)) return true;
  }
  return false;
}

/** A process's state letter and group from /proc/<pid>/stat, or null when it cannot be read (gone). */
function readProcStat(pid: number): { state: string; group: number } | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // "pid (comm) state ppid pgrp …": comm may contain spaces and parentheses, so cut at the last ')'.
  const [state = '', , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state, group: Number(group) };
}

/** A zombie (exited, not reaped yet) or dead process: state Z or X. */
const isGone = (state: string): boolean => state === 'Z' || state === 'X';

/**
 * The groups of the processes whose environment holds `NAME=value` exactly (Linux: /proc; an
 * empty set elsewhere): a runner's jobs carry its marker (job-reaper.ts), so a job it never heard
 * of is still found. Processes of other users cannot be read and are skipped.
 */
export function findMarkedProcessGroups(marker: string): Set<number> {
  const found = new Set<number>();
  if (process.platform !== 'linux') return found;
  const needle = Buffer.from(`\0${marker}\0`);
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${entry}/environ`)]);
      if (environ.indexOf(needle) < 0) continue;
      const group = readProcStat(Number(entry))?.group;
      if (group !== undefined && Number.isInteger(group) && group > 1) found.add(group);
    } catch {
      // exited meanwhile, or not ours to read
    }
  }
  return found;
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

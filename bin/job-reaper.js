#!/usr/bin/env node
// The runner's dead-man's switch for its jobs. Jobs run in their own process groups (so a timeout
// can kill grandchildren too), which also means they would outlive a runner killed with SIGKILL
// and overlap with the retry another replica starts once the lease expires. The runner keeps this
// process's stdin open and reports each job's group (`+pgid` / `-pgid`); when stdin closes (the
// runner is gone, however it died) every group still listed gets SIGTERM, then SIGKILL.
//
// A group is reported after spawn() has returned (at the end of that turn of the runner's event
// loop, with the other groups of the turn), and spawn() takes a while (fork of a large process,
// then waiting for the exec): a runner killed before that leaves a job this process was never
// told about (the chaos suite found such orphans, alive minutes later). So every job also carries
// the runner's marker in its environment (argv[3], `NAME=token`), and on Linux the groups of the
// processes that carry it are found in /proc and stopped as well: once at the SIGTERM, and again
// at the SIGKILL, for a job that was still between fork and exec at the first.
// Plain JavaScript with no dependencies: it must start without the build.
import { readdirSync, readFileSync } from 'node:fs';

const KILL_GRACE_MS = Number(process.argv[2] ?? 3000);
const MARKER = process.argv[3] ?? '';
const groups = new Set();
let pending = '';

// Terminal signals are for the runner; this process ends when the runner's pipe closes.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});

/** Groups of the processes whose environment carries the marker (Linux; none elsewhere). */
function markedGroups() {
  const found = new Set();
  if (process.platform !== 'linux' || !/^[A-Z_]+=[\w-]+$/.test(MARKER)) return found;
  const needle = Buffer.from(`\0${MARKER}\0`);
  let entries;
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
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid pgrp …": comm may contain spaces and parentheses.
      const group = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      if (Number.isInteger(group) && group > 1) found.add(group);
    } catch {
      // exited meanwhile, or not ours to read
    }
  }
  return found;
}

function signalAll(signal) {
  for (const group of new Set([...groups, ...markedGroups()])) {
    try {
      process.kill(-group, signal);
    } catch {
      groups.delete(group);
    }
  }
}

process.stdin.setEncoding('utf8');
process.stdin.on('error', () => {});
process.stdin.on('data', (chunk) => {
  pending += chunk;
  for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
    const line = pending.slice(0, end);
    pending = pending.slice(end + 1);
    const group = Number(line.slice(1));
    if (!Number.isInteger(group) || group <= 1) continue;
    if (line[0] === '+') groups.add(group);
    else if (line[0] === '-') groups.delete(group);
  }
});
process.stdin.on('close', () => {
  signalAll('SIGTERM');
  setTimeout(() => {
    signalAll('SIGKILL');
    process.exit(0);
  }, KILL_GRACE_MS);
});

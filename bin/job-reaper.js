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
//
// It also spawns the runner's command jobs (`s{json}` lines: argv, cwd, env, and how many of the
// last output bytes to keep): Node forks the whole process to spawn, and a fork of this small
// process costs less than one of the runner. It reports on stdout, one JSON object a line, each
// job's pid (or the spawn's error code), the leader's exit, and once both output streams have
// ended (or the runner asked, `c<id>`) the bytes of each it did not keep and the last ones it did.
// Every group it spawns is listed at once: a runner that dies before it heard of the job still
// leaves nothing behind.
// Plain JavaScript with no dependencies: it must start without the build.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const KILL_GRACE_MS = Number(process.argv[2] ?? 3000);
const MARKER = process.argv[3] ?? '';
const groups = new Set();
let pending = '';
let closed = false;
/** Output streams of running jobs, by the runner's id, for `c<id>`. */
const outputs = new Map();
let reports = '';

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

/** Replies go out together once per turn of the event loop, like the runner's lines. */
function report(message) {
  if (reports === '') setImmediate(() => {
    const text = reports;
    reports = '';
    process.stdout.write(text);
  });
  reports += `${JSON.stringify(message)}\n`;
}

/** The last `keep` bytes of a stream, and how many came before them. */
function keepLast(keep) {
  const chunks = [];
  let kept = 0;
  let total = 0;
  return {
    write(chunk) {
      total += chunk.length;
      if (keep === 0) return;
      chunks.push(chunk);
      kept += chunk.length;
      while (kept - chunks[0].length >= keep) kept -= chunks.shift().length;
    },
    result() {
      const all = Buffer.concat(chunks);
      const last = all.subarray(Math.max(0, all.length - keep));
      return [total - last.length, last.toString('base64')];
    },
  };
}

function launch({ id, argv, cwd, env, keep }) {
  let child;
  try {
    child = spawn(argv[0], argv.slice(1), { cwd, env, shell: false, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    report({ id, error: error.code ?? 'unknown error' });
    return;
  }
  if (child.pid === undefined) {
    child.once('error', (error) => {
      child.stdout.destroy();
      child.stderr.destroy();
      report({ id, error: error.code ?? 'unknown error' });
    });
    return;
  }
  // Listed before anything else can happen: stdin may close at the next read.
  groups.add(child.pid);
  report({ id, pid: child.pid });
  const tails = [keepLast(keep[0]), keepLast(keep[1])];
  const streams = [child.stdout, child.stderr];
  outputs.set(id, streams);
  let open = 2;
  streams.forEach((stream, index) => {
    stream.on('error', () => {});
    stream.on('data', (chunk) => tails[index].write(chunk));
    stream.once('close', () => {
      open -= 1;
      if (open > 0) return;
      outputs.delete(id);
      report({ id, out: tails[0].result(), err: tails[1].result() });
    });
  });
  child.on('error', () => {});
  child.once('exit', (code, signal) => report({ id, code, signal }));
}

function onLine(line) {
  if (line[0] === 's') {
    if (!closed) launch(JSON.parse(line.slice(1)));
    return;
  }
  if (line[0] === 'c') {
    for (const stream of outputs.get(Number(line.slice(1))) ?? []) stream.destroy();
    return;
  }
  const group = Number(line.slice(1));
  if (!Number.isInteger(group) || group <= 1) return;
  if (line[0] === '+') groups.add(group);
  else if (line[0] === '-') groups.delete(group);
}

process.stdout.on('error', () => {});
// Until this line the runner spawns its jobs itself: Node's start-up takes a while.
report({ id: 0, ready: true });
process.stdin.setEncoding('utf8');
process.stdin.on('error', () => {});
process.stdin.on('data', (chunk) => {
  pending += chunk;
  for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
    const line = pending.slice(0, end);
    pending = pending.slice(end + 1);
    onLine(line);
  }
});
process.stdin.on('close', () => {
  closed = true;
  signalAll('SIGTERM');
  setTimeout(() => {
    signalAll('SIGKILL');
    process.exit(0);
  }, KILL_GRACE_MS);
});

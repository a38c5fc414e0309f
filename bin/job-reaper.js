#!/usr/bin/env node
// The runner's dead-man's switch for its jobs. Jobs run in their own process groups (so a timeout
// can kill grandchildren too), which also means they would outlive a runner killed with SIGKILL
// and overlap with the retry another replica starts once the lease expires. The runner keeps this
// process's stdin open and reports each job's group (`+pgid` / `-pgid`); when stdin closes (the
// runner is gone, however it died) every group still listed gets SIGTERM, then SIGKILL.
// Plain JavaScript with no dependencies: it must start without the build.
const KILL_GRACE_MS = Number(process.argv[2] ?? 3000);
const groups = new Set();
let pending = '';

// Terminal signals are for the runner; this process ends when the runner's pipe closes.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});

function signalAll(signal) {
  for (const group of groups) {
    try {
      process.kill(-group, signal);
    } catch {
      groups.delete(group);
    }
  }
}

process.stdin.setEncoding('utf8');
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
  if (groups.size === 0) process.exit(0);
  signalAll('SIGTERM');
  setTimeout(() => {
    signalAll('SIGKILL');
    process.exit(0);
  }, KILL_GRACE_MS);
});

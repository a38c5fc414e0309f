/**
 * Finding a runner's jobs by the marker in their environment (process-group.ts), on real
 * processes: what a runner stops when its job reaper died before reporting a job it spawned.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { findMarkedProcessGroups } from '../../../src/runner/executors/process-group.js';

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

/** A process in a group of its own that waits until it has run (so /proc shows its environment). */
async function startWaiting(env: Record<string, string>): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'process.stdout.write("up"); setInterval(() => {}, 1000)'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'], env: { PATH: process.env.PATH ?? '', ...env } });
  started.push(child);
  await new Promise((resolve) => child.stdout!.once('data', resolve));
  return child.pid!;
}

describe.runIf(process.platform === 'linux')('findMarkedProcessGroups', () => {
  it('finds the groups of the processes whose environment holds the marker exactly', async () => {
    const marked = await startWaiting({ CRONFORM_RUNNER_TOKEN: 'token-a', OTHER: 'x' });
    const longer = await startWaiting({ CRONFORM_RUNNER_TOKEN: 'token-ab' });
    const unmarked = await startWaiting({ OTHER: 'CRONFORM_RUNNER_TOKEN=token-a ' });
    const found = findMarkedProcessGroups('CRONFORM_RUNNER_TOKEN=token-a');
    expect(found.has(marked)).toBe(true);
    expect(found.has(longer)).toBe(false);
    expect(found.has(unmarked)).toBe(false);
  });
});

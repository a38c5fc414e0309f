/**
 * The job reaper's process starts with the first command job, not with the runner, and a lost
 * reaper is started again by its restart timer only (never twice). The safety of the late start
 * (a runner SIGKILLed right after it) is in sigkill-recovery.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JobReaper, RUNNER_MARKER_ENV } from '../../src/runner/job-reaper.js';

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(process.platform === 'win32')('JobReaper', () => {
  const reapers: JobReaper[] = [];
  afterEach(() => {
    for (const reaper of reapers.splice(0)) reaper.stop();
  });

  it('starts no process until a job is marked, then one, and marks every job alike', () => {
    const reaper = new JobReaper();
    reapers.push(reaper);
    reaper.start(500);
    expect(reaper.pid).toBeUndefined();
    const marker = reaper.markJob();
    expect(Object.keys(marker)).toEqual([RUNNER_MARKER_ENV]);
    const pid = reaper.pid!;
    expect(isAlive(pid)).toBe(true);
    expect(reaper.markJob()).toEqual(marker);
    expect(reaper.pid).toBe(pid);
  });

  it('is started again after it is lost, by its timer only, and never after stop', async () => {
    const problems: string[] = [];
    const reaper = new JobReaper();
    reapers.push(reaper);
    reaper.start(500, (problem) => problems.push(problem));
    reaper.markJob();
    const first = reaper.pid!;
    process.kill(first, 'SIGKILL');
    await vi.waitFor(() => expect(problems).toHaveLength(1), { timeout: 10_000, interval: 20 });
    expect(problems[0]).toMatch(/^job reaper exited \(SIGKILL\)/);
    // A job marked while the restart waits does not start a second reaper beside the timer's.
    reaper.markJob();
    expect(reaper.pid).toBeUndefined();
    await vi.waitFor(() => expect(reaper.pid).toBeDefined(), { timeout: 10_000, interval: 20 });
    const second = reaper.pid!;
    expect(second).not.toBe(first);
    reaper.stop();
    expect(reaper.markJob()[RUNNER_MARKER_ENV]).toBeTruthy();
    expect(reaper.pid).toBeUndefined();
  });
});

/** The process's directory of job files, and the sweep of those left by processes that died (SIGKILL). */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jobFilesDirectory, removeStaleJobFiles, sweepStaleJobFiles } from '../../../src/runner/executors/job-files.js';

/** A pid no process has now: the highest ones free below the system's limit. */
function deadPid(): number {
  const max = existsSync('/proc/sys/kernel/pid_max') ? Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8')) : 99_999;
  for (let pid = max - 1; pid > 1; pid -= 1) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return pid;
    }
  }
  throw new Error('no free pid');
}

describe('job files directory', () => {
  it('is one private directory per process, kept while the process runs', async () => {
    const directory = await jobFilesDirectory();
    expect(await jobFilesDirectory()).toBe(directory);
    expect(statSync(directory).mode & 0o777).toBe(0o700);
    expect(basename(directory)).toMatch(new RegExp(`^cronform-jobs-[0-9a-f]{8}-${process.pid}-`));
    await sweepStaleJobFiles();
    expect(existsSync(directory)).toBe(true);
  });

  it("removes the directories of this machine's dead processes and its own pid's earlier ones, and only those", async () => {
    const ours = await jobFilesDirectory();
    const host = basename(ours).split('-')[2]!;
    const made = {
      dead: join(tmpdir(), `cronform-jobs-${host}-${deadPid()}-test01`),
      samePidEarlier: join(tmpdir(), `cronform-jobs-${host}-${process.pid}-test02`),
      alive: join(tmpdir(), `cronform-jobs-${host}-${process.ppid}-test03`),
      otherMachine: join(tmpdir(), `cronform-jobs-00000000-${deadPid()}-test04`),
    };
    for (const directory of Object.values(made)) {
      mkdirSync(directory);
      writeFileSync(join(directory, 'progress-1.jsonl'), '{"total":1}\n');
    }
    try {
      expect(await removeStaleJobFiles(ours)).toBeGreaterThanOrEqual(2);
      const left = Object.fromEntries(Object.entries(made).map(([name, directory]) => [name, existsSync(directory)]));
      expect(left).toEqual({ dead: false, samePidEarlier: false, alive: true, otherMachine: true });
      expect(existsSync(ours)).toBe(true);
    } finally {
      for (const directory of Object.values(made)) rmSync(directory, { recursive: true, force: true });
    }
  });
});

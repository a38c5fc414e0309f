/**
 * Runs a command as a child process and reports its wall time, CPU time and peak resident set size.
 * spawnSync gives neither the child's rusage nor its RSS, so they come from GNU time (`%M %U %S`)
 * when /usr/bin/time is there, otherwise from a preloaded hook that writes the child's own
 * `process.resourceUsage()` when it exits (node children only).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const GNU_TIME = '/usr/bin/time';

let method;

/** 'gnu-time' or 'node-preload', whichever this machine supports (checked once). */
export function rssMethod() {
  if (method === undefined) {
    const probe = existsSync(GNU_TIME) ? spawnSync(GNU_TIME, ['-f', '%M %U %S', 'true'], { encoding: 'utf8' }) : undefined;
    method = probe?.status === 0 && /^\d+ [\d.]+ [\d.]+\s*$/.test(probe.stderr) ? 'gnu-time' : 'node-preload';
  }
  return method;
}

/**
 * @param {string[]} argv command and arguments, e.g. ['node', 'bin/run.js', 'validate', dir]
 * @returns {{ wallMs: number, cpuMs: number | undefined, maxRssKb: number | undefined, status: number | null, stdout: string, stderr: string }}
 */
export function measureCommand(argv, { cwd = process.cwd(), env = process.env } = {}) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'cronform-measure-'));
  const usageFile = path.join(scratch, 'usage');
  try {
    let command = argv;
    let childEnv = env;
    if (rssMethod() === 'gnu-time') {
      command = [GNU_TIME, '-f', '%M %U %S', '-o', usageFile, ...argv];
    } else {
      const hook = path.join(scratch, 'report-rss.cjs');
      const report = '{ const u = process.resourceUsage(); return `${u.maxRSS} ${u.userCPUTime / 1e6} ${u.systemCPUTime / 1e6}`; }';
      writeFileSync(hook, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(usageFile)}, (() => ${report})()));\n`);
      childEnv = { ...env, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --require ${JSON.stringify(hook)}`.trim() };
    }
    const started = process.hrtime.bigint();
    const result = spawnSync(command[0], command.slice(1), { cwd, env: childEnv, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
    if (result.error) throw result.error;
    // GNU time puts "Command exited with non-zero status N" on a line before the figures.
    const usage = existsSync(usageFile) ? (readFileSync(usageFile, 'utf8').trim().split('\n').pop() ?? '') : '';
    const [rssKb, userSeconds, systemSeconds] = usage.split(' ').map(Number);
    return {
      wallMs,
      cpuMs: Number.isFinite(userSeconds) && Number.isFinite(systemSeconds) ? (userSeconds + systemSeconds) * 1000 : undefined,
      maxRssKb: Number.isFinite(rssKb) ? rssKb : undefined,
      status: result.status,
      stdout: result.stdout,
      stderr: result.stderr,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

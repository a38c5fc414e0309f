import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import Validate from '../../src/commands/validate.js';
import { repoRoot, runCommand } from '../support/run-command.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'cronform-validate-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function write(name: string, text: string | Buffer): string {
  const file = path.join(scratch, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

const schedule = (spec: string) => `apiVersion: cronform/v1
kind: Schedule
metadata:
  name: job
spec:
${spec}
  job: { type: command, command: ["true"] }
`;

async function validate(...paths: string[]) {
  return runCommand(Validate, paths);
}

// Issue #2: each must give a located diagnostic and exit 1, never a stack trace.
const hostile: Array<{ name: string; make: () => string; code: string; location: RegExp }> = [
  { name: 'broken YAML', make: () => write('broken.yaml', 'apiVersion: cronform/v1\nkind: [Schedule\n'), code: 'CF003', location: /broken\.yaml:\d+:\d+/ },
  { name: 'a file that is not a mapping', make: () => write('list.yaml', '- a\n- b\n'), code: 'CF007', location: /list\.yaml:1:1/ },
  { name: 'wrong apiVersion', make: () => write('api.yaml', schedule('  cron: "0 0 * * *"\n  timezone: UTC').replace('cronform/v1', 'cronform/v9')), code: 'CF010', location: /api\.yaml:1:13/ },
  { name: 'wrong kind', make: () => write('kind.yaml', schedule('  cron: "0 0 * * *"\n  timezone: UTC').replace('kind: Schedule', 'kind: Job')), code: 'CF010', location: /kind\.yaml:2:7/ },
  { name: 'a 5 MB file', make: () => write('huge.yaml', `# ${'x'.repeat(5 * 1024 * 1024)}\n`), code: 'CF002', location: /huge\.yaml/ },
  { name: 'a YAML alias bomb', make: () => write('bomb.yaml', ['a: &a ["x","x","x","x","x","x","x","x","x"]', ...'bcdefghi'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`)].join('\n')), code: 'CF006', location: /bomb\.yaml:\d+:\d+/ },
  { name: '__proto__ keys', make: () => write('proto.yaml', schedule('  cron: "0 0 * * *"\n  timezone: UTC\n  payload:\n    __proto__: { admin: true }')), code: 'CF008', location: /proto\.yaml:9:5/ },
  { name: 'tabs', make: () => write('tabs.yaml', 'apiVersion: cronform/v1\nkind: Schedule\nmetadata:\n\tname: job\n'), code: 'CF003', location: /tabs\.yaml:4:1/ },
  { name: 'duplicate keys', make: () => write('dup.yaml', schedule('  cron: "0 0 * * *"\n  timezone: UTC\n  timezone: UTC')), code: 'CF004', location: /dup\.yaml:8:3/ },
  { name: 'an unknown field (did-you-mean)', make: () => write('unknown.yaml', schedule('  cron: "0 0 * * *"\n  timezone: UTC\n  overlpa: SKIP_NEW')), code: 'CF011', location: /unknown\.yaml:8:3/ },
  { name: 'a non-IANA zone', make: () => write('zone.yaml', schedule('  cron: "0 0 * * *"\n  timezone: KST')), code: 'CF012', location: /zone\.yaml:7:13/ },
  { name: '0 0 30 2 *', make: () => write('feb30.yaml', schedule('  cron: "0 0 30 2 *"\n  timezone: UTC')), code: 'CF021', location: /feb30\.yaml:6:9/ },
  { name: '6 fields in the wrong order', make: () => write('order.yaml', schedule('  cron: "0 0 * * * 30"\n  timezone: UTC')), code: 'CF020', location: /order\.yaml:6:20/ },
  { name: 'an empty directory', make: () => path.dirname(write('empty/.keep', '')), code: 'CF009', location: /empty/ },
  { name: 'a non-existent path', make: () => path.join(scratch, 'does-not-exist'), code: 'CF001', location: /does-not-exist/ },
];

describe('cronform validate', () => {
  it.each(hostile)('$name → $code, located, exit 1, no stack trace', async ({ make, code, location }) => {
    const { stdout, stderr, exitCode } = await validate(make());
    expect(exitCode).toBe(1);
    const line = stdout.split('\n').find((l) => l.includes(` error ${code} `));
    expect(line, stdout).toBeDefined();
    expect(line).toMatch(location);
    expect(`${stdout}${stderr}`).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
    expect(stdout).toMatch(/✖ \d+ problems? \(\d+ errors?, \d+ warnings?\) in \d+ files?/);
  });

  it('accepts the example schedules with exit 0 and a summary', async () => {
    const { stdout, exitCode } = await validate(path.join(repoRoot, 'schedules'));
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/✔ no problems in 8 files · 7 schedules compiled · [\d.,]+ runs\/day on average \(busiest days add up to [\d,]+\)/);
  });

  it('counts one compiled schedule in the singular', async () => {
    const { stdout, exitCode } = await validate(write('one/job.yaml', schedule('  cron: "0 0 * * *"\n  timezone: UTC')));
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/✔ no problems in 1 file · 1 schedule compiled · /);
  });

  it('prints diagnostics as data with --json', async () => {
    const file = write('json/zone.yaml', schedule('  cron: "0 0 * * *"\n  timezone: KST'));
    const { stdout, exitCode } = await validate('--json', file);
    expect(exitCode).toBe(1);
    const report = JSON.parse(stdout) as { valid: boolean; summary: unknown; diagnostics: Array<Record<string, unknown>> };
    expect(report.valid).toBe(false);
    expect(report.summary).toEqual({ files: 1, schedules: 0, errors: 1, warnings: 0 });
    expect(report.diagnostics[0]).toMatchObject({ severity: 'error', code: 'CF012', line: 7, column: 13, path: 'spec.timezone' });
  });

  it('collects every problem of every file in one pass', async () => {
    const a = write('many/a.yaml', schedule('  cron: "0 0 30 2 *"\n  timezone: KST'));
    write('many/b.yaml', schedule('  cron: "61 * * * *"\n  timezone: UTC').replace('name: job', 'name: other'));
    const { stdout } = await validate(path.dirname(a));
    expect(stdout).toMatch(/CF012/);
    expect(stdout).toMatch(/CF020/);
    expect(stdout).toMatch(/✖ 2 problems \(2 errors, 0 warnings\) in 2 files/);
  });
});

describe('cronform validate runs per day', () => {
  it('reports exact runs per day for every schedule in --json, per-second crons included', async () => {
    const dir = path.dirname(write('rpd/policy.yaml', 'apiVersion: cronform/v1\nkind: Policy\nmetadata: { name: default }\nspec: { minInterval: 1s, maxRunsPerDay: 100000 }\n'));
    write('rpd/a.yaml', schedule('  cron: "* * * * * *"\n  timezone: UTC').replace('name: job', 'name: every-second'));
    write('rpd/b.yaml', schedule('  cron: "0 8 * * 1"\n  timezone: UTC').replace('name: job', 'name: weekly'));
    const { stdout, exitCode } = await validate('--json', dir);
    expect(exitCode).toBe(0);
    const report = JSON.parse(stdout) as { runsPerDay: { peakTotal: number; schedules: Array<{ name: string; peak: number; average: number }> } };
    expect(report.runsPerDay.schedules).toEqual([
      { name: 'every-second', peak: 86_400, average: 86_400 },
      { name: 'weekly', peak: 1, average: 0.14 },
    ]);
    expect(report.runsPerDay.peakTotal).toBe(86_401);
  });
});

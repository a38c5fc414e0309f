import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import Validate from '../../../src/commands/validate.js';
import { escapeData, escapeProperty, formatWorkflowCommand, renderGithubReport, renderSarif } from '../../../src/commands/validate-formats.js';
import type { Diagnostic } from '../../../src/shared/diagnostics.js';
import { repoRoot, runCommand } from '../../support/run-command.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'cronform-validate-formats-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const savedSummary = process.env.GITHUB_STEP_SUMMARY;
afterEach(() => {
  if (savedSummary === undefined) delete process.env.GITHUB_STEP_SUMMARY;
  else process.env.GITHUB_STEP_SUMMARY = savedSummary;
});

const zoneError: Diagnostic = {
  severity: 'error', code: 'CF012', message: 'timezone must be an IANA zone (got "KST")', file: 'schedules/a, b.yaml', line: 7, column: 13, path: 'spec.timezone', hint: 'use Asia/Seoul',
};

function manyDiagnostics(errors: number, warnings: number): Diagnostic[] {
  const make = (severity: Diagnostic['severity'], i: number): Diagnostic => ({ severity, code: severity === 'error' ? 'CF020' : 'CF026', message: `problem ${i}`, file: `schedules/${i}.yaml`, line: i + 1, column: 1 });
  return [...Array.from({ length: errors }, (_, i) => make('error', i)), ...Array.from({ length: warnings }, (_, i) => make('warning', errors + i))];
}

describe('--format github (pure)', () => {
  it('writes a located workflow command with escaped properties and a multi-line message', () => {
    expect(formatWorkflowCommand(zoneError)).toBe('::error file=schedules/a%2C b.yaml,line=7,col=13,title=cronform CF012::timezone must be an IANA zone (got "KST")%0Ahint: use Asia/Seoul');
    expect(escapeData('100% done\r\nnext')).toBe('100%25 done%0D%0Anext');
    expect(escapeProperty('a:b,c')).toBe('a%3Ab%2Cc');
    // A message cannot smuggle a second workflow command onto its own line.
    expect(formatWorkflowCommand({ ...zoneError, hint: undefined, message: 'x\n::set-output name=a::b' })).not.toContain('\n');
  });

  it('annotates the first 10 errors and 10 warnings, and lists everything in the summary', () => {
    const report = renderGithubReport(manyDiagnostics(14, 12), '✖ 26 problems');
    expect(report.commands.filter((c) => c.startsWith('::error '))).toHaveLength(10);
    expect(report.commands.filter((c) => c.startsWith('::warning '))).toHaveLength(10);
    expect(report.commands.at(-1)).toBe('::notice title=cronform validate::6 more problems are not annotated (GitHub shows 10 per level); the job summary lists all 26');
    expect(report.notAnnotated.map((d) => d.message)).toEqual(['problem 10', 'problem 11', 'problem 12', 'problem 13', 'problem 24', 'problem 25']);
    expect(report.summary.split('\n').filter((line) => line.startsWith('| schedules/'))).toHaveLength(26);
  });
});

describe('--format sarif (pure)', () => {
  it('is a SARIF 2.1.0 log with rules and located results', () => {
    const log = JSON.parse(renderSarif([zoneError, { severity: 'warning', code: 'CF026', message: 'dst ignored' }], { version: '1.2.3' })) as {
      version: string;
      runs: Array<{ tool: { driver: { name: string; version: string; rules: Array<{ id: string; name?: string }> } }; results: Array<Record<string, unknown>> }>;
    };
    expect(log.version).toBe('2.1.0');
    const run = log.runs[0]!;
    expect(run.tool.driver).toMatchObject({ name: 'cronform', version: '1.2.3' });
    expect(run.tool.driver.rules.map((r) => [r.id, r.name])).toEqual([['CF012', 'InvalidTimezone'], ['CF026', 'DstIgnoredForInterval']]);
    expect(run.results[0]).toEqual({
      ruleId: 'CF012',
      ruleIndex: 0,
      level: 'error',
      message: { text: 'timezone must be an IANA zone (got "KST")\nhint: use Asia/Seoul' },
      locations: [{ physicalLocation: { artifactLocation: { uri: 'schedules/a%2C%20b.yaml', uriBaseId: '%SRCROOT%' }, region: { startLine: 7, startColumn: 13 } } }],
    });
    expect(run.results[1]).toMatchObject({ ruleId: 'CF026', level: 'warning', locations: [] });
  });
});

describe('cronform validate --format', () => {
  const dir = path.join(scratch, 'schedules');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'zone.yaml'), 'apiVersion: cronform/v1\nkind: Schedule\nmetadata:\n  name: job\nspec:\n  cron: "0 0 * * *"\n  timezone: KST\n  job: { type: command, command: ["true"] }\n');

  async function validate(...argv: string[]) {
    return runCommand(Validate, argv);
  }

  it('github: annotations on stdout, the full list in the job summary, exit 1', async () => {
    const summaryFile = path.join(scratch, 'summary.md');
    writeFileSync(summaryFile, '');
    process.env.GITHUB_STEP_SUMMARY = summaryFile;
    const { stdout, exitCode } = await validate('--format', 'github', dir);
    expect(exitCode).toBe(1);
    expect(stdout).toMatch(/^::error file=.*zone\.yaml,line=7,col=13,title=cronform CF012::timezone must be an IANA zone \(got "KST"\)%0Ahint: /m);
    const summary = readFileSync(summaryFile, 'utf8');
    expect(summary).toContain('## cronform validate');
    expect(summary).toMatch(/\| .*zone\.yaml:7:13 \| error \| CF012 \|/);
  });

  it('sarif: a log on stdout', async () => {
    const { stdout, exitCode } = await validate('--format', 'sarif', dir);
    expect(exitCode).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ version: '2.1.0', runs: [{ results: [{ ruleId: 'CF012' }] }] });
  });

  it('keeps --json as an alias of --format json', async () => {
    const alias = await validate('--json', dir);
    const format = await validate('--format', 'json', dir);
    expect(alias.stdout).toBe(format.stdout);
    expect(JSON.parse(alias.stdout)).toMatchObject({ valid: false, summary: { errors: 1 } });
  });

  it('github: clean manifests print only the summary line', async () => {
    delete process.env.GITHUB_STEP_SUMMARY;
    const { stdout, exitCode } = await validate('--format', 'github', path.join(repoRoot, 'schedules'));
    expect(exitCode).toBe(0);
    expect(stdout.trim()).toMatch(/^✔ no problems in \d+ files$/);
  });
});

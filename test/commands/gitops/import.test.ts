import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import Import from '../../../src/commands/import.js';
import Validate from '../../../src/commands/validate.js';
import { repoRoot, runCommand } from '../../support/run-command.js';

const fixtures = path.join(repoRoot, 'test', 'fixtures', 'crontab');
const scratch = mkdtempSync(path.join(tmpdir(), 'cronform-import-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function run(command: { run(argv: string[], root: string): Promise<unknown> }, ...argv: string[]) {
  return runCommand(command, argv);
}

function freshDir(name: string): string {
  const dir = path.join(scratch, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

describe('cronform import --from crontab', () => {
  it('writes one manifest per job that `cronform validate` accepts', async () => {
    const out = freshDir('basic');
    const result = await run(Import, '--from', 'crontab', path.join(fixtures, 'basic.crontab'), '--out-dir', out, '--dir', out);
    expect(result.exitCode).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['artisan-schedule-run.yaml', 'backup.yaml', 'cleanup.yaml', 'curl.yaml', 'date.yaml', 'find.yaml', 'monthly-2.yaml', 'monthly.yaml']);
    expect(result.stdout).toContain('warning CT010 MAILTO ignored');
    expect(result.stdout).toContain('8 schedules converted, written:');
    expect(readFileSync(path.join(out, 'backup.yaml'), 'utf8')).toContain('timezone: Europe/Berlin');

    const validated = await run(Validate, out);
    expect(validated.exitCode).toBe(0);
    expect(validated.stdout).toContain('✔ no problems in 8 files · 8 schedules compiled');
  });

  it('writes nothing when a line fails, unless --allow-partial', async () => {
    const out = freshDir('reboot');
    const strict = await run(Import, '--from', 'crontab', path.join(fixtures, 'reboot.crontab'), '--out-dir', out, '--dir', out);
    expect(strict.exitCode).toBe(1);
    expect(strict.stdout).toMatch(/reboot\.crontab:2:1 error CT001 @reboot is not a schedule/);
    expect(strict.stdout).toContain('1 schedule converted, 1 error, nothing written');
    expect(readdirSync(out)).toEqual([]);

    const partial = await run(Import, '--from', 'crontab', path.join(fixtures, 'reboot.crontab'), '--out-dir', out, '--dir', out, '--allow-partial');
    expect(partial.exitCode).toBe(1);
    expect(readdirSync(out)).toEqual(['rotate-logs.yaml']);
  });

  it('never overwrites a file and avoids names already in the repository', async () => {
    const out = freshDir('existing');
    copyFileSync(path.join(repoRoot, 'schedules', 'daily-report.yaml'), path.join(out, 'backup.yaml'));
    const crontab = path.join(scratch, 'two.crontab');
    writeFileSync(crontab, 'CRON_TZ=UTC\n0 1 * * * /usr/local/bin/daily-report\n0 2 * * * /usr/local/bin/backup\n');
    const result = await run(Import, '--from', 'crontab', crontab, '--out-dir', out, '--dir', out);
    // `daily-report` is taken by the manifest in backup.yaml; `backup.yaml` is taken as a file.
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/two\.crontab:3:1 error CT020 .*backup\.yaml already exists; nothing was overwritten/);
    expect(readdirSync(out)).toEqual(['backup.yaml']);
    expect(readFileSync(path.join(out, 'backup.yaml'), 'utf8')).toContain('name: daily-report');

    const stdout = await run(Import, '--from', 'crontab', crontab, '--dir', out, '--stdout');
    expect(stdout.exitCode).toBe(0);
    expect(stdout.stdout).toContain('name: daily-report-2');
  });

  it('--stdout prints one YAML stream and reports on stderr', async () => {
    const { stdout, stderr, exitCode } = await run(Import, '--from', 'crontab', path.join(fixtures, 'system.crontab'), '--system', '--stdout', '--dir', freshDir('none'));
    expect(exitCode).toBe(0);
    expect(stdout).toContain('name: sync-invoices');
    expect(stdout).not.toContain('CT012');
    expect(stderr).toContain('warning CT012 the job ran as user billing');
    expect(existsSync(path.join(repoRoot, 'schedules', 'sync-invoices.yaml'))).toBe(false);
  });

  it('asks for --timezone instead of guessing the server zone', async () => {
    const { stdout, exitCode } = await run(Import, '--from', 'crontab', path.join(fixtures, 'no-timezone.crontab'), '--stdout', '--dir', freshDir('tz'), '--json');
    expect(exitCode).toBe(1);
    const report = JSON.parse(stdout) as { diagnostics: Array<{ code: string; hint?: string }> };
    expect(report.diagnostics[0]).toMatchObject({ code: 'CT003', hint: expect.stringContaining('--timezone') });
  });

  it('reports a missing crontab', async () => {
    const { stdout, exitCode } = await run(Import, '--from', 'crontab', path.join(scratch, 'nope'), '--dir', freshDir('missing'));
    expect(exitCode).toBe(1);
    expect(stdout).toContain('error CF001 crontab not found');
  });
});

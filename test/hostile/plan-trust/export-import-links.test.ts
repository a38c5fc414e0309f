/**
 * Attack 8, writing: `export` and `import` never follow or overwrite a symbolic link planted where a
 * manifest is to be written (a dangling link would create its target, `--force` would overwrite
 * it), and report an existing path as a clean error: exit 1, the path, no stack trace.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import Import from '../../../src/commands/import.js';
import type { Database } from '../../../src/db/client.js';
import { exportSchedules } from '../../../src/operations/runs/export-schedules.js';
import { RunOperationError } from '../../../src/operations/runs/run-operation-error.js';
import { runCommand } from '../../support/run-command.js';
import { databaseWith, scheduleSource } from '../../operations/runs/run-fixtures.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'cronform-write-links-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let count = 0;
/** A fresh output directory and, outside it, a victim file and a place a dangling link points to. */
function setting() {
  const base = path.join(scratch, `case-${count++}`);
  const out = path.join(base, 'out');
  const victims = path.join(base, 'victims');
  mkdirSync(out, { recursive: true });
  mkdirSync(victims, { recursive: true });
  const victim = path.join(victims, 'authorized_keys');
  writeFileSync(victim, 'ssh-ed25519 AAAA original\n');
  return { base, out, victims, victim, nowhere: path.join(victims, 'created-by-cronform') };
}

describe('export', () => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });
  const exportTo = (outDir: string, force: boolean) => exportSchedules(database!, { outDir, groupBy: 'none', force });

  it('refuses a dangling link where a manifest goes, and creates nothing at its target', async () => {
    database = await databaseWith([scheduleSource('nightly')]);
    const { out, nowhere } = setting();
    symlinkSync(nowhere, path.join(out, 'nightly.yaml'));
    for (const force of [false, true]) {
      const error = await exportTo(out, force).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RunOperationError);
      expect((error as Error).message).toBe(`${path.join(out, 'nightly.yaml')} is a symbolic link; cronform does not write through links: remove it or choose another --out-dir`);
      expect(existsSync(nowhere)).toBe(false);
    }
  });

  it('--force overwrites files, never a link to one', async () => {
    database = await databaseWith([scheduleSource('nightly')]);
    const { out, victim } = setting();
    symlinkSync(victim, path.join(out, 'nightly.yaml'));
    await expect(exportTo(out, true)).rejects.toThrow(/nightly\.yaml is a symbolic link/);
    expect(readFileSync(victim, 'utf8')).toBe('ssh-ed25519 AAAA original\n');

    rmSync(path.join(out, 'nightly.yaml'));
    writeFileSync(path.join(out, 'nightly.yaml'), 'old\n');
    await exportTo(out, true);
    expect(readFileSync(path.join(out, 'nightly.yaml'), 'utf8')).toContain('name: nightly');
  });

  it('refuses an output directory that is a link, or a file', async () => {
    database = await databaseWith([scheduleSource('nightly')]);
    const { base, victims } = setting();
    symlinkSync(victims, path.join(base, 'linked-out'));
    await expect(exportTo(path.join(base, 'linked-out'), false)).rejects.toThrow(`${path.join(base, 'linked-out')} is a symbolic link; cronform does not write through links`);
    expect(readdirSync(victims)).toEqual(['authorized_keys']);
    writeFileSync(path.join(base, 'a-file'), 'x');
    await expect(exportTo(path.join(base, 'a-file'), false)).rejects.toThrow(`${path.join(base, 'a-file')} exists and is not a directory`);
  });
});

describe('import', () => {
  function crontab(base: string): string {
    const file = path.join(base, 'jobs.crontab');
    writeFileSync(file, 'CRON_TZ=UTC\n0 1 * * * /usr/local/bin/backup\n0 2 * * * /usr/local/bin/report\n');
    return file;
  }
  const importInto = (file: string, out: string, ...extra: string[]) => runCommand(Import, ['--from', 'crontab', file, '--out-dir', out, '--dir', out, ...extra]);

  it('an existing file is a CT020 error with its path, exit 1, no stack', async () => {
    const { base, out } = setting();
    writeFileSync(path.join(out, 'backup.yaml'), 'mine\n');
    const result = await importInto(crontab(base), out);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/jobs\.crontab:2:1 error CT020 .*out\/backup\.yaml already exists; nothing was overwritten/);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/\n\s+at /);
    expect(readFileSync(path.join(out, 'backup.yaml'), 'utf8')).toBe('mine\n');
  });

  it('a dangling link is not written through, even with --allow-partial', async () => {
    const { base, out, nowhere } = setting();
    symlinkSync(nowhere, path.join(out, 'backup.yaml'));
    const strict = await importInto(crontab(base), out);
    expect(strict.exitCode).toBe(1);
    expect(strict.stdout).toMatch(/jobs\.crontab:2:1 error CT020 .*out\/backup\.yaml is a symbolic link; nothing was written through it/);
    expect(`${strict.stdout}${strict.stderr}${strict.message}`).not.toContain('EEXIST');
    const partial = await importInto(crontab(base), out, '--allow-partial');
    expect(partial.exitCode).toBe(1);
    expect(existsSync(nowhere)).toBe(false);
    expect(readdirSync(out).sort()).toEqual(['backup.yaml', 'report.yaml']);
  });

  it('a link to an existing file is left as it was', async () => {
    const { base, out, victim } = setting();
    symlinkSync(victim, path.join(out, 'report.yaml'));
    const result = await importInto(crontab(base), out, '--allow-partial');
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('report.yaml is a symbolic link');
    expect(readFileSync(victim, 'utf8')).toBe('ssh-ed25519 AAAA original\n');
  });

  it('an --out-dir that is a file or a link is a clean error', async () => {
    const { base, victims } = setting();
    writeFileSync(path.join(base, 'a-file'), 'x');
    const onFile = await importInto(crontab(base), path.join(base, 'a-file'));
    expect(onFile.exitCode).toBe(1);
    expect(onFile.message).toMatch(/a-file exists and is not a directory$/);
    symlinkSync(victims, path.join(base, 'linked-out'));
    const onLink = await importInto(crontab(base), path.join(base, 'linked-out'));
    expect(onLink.exitCode).toBe(1);
    expect(onLink.message).toMatch(/linked-out is a symbolic link; cronform does not write through links$/);
    expect(readdirSync(victims)).toEqual(['authorized_keys']);
  });
});

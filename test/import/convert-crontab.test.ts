import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileSources } from '../../src/compile/compile-sources.js';
import { convertCrontab, type CrontabImportOptions } from '../../src/import/convert-crontab.js';
import { renderImportedManifest, renderImportedStream } from '../../src/import/render-imported-yaml.js';
import { verifyImportedSchedules } from '../../src/import/verify-imported.js';
import { parseCron } from '../../src/time/cron-parse.js';
import { nextSlots } from '../../src/time/slots.js';

const fixtures = fileURLToPath(new URL('../fixtures/crontab/', import.meta.url));
const NOW_MS = Date.parse('2026-06-01T00:00:00Z');

function convertFixture(name: string, options: Partial<CrontabImportOptions> = {}) {
  return convertCrontab(readFileSync(`${fixtures}${name}`, 'utf8'), { file: name, ...options });
}

function convertText(text: string, options: Partial<CrontabImportOptions> = {}) {
  return convertCrontab(text, { file: 'crontab', ...options });
}

/** The manifests as files, through the real compiler: the import's output must always validate. */
function compileImported(result: ReturnType<typeof convertCrontab>) {
  const sources = result.schedules.map((s) => ({ file: `schedules/${s.manifest.metadata.name}.yaml`, text: renderImportedManifest(s) }));
  return compileSources(sources, NOW_MS);
}

const codes = (result: { diagnostics: Array<{ code: string }> }) => result.diagnostics.map((d) => d.code);

describe('crontab import: the basic fixture', () => {
  const result = convertFixture('basic.crontab');

  it('turns every job line into a manifest that the compiler accepts', () => {
    expect(result.schedules.map((s) => s.line)).toEqual([11, 13, 14, 15, 16, 17, 18, 20]);
    const compiled = compileImported(result);
    expect(compiled.diagnostics).toEqual([]);
    expect(compiled.schedules).toHaveLength(8);
  });

  it('renders reviewable YAML with the reasons as comments', async () => {
    await expect(renderImportedStream(result.schedules)).toMatchFileSnapshot('../fixtures/crontab/basic.expected.yaml');
  });

  it('keeps ranges, steps, lists and month/day names as cron wrote them', () => {
    const crons = Object.fromEntries(result.schedules.map((s) => [s.manifest.metadata.name, s.manifest.spec.cron]));
    expect(crons).toMatchObject({
      backup: '30 2 * * *',
      'artisan-schedule-run': '*/15 8-18 * * mon-fri',
      monthly: '0 6 1,15 * sun',
      cleanup: '@weekly',
      find: '0 0 1 jan,jul *',
    });
    // Friday 18:40 in Berlin: the last slot of the week is 18:45, the next is Monday 08:00.
    const officeHours = parseCron('*/15 8-18 * * mon-fri');
    if (!officeHours.ok) throw new Error('does not parse');
    const slots = nextSlots({ cron: officeHours.cron, timezone: 'Europe/Berlin', dst: { gap: 'shift', fold: 'first' } }, Date.parse('2026-06-05T16:40:00Z'), 2);
    expect(slots.map((ms) => new Date(ms).toISOString())).toEqual(['2026-06-05T16:45:00.000Z', '2026-06-08T06:00:00.000Z']);
  });

  it('takes the zone from CRON_TZ, line by line, never from the machine', () => {
    const zones = result.schedules.map((s) => [s.line, s.manifest.spec.timezone]);
    expect(zones).toEqual([[11, 'Europe/Berlin'], [13, 'Europe/Berlin'], [14, 'Europe/Berlin'], [15, 'Europe/Berlin'], [16, 'Europe/Berlin'], [17, 'Europe/Berlin'], [18, 'Europe/Berlin'], [20, 'America/New_York']]);
  });

  it('applies safe defaults explicitly', () => {
    for (const { manifest } of result.schedules) expect(manifest.spec).toMatchObject({ overlap: 'SKIP_NEW', misfire: 'RUN_ONCE' });
  });

  it('states dayMatch the way cron matched days (either, or both when a field starts with *)', () => {
    const byCron = Object.fromEntries(result.schedules.map((s) => [s.manifest.spec.cron, s.manifest.spec.dayMatch]));
    expect(byCron['0 6 1,15 * sun']).toBe('any');
    expect(byCron['0 6 */2 * mon']).toBe('all');
    expect(byCron['30 2 * * *']).toBeUndefined();
  });

  it('runs argv without a shell unless the line needs one, and then says why', () => {
    const byName = Object.fromEntries(result.schedules.map((s) => [s.manifest.metadata.name, s]));
    expect(byName.backup!.manifest.spec.job).toMatchObject({ command: ['/usr/local/bin/backup.sh', '--full'] });
    expect(byName.find!.manifest.spec.job).toMatchObject({ command: ['/usr/bin/find', '/tmp', '-name', '*.tmp', '-delete'] });
    expect(byName.cleanup!.manifest.spec.job).toMatchObject({ command: ['/bin/bash', '-c', 'cd /srv/app && ./bin/cleanup --older-than 30d > /var/log/cleanup.log 2>&1'] });
    expect(byName.cleanup!.notes.command).toBe('Runs through /bin/bash -c because the crontab line uses an and-list (&&) and a redirection (>); without shell syntax cronform runs argv directly.');
    expect(byName.backup!.notes.command).toBeUndefined();
  });

  it('turns \\% into a literal percent sign', () => {
    const date = result.schedules.find((s) => s.manifest.metadata.name === 'date')!;
    expect(date.manifest.spec.job).toMatchObject({ command: ['/usr/bin/date', '+%Y-%m-%d'] });
  });

  it('derives names from the command and deduplicates them', () => {
    expect(result.schedules.map((s) => s.manifest.metadata.name)).toEqual(['backup', 'artisan-schedule-run', 'monthly', 'monthly-2', 'cleanup', 'find', 'date', 'curl']);
  });

  it('uses the comment above a job as its description, not the crontab header', () => {
    expect(result.schedules[0]!.manifest.metadata.description).toBe('Nightly database backup');
    expect(result.schedules[1]!.manifest.metadata.description).toBe('every 15 minutes during office hours on weekdays');
    expect(result.schedules[2]!.manifest.metadata.description).toBeUndefined();
  });

  it('ignores MAILTO with a note, keeps other variables, and never writes a secret value', () => {
    expect(codes(result)).toEqual(['CT010', 'CT011']);
    // The hint names the alert configuration that exists (the Policy's alerts.targets), not a runner webhook.
    expect(result.diagnostics.find((d) => d.code === 'CT010')!.hint).toBe("runs keep their output tails (`cronform runs`); for failure alerts add a target to the Policy's alerts.targets (webhook or slack; README, Alerts)");
    expect(result.schedules[0]!.manifest.spec.job).toMatchObject({
      env: { PATH: '/usr/local/bin:/usr/bin:/bin', NOTION_TOKEN: { fromEnv: 'NOTION_TOKEN' }, REPORT_MODE: 'full run' },
    });
    const everything = renderImportedStream(result.schedules) + JSON.stringify(result.diagnostics);
    expect(everything).not.toContain('secret_abcdefghij');
    expect(everything).not.toContain('ops@example.com');
    expect(everything).not.toContain('SHELL');
  });
});

describe('crontab import: cronform\'s own variables', () => {
  it('never references the runner\'s DATABASE_URL, CRONFORM_* or PG* variables: those read CRONTAB_<NAME>', () => {
    const result = convertText(
      [
        'CRON_TZ=UTC',
        'DATABASE_URL=postgres://app:app-password@db.internal/app',
        'PGPASSWORD=hunter2-pg',
        'CRONFORM_API_TOKEN=abc123def456',
        'PGHOST=db.internal',
        'NOTION_TOKEN=secret_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN0123',
        '0 3 * * * /usr/local/bin/nightly',
        '',
      ].join('\n'),
    );
    expect(result.schedules[0]!.manifest.spec.job).toMatchObject({
      env: {
        DATABASE_URL: { fromEnv: 'CRONTAB_DATABASE_URL' },
        PGPASSWORD: { fromEnv: 'CRONTAB_PGPASSWORD' },
        CRONFORM_API_TOKEN: { fromEnv: 'CRONTAB_CRONFORM_API_TOKEN' },
        // A literal is the crontab's own value, not the runner's: copied as is.
        PGHOST: 'db.internal',
        NOTION_TOKEN: { fromEnv: 'NOTION_TOKEN' },
      },
    });
    expect(result.diagnostics.map((d) => [d.code, d.line])).toEqual([['CT015', 2], ['CT015', 3], ['CT015', 4], ['CT011', 6]]);
    expect(result.diagnostics[0]).toMatchObject({ severity: 'warning', hint: 'set CRONTAB_DATABASE_URL in the runner\'s environment to the value the job needs' });
    const everything = renderImportedStream(result.schedules) + JSON.stringify(result.diagnostics);
    expect(everything).not.toMatch(/app-password|hunter2|abc123/);
    expect(compileImported(result).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});

describe('crontab import: rejected lines', () => {
  it('rejects @reboot with a clear message and still converts the other lines', () => {
    const result = convertFixture('reboot.crontab');
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', code: 'CT001', line: 2, message: expect.stringContaining('@reboot is not a schedule'), hint: expect.stringContaining('systemd') }),
    ]);
    expect(result.schedules.map((s) => [s.manifest.metadata.name, s.manifest.spec.cron])).toEqual([['rotate-logs', '@daily']]);
  });

  it('rejects % (standard input) and points at it', () => {
    const result = convertFixture('percent.crontab');
    expect(result.schedules).toEqual([]);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ code: 'CT002', line: 2, column: 53, message: expect.stringContaining('standard input'), hint: expect.stringContaining('\\%') }),
    ]);
  });

  it('requires a zone when no CRON_TZ/TZ is above a line, and accepts --timezone', () => {
    const missing = convertFixture('no-timezone.crontab');
    expect(missing.diagnostics).toEqual([expect.objectContaining({ code: 'CT003', line: 1, hint: expect.stringContaining('--timezone') })]);
    expect(missing.schedules.map((s) => [s.line, s.manifest.spec.timezone])).toEqual([[3, 'Asia/Tokyo']]);

    const given = convertFixture('no-timezone.crontab', { timezone: 'Europe/Paris' });
    expect(given.diagnostics).toEqual([]);
    expect(given.schedules.map((s) => [s.line, s.manifest.spec.timezone])).toEqual([[1, 'Europe/Paris'], [3, 'Asia/Tokyo']]);
    // TZ also reaches the job, as cron passed it on; CRON_TZ does not.
    expect(given.schedules[1]!.manifest.spec.job).toMatchObject({ env: { TZ: 'Asia/Tokyo' } });
  });

  it('rejects zones that are not IANA names, with a hint, and skips the jobs that use them', () => {
    const result = convertText('CRON_TZ=KST\n0 1 * * * /bin/true\nCRON_TZ=Asia/Seoul\n0 2 * * * /bin/false\n');
    expect(result.diagnostics).toEqual([expect.objectContaining({ code: 'CT004', line: 1, hint: expect.stringContaining('Asia/Seoul') })]);
    expect(result.schedules.map((s) => s.line)).toEqual([4]);
    expect(codes(convertText('0 1 * * * /bin/true\n', { timezone: 'UTC+9' }))).toEqual(['CT004']);
  });

  it('refuses a command that holds a credential, without printing it', () => {
    const token = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
    const result = convertText(`CRON_TZ=UTC\n0 * * * * /usr/bin/curl -H "Authorization: token ${token}" https://api.example.com\n`);
    expect(codes(result)).toEqual(['CT006']);
    expect(result.schedules).toEqual([]);
    expect(JSON.stringify(result.diagnostics)).not.toContain(token);
  });

  it('rejects unknown macros and lines that are neither jobs nor settings', () => {
    const result = convertText('CRON_TZ=UTC\n@fortnightly /bin/true\n0 1 * * /bin/true\n');
    expect(result.diagnostics.map((d) => [d.code, d.line])).toEqual([['CT007', 2], ['CT005', 3]]);
  });

  it('reports at the crontab line what cron accepted but cronform does not', () => {
    const result = convertText('CRON_TZ=UTC\n0 0 31 2 * /usr/local/bin/never\n0 0 * * * /usr/local/bin/daily\n');
    const verified = verifyImportedSchedules(result.schedules, { file: 'crontab', nowMs: NOW_MS });
    expect(verified.schedules.map((s) => s.manifest.metadata.name)).toEqual(['daily']);
    expect(verified.diagnostics).toEqual([expect.objectContaining({ severity: 'error', code: 'CT008', file: 'crontab', line: 2, message: expect.stringMatching(/^CF021 /) })]);
  });
});

describe('crontab import: formats and names', () => {
  it('reads system crontabs with a user column', () => {
    const result = convertFixture('system.crontab', { systemFormat: true });
    expect(codes(result)).toEqual(['CT012']);
    expect(result.schedules[0]!.manifest).toMatchObject({
      metadata: { name: 'sync-invoices', labels: { 'imported-from': 'crontab', 'crontab-user': 'billing' } },
      spec: { cron: '17 * * * *', timezone: 'Europe/London', job: { command: ['/opt/billing/bin/sync-invoices'] } },
    });
  });

  it('does not reuse names already in the repository', () => {
    const result = convertText('CRON_TZ=UTC\n0 1 * * * /opt/backup.sh\n0 2 * * * /opt/backup.sh\n', { takenNames: ['backup'] });
    expect(result.schedules.map((s) => s.manifest.metadata.name)).toEqual(['backup-2', 'backup-3']);
  });

  it('maps RANDOM_DELAY to jitter and warns about relative programs', () => {
    const result = convertText('CRON_TZ=UTC\nRANDOM_DELAY=15\n0 1 * * * ./run-report.sh\n');
    expect(result.schedules[0]!.manifest.spec.jitter).toBe('15m');
    expect(codes(result)).toEqual(['CT013']);
    expect(compileImported(result).diagnostics).toEqual([]);
  });

  it('keeps names valid however long or odd the command', () => {
    const long = `/opt/${'very-long-script-name-'.repeat(6)}.sh`;
    const result = convertText(`CRON_TZ=UTC\n0 1 * * * ${long}\n0 2 * * * ${long}\n0 3 * * * "/opt/Ünïcode Script!.sh"\n0 4 * * * >/dev/null\n`);
    for (const { manifest } of result.schedules) {
      expect(manifest.metadata.name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
      expect(manifest.metadata.name.length).toBeLessThanOrEqual(63);
    }
    expect(new Set(result.schedules.map((s) => s.manifest.metadata.name)).size).toBe(4);
    expect(compileImported(result).diagnostics).toEqual([]);
  });
});

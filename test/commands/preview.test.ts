import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import Preview from '../../src/commands/preview.js';
import { repoRoot, runCommand } from '../support/run-command.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'cronform-preview-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const berlinNight = path.join(scratch, 'night.yaml');
writeFileSync(
  berlinNight,
  `apiVersion: cronform/v1
kind: Schedule
metadata: { name: night-batch }
spec:
  cron: "30 2 * * *"
  timezone: Europe/Berlin
  dst: { gap: shift, fold: both }
  job: { type: command, command: ["true"] }
`,
);

async function preview(...argv: string[]) {
  return runCommand(Preview, argv);
}

describe('cronform preview', () => {
  it('shows local and UTC slots with DST notes across the spring gap', async () => {
    const { stdout, exitCode } = await preview(berlinNight, '--from', '2026-03-27T12:00:00Z', '--count', '3');
    expect(exitCode).toBe(0);
    expect(stdout).toContain('At 02:30 (Europe/Berlin)');
    expect(stdout).toContain('2026-03-28 Sat 02:30:00 +01:00  2026-03-28T01:30:00.000Z');
    expect(stdout).toContain('2026-03-29 Sun 03:30:00 +02:00  2026-03-29T01:30:00.000Z  DST: shifted from 02:30:00 (skipped hour)');
    expect(stdout).toContain('2026-03-30 Mon 02:30:00 +02:00  2026-03-30T00:30:00.000Z');
    expect(stdout).toMatch(/2026-10-25 \(2026-10-25T01:00:00.000Z\): 02:00:00–03:00:00 happens twice on 2026-10-25: 1 slot\(s\) run twice \(dst.fold: both\)/);
  });

  it('marks both passes of a repeated hour', async () => {
    const { stdout } = await preview(berlinNight, '--from', '2026-10-24T12:00:00Z', '--count', '2', '--json');
    const result = JSON.parse(stdout) as { slots: Array<{ utc: string; note?: string }>; runsPerDay: { peak: number } };
    expect(result.slots).toEqual([
      { utc: '2026-10-25T00:30:00.000Z', local: '2026-10-25 Sun 02:30:00 +02:00', note: 'DST: repeated hour, first pass' },
      { utc: '2026-10-25T01:30:00.000Z', local: '2026-10-25 Sun 02:30:00 +01:00', note: 'DST: repeated hour, second pass' },
    ]);
    expect(result.runsPerDay.peak).toBe(2);
  });

  it('looks schedules up by name in --dir', async () => {
    const { stdout, exitCode } = await preview('daily-report', '--dir', path.join(repoRoot, 'schedules'), '--from', '2026-12-01T00:00:00Z', '--count', '1');
    expect(exitCode).toBe(0);
    expect(stdout).toContain('2026-12-01 Tue 19:30:00 +09:00  2026-12-01T10:30:00.000Z');
  });

  it('fails with exit 1 and the known names for an unknown schedule', async () => {
    const { error, exitCode } = await preview('no-such-job', '--dir', path.join(repoRoot, 'schedules'));
    expect(exitCode).toBe(1);
    expect(error?.message).toMatch(/no valid schedule named "no-such-job".*known schedules: .*daily-report/s);
  });
});

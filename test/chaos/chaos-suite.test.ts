/**
 * The crash suite (bench/chaos) at a CI size: 40 schedules, 3 runner processes, 60 s of SIGKILL
 * and SIGTERM every few seconds, and `apply` under fire, on a fresh database of the test server.
 * Every verdict must pass. The database outage (`--outage`) stops the whole server, so it is not
 * run here: see docs/reliability.md for how it is run and its last result.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { postgresServerUrl } from '../support/databases.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const built = existsSync(path.join(repoRoot, 'dist', 'commands', 'index.js'));

interface Verdict {
  name: string;
  value: string | number;
  expected: string | number;
  pass: boolean;
  detail: string;
}

describe.runIf(postgresServerUrl && built)('crash suite (bench/chaos, CI size)', () => {
  it('loses and duplicates nothing while runners are killed and schedules change under them', async () => {
    const scratch = mkdtempSync(path.join(tmpdir(), 'cronform-chaos-test-'));
    const report = path.join(scratch, 'verdicts.json');
    try {
      // Other suites share the machine: the start-delay bound is looser than the dedicated run's.
      const args = ['bench/chaos/run.js', '--schedules', '40', '--runners', '3', '--duration', '60s', '--calm', '15s', '--settle', '25s', '--max-start-p99', '3000ms', '--json', report];
      await promisify(execFile)(process.execPath, args, { cwd: repoRoot, timeout: 240_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, CRONFORM_TEST_DATABASE_URL: postgresServerUrl } }).catch((error: { code?: number }) => {
        // Exit code 1 = a verdict failed: reported below, verdict by verdict.
        if (error.code !== 1) throw error;
      });
      const { verdicts, seed } = JSON.parse(readFileSync(report, 'utf8')) as { verdicts: Verdict[]; seed: number };
      expect(verdicts.length).toBeGreaterThanOrEqual(15);
      // The seed replays the same schedules and kills: `node bench/chaos/run.js --seed N …` above.
      expect(verdicts.filter((v) => !v.pass).map((v) => `seed ${seed}: ${v.name}: ${v.value} (expected ${v.expected}) ${v.detail}`)).toEqual([]);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 300_000);
});

import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { validateManifests } from '../../src/operations/validate.js';
import { formatDiagnostic } from '../../src/shared/diagnostics.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const nowMs = Date.parse('2026-11-29T12:00:00Z');

type Expected = [code: string, severity: 'error' | 'warning', line: number, column: number];

async function check(fixture: string) {
  return validateManifests([`test/fixtures/invalid/${fixture}`], { cwd: repoRoot, nowMs });
}

// One fixture per semantic rule code, asserting code, line and column of the offending node.
const cases: Array<{ fixture: string; expected: Expected[] }> = [
  { fixture: 'cf012-timezone.yaml', expected: [['CF012', 'error', 7, 13], ['CF012', 'error', 16, 13]] },
  // Column of the bad field inside the cron string: "0 0 * * * 30" → the 6th field; `0 25 …` → "25".
  { fixture: 'cf020-cron-syntax.yaml', expected: [['CF020', 'error', 7, 20], ['CF020', 'error', 16, 11]] },
  { fixture: 'cf021-never-fires.yaml', expected: [['CF021', 'error', 6, 9]] },
  { fixture: 'cf022-ambiguous-token.yaml', expected: [['CF022', 'error', 6, 20]] },
  { fixture: 'cf023-day-match.yaml', expected: [['CF023', 'error', 6, 9]] },
  { fixture: 'cf024-interval.yaml', expected: [['CF024', 'error', 6, 9], ['CF025', 'error', 6, 9]] },
  { fixture: 'cf025-runs-per-day.yaml', expected: [['CF025', 'error', 12, 9]] },
  { fixture: 'cf026-dst-ignored.yaml', expected: [['CF026', 'warning', 8, 3]] },
  { fixture: 'cf030-skip-new-catch-up.yaml', expected: [['CF030', 'error', 9, 12]] },
  { fixture: 'cf031-catch-up-cap.yaml', expected: [['CF031', 'error', 9, 12]] },
  { fixture: 'cf032-unknown-queue.yaml', expected: [['CF032', 'error', 8, 10]] },
  { fixture: 'cf033-expired-acceptance.yaml', expected: [['CF033', 'warning', 8, 14]] },
];

describe('semantic rule fixtures', () => {
  it.each(cases)('$fixture', async ({ fixture, expected }) => {
    const result = await check(fixture);
    expect(result.diagnostics.map((d): Expected => [d.code, d.severity, d.line!, d.column!])).toEqual(expected);
    for (const d of result.diagnostics) expect(d.file).toBe(`test/fixtures/invalid/${fixture}`);
  });

  it('explains the problems in words a user can act on', async () => {
    const timezone = await check('cf012-timezone.yaml');
    expect(timezone.diagnostics.map(formatDiagnostic).join('\n')).toMatchInlineSnapshot(`
      "test/fixtures/invalid/cf012-timezone.yaml:7:13 error CF012 timezone must be an IANA zone (got "KST")
        hint: use an IANA zone name such as Asia/Seoul
      test/fixtures/invalid/cf012-timezone.yaml:16:13 error CF012 timezone must be an IANA zone (got "UTC+9")
        hint: fixed offsets are rejected: name the place, e.g. Asia/Seoul for +09:00, or use Etc/GMT-9 if you really mean a fixed offset (note the inverted sign)"
    `);
    const cron = await check('cf020-cron-syntax.yaml');
    expect(cron.diagnostics.map(formatDiagnostic).join('\n')).toMatchInlineSnapshot(`
      "test/fixtures/invalid/cf020-cron-syntax.yaml:7:20 error CF020 invalid cron "0 0 * * * 30": day-of-week 30 is out of range 0-7
        hint: a 6-field cron puts seconds FIRST: "sec min hour day-of-month month day-of-week"
      test/fixtures/invalid/cf020-cron-syntax.yaml:16:11 error CF020 invalid cron "0 25 * * *": hour 25 is out of range 0-23"
    `);
    const never = await check('cf021-never-fires.yaml');
    expect(never.diagnostics.map(formatDiagnostic).join('\n')).toMatchInlineSnapshot(`
      "test/fixtures/invalid/cf021-never-fires.yaml:6:9 error CF021 cron "0 0 30 2 *" never fires in the next 5 years
        hint: check the day-of-month and month fields (e.g. there is no 30 February)"
    `);
  });

  it('compiles nothing from an invalid schedule and everything from the examples', async () => {
    expect((await check('cf021-never-fires.yaml')).schedules).toEqual([]);
    const examples = await validateManifests(['schedules'], { cwd: repoRoot, nowMs });
    expect(examples.diagnostics).toEqual([]);
    expect(examples.schedules.map((s) => s.definition.name).sort()).toEqual(['api-health-check', 'daily-report', 'hello', 'hourly-aggregation', 'payment-reconciliation', 'storage-cleanup', 'weekly-report']);
    expect(examples.policy.source?.file).toBe('schedules/policy.yaml');
  });
});

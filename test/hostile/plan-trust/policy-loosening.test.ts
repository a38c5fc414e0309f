/**
 * Attack 4 of issue 15: the pull request loosens policy.yaml (minInterval, maxRunsPerDay,
 * runsPerDayIncreaseHigh) in the same change that turns a daily job into `* * * * * *`, so that
 * its own thresholds judge it. Through the real plan command: the loosening is visible as HIGH
 * with before → after, the schedule is judged by the stored Policy, and --fail-on high exits 3.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { policy, PlanTrustWorkspace, schedule } from './plan-trust-workspace.js';

const DAILY = '  cron: "0 3 * * *"\n  timezone: UTC\n  job: { type: command, command: [node, jobs/report.js] }\n';
const EVERY_SECOND = '  cron: "* * * * * *"\n  timezone: UTC\n  timeout: 500ms\n  job: { type: command, command: [node, jobs/report.js] }\n';
const LOOSE = '  minInterval: 1s\n  maxRunsPerDay: 100000\n  risk: { runsPerDayIncreaseHigh: 1000000 }\n';

describe('attack 4: the change loosens the Policy that judges it', () => {
  let workspace: PlanTrustWorkspace;
  beforeEach(async () => {
    workspace = await PlanTrustWorkspace.create();
    workspace.write('policy.yaml', policy('  maxRunsPerDay: 1440\n'));
    workspace.write('report.yaml', schedule('report', DAILY));
    await workspace.apply();
    workspace.write('policy.yaml', policy(LOOSE));
    workspace.write('report.yaml', schedule('report', EVERY_SECOND));
  }, 60_000);
  afterEach(() => workspace.remove());

  it.each(['markdown', 'text'])('shows every loosened limit as HIGH and fails --fail-on high (%s)', async (format) => {
    const result = await workspace.plan(['--format', format, '--fail-on', 'high']);
    expect(result.exitCode, result.stderr + result.message).toBe(3);
    for (const loosened of ['minInterval 1m → 1s', 'maxRunsPerDay 1440 → 100000', 'risk.runsPerDayIncreaseHigh 10 → 1000000']) {
      expect(result.stdout).toContain(`Policy loosened: ${loosened}`);
    }
    // Judged by the stored ratio (10), not the change's: the surge is HIGH, and only the loosened Policy allows it.
    expect(result.stdout).toMatch(/CF101.*runs\/day 1 → 86,400/);
    expect(result.stdout).toContain("only this change's Policy (100,000) allows it");
    expect(result.stdout).toContain(format === 'markdown' ? '## cronform plan: highest risk HIGH' : 'highest risk HIGH');
    expect(result.stderr).toContain('CF701 policy: Policy loosened: minInterval 1m → 1s');
  }, 60_000);

  it('shows a Policy loosened on its own as HIGH too, and never as "no changes"', async () => {
    workspace.write('report.yaml', schedule('report', DAILY));
    const result = await workspace.plan(['--format', 'markdown', '--fail-on', 'high']);
    expect(result.exitCode).toBe(3);
    expect(result.stdout).not.toContain('no changes');
    expect(result.stdout).toMatch(/\| \*\*HIGH\*\* \| CF701 \| \(Policy\) \| Policy loosened: maxRunsPerDay 1440 → 100000/);
  }, 60_000);

  it('a tightened Policy is shown but does not fail the gate', async () => {
    workspace.write('policy.yaml', policy('  maxRunsPerDay: 100\n'));
    workspace.write('report.yaml', schedule('report', DAILY));
    const result = await workspace.plan(['--format', 'text', '--fail-on', 'medium']);
    expect(result.stdout).toContain('[LOW] CF702 Policy tightened: maxRunsPerDay 1440 → 100');
    expect(result.exitCode, result.stderr).toBe(0);
  }, 60_000);
});

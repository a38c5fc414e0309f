/**
 * Attack 5 of issue 15: the author adds `metadata.riskAccepted` for the finding their own change
 * raises, and the header said "highest risk NONE" and --fail-on high passed. Through the real plan
 * command: a self-added acceptance is shown as the author's and counts for nothing; one stored by
 * an earlier, reviewed apply still counts. Also pins what --fail-on prints when it exits 3.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PlanTrustWorkspace, schedule } from './plan-trust-workspace.js';

const DAILY = '  cron: "0 3 * * *"\n  timezone: UTC\n  job: { type: command, command: [node, jobs/sync.js] }\n';
const EVERY_5_MIN = '  cron: "*/5 * * * *"\n  timezone: UTC\n  job: { type: command, command: [node, jobs/sync.js] }\n';
const until = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
const ACCEPT_CF101 = `  riskAccepted: [{ code: CF101, reason: "load tested", until: ${until} }]\n`;

describe('attack 5: the author accepts their own risk', () => {
  let workspace: PlanTrustWorkspace;
  beforeEach(async () => {
    workspace = await PlanTrustWorkspace.create();
  }, 60_000);
  afterEach(() => workspace.remove());

  it.each(['markdown', 'text'])('a self-accepted HIGH finding is shown as such and still exits 3 (%s)', async (format) => {
    workspace.write('sync.yaml', schedule('sync', DAILY));
    await workspace.apply();
    workspace.write('sync.yaml', schedule('sync', EVERY_5_MIN, ACCEPT_CF101));
    const result = await workspace.plan(['--format', format, '--fail-on', 'high']);
    expect(result.exitCode, result.stderr + result.message).toBe(3);
    expect(result.stdout).toContain(`accepted by the author in this change (not counted: needs a stored acceptance or the accept label) until ${until}: load tested`);
    expect(result.stdout).toContain(format === 'markdown' ? '## cronform plan: highest risk HIGH\n' : 'highest risk HIGH');
    expect(result.stdout).not.toContain('highest risk NONE');
    expect(result.stderr).toContain('CF101 sync: runs/day 1 → 288 (×288) (accepted by the author in this change: not counted)');
  }, 60_000);

  it.each(['markdown', 'text'])('an acceptance stored by an earlier apply still satisfies --fail-on high (%s)', async (format) => {
    workspace.write('sync.yaml', schedule('sync', DAILY, ACCEPT_CF101));
    await workspace.apply();
    workspace.write('sync.yaml', schedule('sync', EVERY_5_MIN, ACCEPT_CF101));
    const result = await workspace.plan(['--format', format, '--fail-on', 'high']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain(`accepted until ${until}: load tested`);
    expect(result.stdout).toContain('highest risk MEDIUM (HIGH without acceptances)');
  }, 60_000);

  it.each(['markdown', 'text'])('an acceptance added ahead of any finding it accepts is CF706 and fails --fail-on medium (%s)', async (format) => {
    // Attack review, 2026-12-01: stored today, it would waive next month's CF101 (or a new host,
    // CF511) that nobody accepted for what it is.
    workspace.write('sync.yaml', schedule('sync', DAILY));
    await workspace.apply();
    workspace.write('sync.yaml', schedule('sync', DAILY, ACCEPT_CF101));
    const result = await workspace.plan(['--format', format, '--fail-on', 'medium']);
    expect(result.exitCode, result.stderr + result.message).toBe(3);
    expect(result.stdout).toContain(`sync: the acceptance of CF101 added here accepts no finding of this plan; stored, it would waive the next CF101 of sync`);
    expect(result.stdout).toContain('highest risk MEDIUM');
    // Added with the change that raises CF101, it accepts that finding: no CF706.
    workspace.write('sync.yaml', schedule('sync', EVERY_5_MIN, ACCEPT_CF101));
    const together = await workspace.plan(['--format', format]);
    expect(together.stdout).not.toContain('CF706');
  }, 60_000);

  it('an acceptance stretched past the stored one is the author\'s again', async () => {
    workspace.write('sync.yaml', schedule('sync', DAILY, ACCEPT_CF101));
    await workspace.apply();
    const later = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
    workspace.write('sync.yaml', schedule('sync', EVERY_5_MIN, ACCEPT_CF101.replace(until, later)));
    const result = await workspace.plan(['--format', 'text', '--fail-on', 'high']);
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toContain('~ risk acceptances');
  }, 60_000);

  it('an acceptance reaching past the Policy cap is a located validation error', async () => {
    const far = new Date(Date.now() + 400 * 86_400_000).toISOString().slice(0, 10);
    workspace.write('sync.yaml', schedule('sync', DAILY, ACCEPT_CF101.replace(until, far)));
    const result = await workspace.plan(['--format', 'text']);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(new RegExp(`schedules/sync\\.yaml:\\d+:\\d+ error CF034 risk acceptance of CF101 runs until ${far}, more than the Policy's 90 days ahead`));
  }, 60_000);

  it('--fail-on says on stderr which findings made it exit 3, in every format', async () => {
    workspace.write('sync.yaml', schedule('sync', DAILY));
    await workspace.apply();
    workspace.write('sync.yaml', schedule('sync', EVERY_5_MIN));
    for (const format of ['json', 'markdown', 'text']) {
      const result = await workspace.plan(['--format', format, '--fail-on', 'medium']);
      expect(result.exitCode).toBe(3);
      expect(result.stderr.split('\n').filter(Boolean)).toEqual([
        'cronform plan: exit 3: 2 findings at or above --fail-on medium not accepted:',
        '  HIGH CF101 sync: runs/day 1 → 288 (×288)',
        expect.stringMatching(/^ {2}MEDIUM CF303 sync: cron change moves the next slots: /),
        'Accept a reviewed risk with the accept label, or with a metadata.riskAccepted already applied.',
      ]);
    }
  }, 60_000);
});

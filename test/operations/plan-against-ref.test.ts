import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planChanges } from '../../src/operations/plan.js';
import { GitRefError } from '../../src/operations/git-ref.js';
import { scheduleManifest } from '../support/apply-manifests.js';

const repo = mkdtempSync(path.join(tmpdir(), 'cronform-ref-'));
afterAll(() => rmSync(repo, { recursive: true, force: true }));
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } });
const nowMs = Date.parse('2026-11-29T12:00:00Z');

describe('plan --against-ref (no database)', () => {
  it('diffs the working tree manifests against those at a git ref', async () => {
    git('init', '-q', '-b', 'main');
    mkdirSync(path.join(repo, 'schedules', 'nested'), { recursive: true });
    writeFileSync(path.join(repo, 'schedules', 'a.yaml'), scheduleManifest('alpha', { cron: '0 * * * *' }));
    writeFileSync(path.join(repo, 'schedules', 'nested', 'b.yaml'), scheduleManifest('beta', { cron: '30 2 * * *' }));
    writeFileSync(path.join(repo, 'schedules', 'c.yaml'), scheduleManifest('gamma', { cron: '0 3 * * *' }));
    git('add', '.');
    git('commit', '-q', '-m', 'base');
    // Head: alpha becomes every minute, gamma is removed, delta is new.
    writeFileSync(path.join(repo, 'schedules', 'a.yaml'), scheduleManifest('alpha', { cron: '* * * * *' }));
    rmSync(path.join(repo, 'schedules', 'c.yaml'));
    writeFileSync(path.join(repo, 'schedules', 'd.yaml'), scheduleManifest('delta', { cron: '0 4 * * *' }));
    const plan = await planChanges({ dir: 'schedules', cwd: repo, nowMs, againstRef: 'main', database: { cwd: repo } });
    expect(plan.against).toEqual({ kind: 'git-ref', ref: 'main' });
    expect(plan.errors).toEqual([]);
    // delta is new and runs `node -e` (the test manifests' job): inline code is HIGH (CF508), so it sorts before the archive.
    expect(plan.changes.map((c) => [c.action, c.name])).toEqual([
      ['update', 'alpha'],
      ['create', 'delta'],
      ['archive', 'gamma'],
    ]);
    expect(plan.changes[0]?.findings.map((f) => f.code)).toContain('CF101');
    expect(plan.changes[1]?.findings.map((f) => f.code)).toContain('CF508');
    expect(plan.unchanged).toBe(1);
  });

  it('refuses a ref that git would read as an option, and an unknown ref', async () => {
    await expect(planChanges({ dir: 'schedules', cwd: repo, nowMs, againstRef: '--output=/tmp/x', database: { cwd: repo } })).rejects.toThrow(GitRefError);
    await expect(planChanges({ dir: 'schedules', cwd: repo, nowMs, againstRef: 'no-such-branch', database: { cwd: repo } })).rejects.toThrow(/git rev-parse .* failed/);
  });
});

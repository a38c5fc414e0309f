/**
 * The commit an apply records: HEAD when the manifests are committed, `<sha>-dirty` when the
 * manifest directory has changes HEAD does not hold (the history must not claim a commit that was
 * not what ran). Runs git in a scratch repository, hence the system project.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAuthor } from '../../src/operations/actor.js';

const repo = mkdtempSync(path.join(tmpdir(), 'cronform-actor-'));
const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: repo, encoding: 'utf8' }).trim();
let head = '';

beforeAll(() => {
  git('init', '-q');
  mkdirSync(path.join(repo, 'schedules'));
  writeFileSync(path.join(repo, 'schedules', 'a.yaml'), 'a: 1\n');
  writeFileSync(path.join(repo, 'README.md'), 'x\n');
  git('add', '.');
  git('commit', '-qm', 'init');
  head = git('rev-parse', 'HEAD');
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

const sha = (env: NodeJS.ProcessEnv = {}) => resolveAuthor({}, env, repo, 'schedules').gitSha;

describe('the commit an apply records', () => {
  it('is HEAD for committed manifests, even with other files changed', () => {
    expect(sha()).toBe(head);
    writeFileSync(path.join(repo, 'README.md'), 'changed\n');
    expect(sha()).toBe(head);
  });

  it('is marked dirty for a modified or an untracked manifest', () => {
    writeFileSync(path.join(repo, 'schedules', 'a.yaml'), 'a: 2\n');
    expect(sha()).toBe(`${head}-dirty`);
    git('checkout', '-q', '--', 'schedules/a.yaml');
    expect(sha()).toBe(head);
    writeFileSync(path.join(repo, 'schedules', 'new.yaml'), 'b: 1\n');
    expect(sha()).toBe(`${head}-dirty`);
  });

  it('takes the sha CI names as is, and HEAD when no manifests are applied (a saved plan, a pause)', () => {
    expect(sha({ GITHUB_SHA: 'abc123' })).toBe('abc123');
    expect(resolveAuthor({}, {}, repo).gitSha).toBe(head);
  });
});

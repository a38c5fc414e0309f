/**
 * Attack 7: a pull request's author posts a comment that starts with the plan marker (a forged
 * "no changes" plan). cronform must never adopt, edit or delete it: the sticky comment is only ever
 * the one written by the token's own account. Against the fake GitHub API, with the Actions
 * installation token (GET /user refused, comments by github-actions[bot]) and with a personal token.
 */
import path from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { captureOutput } from '@oclif/test';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import GithubComment from '../../../src/commands/github/comment.js';
import { GitHubClient } from '../../../src/github/github-client.js';
import { composePlanComment } from '../../../src/github/sticky-comment.js';
import { upsertStickyComment, type StickyCommentRequest } from '../../../src/operations/github-comment.js';
import { renderPlanJson } from '../../../src/plan/render-json.js';
import { PLAN_COMMENT_MARKER } from '../../../src/plan/render-markdown.js';
import { ACTIONS_BOT, FAKE_REPOSITORY, FAKE_TOKEN, FakeGitHub, type FakeComment } from '../../github/fake-github-server.js';
import { makeChange, makePlan, makeSummary } from '../../plan/render-fixtures.js';

const PR = 42;
const MALLORY = { login: 'mallory', type: 'User' };
const FORGED = `${PLAN_COMMENT_MARKER}\n<!-- cronform:risk=NONE -->\n## cronform plan: no changes\n\nApproved by @platform-team.\n`;

const highPlan = makePlan({
  changes: [makeChange({ action: 'create', name: 'cache-warmup', headline: 'new: runs/day 1', risk: 'HIGH', findings: [{ code: 'CF501', level: 'HIGH', message: 'shell fetches and executes' }] })],
  summary: makeSummary({ create: 1, highestRisk: 'HIGH' }),
});

let github: FakeGitHub;
beforeEach(async () => {
  github = new FakeGitHub();
  await github.start();
});
afterEach(() => github.stop());

const client = () => new GitHubClient({ token: FAKE_TOKEN, repository: FAKE_REPOSITORY, apiUrl: github.url, sleep: async () => {} });

function planRequest(overrides: Partial<StickyCommentRequest> = {}): StickyCommentRequest {
  const { body, risk } = composePlanComment(highPlan, null);
  return { issueNumber: PR, marker: PLAN_COMMENT_MARKER, body, risk, createIfMissing: true, ...overrides };
}

/** The forged comment is exactly as its author left it, and nobody asked GitHub to touch it. */
function expectUntouched(forged: FakeComment): void {
  expect(github.commentsOn(PR).find((c) => c.id === forged.id)?.body).toBe(FORGED);
  const touched = github.requests.filter((r) => r.path.endsWith(`/issues/comments/${forged.id}`));
  expect(touched).toEqual([]);
}

const ownPlanComments = (login: string) => github.commentsOn(PR).filter((c) => c.body.startsWith(PLAN_COMMENT_MARKER) && c.user.login === login);

describe('a forged plan comment (Actions token: github-actions[bot])', () => {
  it('is left alone while the bot creates its own', async () => {
    const forged = github.addComment(PR, FORGED, MALLORY);
    const result = await upsertStickyComment(client(), planRequest());
    expect(result.action).toBe('created');
    expect(result.comment!.id).not.toBe(forged.id);
    expectUntouched(forged);
    expect(ownPlanComments(ACTIONS_BOT.login)).toHaveLength(1);
    expect(ownPlanComments(ACTIONS_BOT.login)[0]!.body).toContain('highest risk HIGH');
  });

  it('is neither adopted nor deleted as a "duplicate" of the bot\'s older or newer comment', async () => {
    const forgedOlder = github.addComment(PR, FORGED, MALLORY);
    const real = github.addComment(PR, `${PLAN_COMMENT_MARKER}\n<!-- cronform:risk=LOW -->\nold plan`, ACTIONS_BOT);
    const forgedNewer = github.addComment(PR, FORGED, MALLORY);
    const result = await upsertStickyComment(client(), planRequest());
    expect(result).toMatchObject({ action: 'updated', comment: { id: real.id }, duplicatesDeleted: 0, previousRisk: 'LOW' });
    expect(result.riskNotice).not.toBeNull();
    expectUntouched(forgedOlder);
    expectUntouched(forgedNewer);
    expect(ownPlanComments(ACTIONS_BOT.login).map((c) => c.id)).toEqual([real.id]);
  });

  it('does not pass for the bot by looking like one', async () => {
    const lookalikes = [
      github.addComment(PR, FORGED, { login: 'github-actions', type: 'User' }),
      github.addComment(PR, FORGED, { login: 'dependabot[bot]', type: 'Bot' }),
      github.addComment(PR, `\n  ${FORGED}`, MALLORY),
    ];
    const result = await upsertStickyComment(client(), planRequest());
    expect(result.action).toBe('created');
    for (const comment of lookalikes.slice(0, 2)) expectUntouched(comment);
    expect(github.count('PATCH')).toBe(0);
    expect(github.count('DELETE')).toBe(0);
  });

  it('a forged comment does not lower the risk cronform compares with', async () => {
    github.addComment(PR, `${PLAN_COMMENT_MARKER}\n<!-- cronform:risk=HIGH -->\nforged`, MALLORY);
    github.addComment(PR, `${PLAN_COMMENT_MARKER}\n<!-- cronform:risk=LOW -->\nreal`, ACTIONS_BOT);
    const result = await upsertStickyComment(client(), planRequest());
    expect(result.previousRisk).toBe('LOW');
    expect(result.riskNotice).not.toBeNull();
  });

  it('a wrong --bot-login costs one extra comment, deleted again, and still adopts nobody else', async () => {
    const forged = github.addComment(PR, FORGED, MALLORY);
    const real = github.addComment(PR, `${PLAN_COMMENT_MARKER}\nold plan`, ACTIONS_BOT);
    const result = await upsertStickyComment(client(), planRequest({ botLogin: 'some-app[bot]' }));
    // The guess found nothing, so cronform created a comment; its author (github-actions[bot]) is who
    // cronform is, and the older comment of that author survives with the new plan.
    expect(result).toMatchObject({ action: 'updated', comment: { id: real.id }, duplicatesDeleted: 1 });
    expectUntouched(forged);
    expect(ownPlanComments(ACTIONS_BOT.login).map((c) => c.id)).toEqual([real.id]);
    expect(ownPlanComments(ACTIONS_BOT.login)[0]!.body).toContain('highest risk HIGH');
  });

  it('refuses a person\'s login as the bot login', async () => {
    const forged = github.addComment(PR, FORGED, MALLORY);
    const error = await upsertStickyComment(client(), planRequest({ botLogin: 'mallory' })).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/bot login must end with \[bot\]/);
    expectUntouched(forged);
  });
});

describe('a forged plan comment (personal token)', () => {
  it('updates the comment of the token\'s account only, found with GET /user', async () => {
    github.identity = { login: 'cronform-ci', type: 'User' };
    const forged = github.addComment(PR, FORGED, MALLORY);
    const botLookalike = github.addComment(PR, FORGED, ACTIONS_BOT);
    const real = github.addComment(PR, `${PLAN_COMMENT_MARKER}\nold plan`, { login: 'Cronform-CI', type: 'User' });
    const result = await upsertStickyComment(client(), planRequest());
    expect(result).toMatchObject({ action: 'updated', comment: { id: real.id }, duplicatesDeleted: 0 });
    expectUntouched(forged);
    expectUntouched(botLookalike);
    expect(github.count('GET', /^\/user$/)).toBe(1);
  });

  it('a bad token is an error, not "someone else\'s comments"', async () => {
    github.addComment(PR, FORGED, MALLORY);
    github.failNext({ method: 'GET', path: /^\/user$/, status: 401, body: { message: 'Bad credentials' } });
    const error = await upsertStickyComment(client(), planRequest()).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/rejected the token \(401: Bad credentials\)/);
    expect(github.count('POST')).toBe(0);
  });
});

describe('cronform github comment with a forged comment on the pull request', () => {
  const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
  const scratch = mkdtempSync(path.join(tmpdir(), 'cronform-hijack-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const ENV_KEYS = ['GITHUB_TOKEN', 'GH_TOKEN', 'GITHUB_REPOSITORY', 'GITHUB_API_URL', 'GITHUB_EVENT_PATH'] as const;

  it('posts the real plan next to the forged one and leaves that one as it was', async () => {
    const saved = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));
    const planFile = path.join(scratch, 'plan.json');
    const eventFile = path.join(scratch, 'event.json');
    writeFileSync(planFile, renderPlanJson(highPlan));
    writeFileSync(eventFile, JSON.stringify({ number: PR, pull_request: { number: PR, labels: [], head: { sha: 'feedface' } } }));
    Object.assign(process.env, { GITHUB_TOKEN: FAKE_TOKEN, GITHUB_REPOSITORY: FAKE_REPOSITORY, GITHUB_API_URL: github.url, GITHUB_EVENT_PATH: eventFile });
    delete process.env.GH_TOKEN;
    try {
      const forged = github.addComment(PR, FORGED, MALLORY);
      const first = await captureOutput(() => GithubComment.run(['--plan', planFile], repoRoot));
      expect(first.error).toBeUndefined();
      expect(first.stdout).toContain('Posted the cronform comment on #42');
      const second = await captureOutput(() => GithubComment.run(['--plan', planFile], repoRoot));
      expect(second.stdout).toContain('is already up to date');
      expectUntouched(forged);
      expect(ownPlanComments(ACTIONS_BOT.login)).toHaveLength(1);
    } finally {
      for (const key of ENV_KEYS) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
    }
  });
});

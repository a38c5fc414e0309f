import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GitHubApiError, GitHubClient } from '../../src/github/github-client.js';
import { composePlanComment, RISK_NOTICE_MARKER } from '../../src/github/sticky-comment.js';
import { findMergedPullRequest, upsertStickyComment, type StickyCommentRequest } from '../../src/operations/github-comment.js';
import { PLAN_COMMENT_MARKER } from '../../src/plan/render-markdown.js';
import { ManualClock } from '../../src/shared/clock.js';
import { makeChange, makePlan, makeRealisticPlan, makeSummary } from '../plan/render-fixtures.js';
import { FAKE_REPOSITORY, FAKE_TOKEN, FakeGitHub } from './fake-github-server.js';

const PR = 42;
let github: FakeGitHub;
let sleeps: number[];
const clock = new ManualClock(Date.parse('2026-06-01T12:00:00Z'));

beforeEach(async () => {
  github = new FakeGitHub();
  await github.start();
  sleeps = [];
});
afterEach(() => github.stop());

function client(overrides: { token?: string; maxRetryWaitMs?: number } = {}) {
  return new GitHubClient({
    token: overrides.token ?? FAKE_TOKEN,
    repository: FAKE_REPOSITORY,
    apiUrl: github.url,
    clock,
    maxRetryWaitMs: overrides.maxRetryWaitMs ?? 60_000,
    // Waits are recorded, never slept: tests stay fast and still see how long cronform would wait.
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
}

const lowPlan = makePlan({
  changes: [makeChange({ action: 'create', name: 'nightly', headline: 'new: runs/day 1', risk: 'LOW', findings: [{ code: 'CF302', level: 'LOW', message: 'DST' }] })],
  summary: makeSummary({ create: 1, highestRisk: 'LOW' }),
});
const emptyPlan = makePlan({ summary: makeSummary({ unchanged: 6 }), unchanged: 6 });

function planRequest(plan = lowPlan): StickyCommentRequest {
  const { body, risk } = composePlanComment(plan, null);
  return { issueNumber: PR, marker: PLAN_COMMENT_MARKER, body, risk, createIfMissing: plan.changes.length > 0 };
}

const planComments = () => github.commentsOn(PR).filter((c) => c.body.startsWith(PLAN_COMMENT_MARKER));

describe('sticky plan comment', () => {
  it('creates the comment once, then updates it in place', async () => {
    const first = await upsertStickyComment(client(), planRequest());
    expect(first).toMatchObject({ action: 'created', riskNotice: null, duplicatesDeleted: 0 });
    expect(planComments()).toHaveLength(1);
    expect(planComments()[0]!.body).toContain('<!-- cronform:risk=LOW -->');

    const realistic = planRequest(makeRealisticPlan());
    const second = await upsertStickyComment(client(), { ...realistic, risk: 'LOW' });
    expect(second).toMatchObject({ action: 'updated', comment: { id: first.comment!.id }, previousRisk: 'LOW' });
    expect(planComments()).toHaveLength(1);
    expect(planComments()[0]!.body).toBe(realistic.body);
    expect(github.count('PATCH')).toBe(1);
  });

  it('does not edit a comment that already says the same thing', async () => {
    await upsertStickyComment(client(), planRequest());
    const again = await upsertStickyComment(client(), planRequest());
    expect(again.action).toBe('unchanged');
    expect(github.count('PATCH')).toBe(0);
  });

  it('ignores comments that merely mention or quote the marker', async () => {
    github.addComment(PR, `> ${PLAN_COMMENT_MARKER}\n> quoted plan`);
    github.addComment(PR, `why does ${PLAN_COMMENT_MARKER} appear here?`);
    const result = await upsertStickyComment(client(), planRequest());
    expect(result.action).toBe('created');
    expect(github.commentsOn(PR)).toHaveLength(3);
  });

  it('leaves one comment when two runs race to create it', async () => {
    github.holdCommentLists(2);
    const [a, b] = await Promise.all([upsertStickyComment(client(), planRequest()), upsertStickyComment(client(), planRequest(makeRealisticPlan()))]);
    expect(github.count('POST')).toBe(2);
    expect(planComments()).toHaveLength(1);
    const survivor = planComments()[0]!;
    // Both runs agree on the survivor: the older comment.
    expect([a.comment!.id, b.comment!.id]).toEqual([survivor.id, survivor.id]);
    expect(a.duplicatesDeleted + b.duplicatesDeleted).toBeGreaterThanOrEqual(1);
  });

  it('leaves one comment when five runs race', async () => {
    github.holdCommentLists(5);
    await Promise.all(Array.from({ length: 5 }, () => upsertStickyComment(client(), planRequest())));
    expect(planComments()).toHaveLength(1);
  });

  it('removes duplicates left by an earlier crash and keeps the oldest', async () => {
    const oldest = github.addComment(PR, `${PLAN_COMMENT_MARKER}\nold`, { login: 'github-actions[bot]', type: 'Bot' });
    github.addComment(PR, `${PLAN_COMMENT_MARKER}\nnewer`, { login: 'github-actions[bot]', type: 'Bot' });
    const result = await upsertStickyComment(client(), planRequest());
    expect(result).toMatchObject({ action: 'updated', comment: { id: oldest.id }, duplicatesDeleted: 1 });
    expect(planComments().map((c) => c.id)).toEqual([oldest.id]);
  });

  it('finds its comment among 250 others across three pages', async () => {
    for (let i = 0; i < 180; i++) github.addComment(PR, `review comment ${i}`);
    const sticky = github.addComment(PR, `${PLAN_COMMENT_MARKER}\n<!-- cronform:risk=LOW -->\nold plan`, { login: 'github-actions[bot]', type: 'Bot' });
    for (let i = 0; i < 70; i++) github.addComment(PR, `later comment ${i}`);
    const result = await upsertStickyComment(client(), planRequest());
    expect(result).toMatchObject({ action: 'updated', comment: { id: sticky.id } });
    const listings = github.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/comments'));
    expect(listings.map((r) => new URLSearchParams(r.query).get('page') ?? '1')).toEqual(['1', '2', '3']);
    expect(listings.every((r) => new URLSearchParams(r.query).get('per_page') === '100')).toBe(true);
    expect(github.count('POST')).toBe(0);
  });

  it('posts a short new comment when the risk rises, and none when it falls', async () => {
    await upsertStickyComment(client(), planRequest());
    const rising = planRequest(makeRealisticPlan());
    const risen = await upsertStickyComment(client(), rising);
    expect(rising.risk).toBe('ERROR');
    expect(risen.riskNotice).not.toBeNull();
    const notices = github.commentsOn(PR).filter((c) => c.body.startsWith(RISK_NOTICE_MARKER));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.body).toContain('risk rose from LOW to ERROR');
    expect(notices[0]!.body).toContain(risen.comment!.url);

    const falling = await upsertStickyComment(client(), planRequest());
    expect(falling).toMatchObject({ action: 'updated', previousRisk: 'ERROR', riskNotice: null });
    expect(github.commentsOn(PR).filter((c) => c.body.startsWith(RISK_NOTICE_MARKER))).toHaveLength(1);
    expect(planComments()).toHaveLength(1);
  });

  it('turns a stale plan comment into "no changes", and starts no thread for a plan without changes', async () => {
    const skipped = await upsertStickyComment(client(), planRequest(emptyPlan));
    expect(skipped.action).toBe('skipped');
    expect(github.commentsOn(PR)).toHaveLength(0);

    await upsertStickyComment(client(), planRequest());
    const stale = await upsertStickyComment(client(), planRequest(emptyPlan));
    expect(stale.action).toBe('updated');
    expect(planComments()).toHaveLength(1);
    expect(planComments()[0]!.body).toContain('## cronform plan: no changes');
    expect(planComments()[0]!.body).toContain('<!-- cronform:risk=NONE -->');
  });
});

describe('GitHub failures', () => {
  it.each([
    { status: 403, body: { message: 'Resource not accessible by integration' }, expected: /403: Resource not accessible by integration\).*pull-requests: write.*forks/ },
    { status: 404, body: { message: 'Not Found' }, expected: /404: Not Found\).*GITHUB_REPOSITORY \(acme\/schedules\)/ },
    { status: 422, body: { message: 'Validation Failed', errors: [{ message: 'body is too long (maximum is 65536 characters)' }] }, expected: /422: Validation Failed \(body is too long/ },
  ])('$status is an error with a reason, never silent', async ({ status, body, expected }) => {
    github.failNext({ method: 'POST', status, body });
    const error = await upsertStickyComment(client(), planRequest()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitHubApiError);
    expect((error as GitHubApiError).status).toBe(status);
    expect((error as Error).message).toMatch(expected);
    expect(sleeps).toEqual([]);
  });

  it('explains a bad token', async () => {
    const error = await upsertStickyComment(client({ token: 'wrong' }), planRequest()).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/rejected the token \(401: Bad credentials\)/);
  });

  it('waits out a secondary rate limit once, as long as retry-after says', async () => {
    github.failNext({ method: 'POST', status: 403, headers: { 'retry-after': '7' }, body: { message: 'You have exceeded a secondary rate limit.' } });
    const result = await upsertStickyComment(client(), planRequest());
    expect(result.action).toBe('created');
    expect(sleeps).toEqual([7_000]);
    expect(planComments()).toHaveLength(1);
  });

  it('fails at once when the wait is longer than allowed, saying when the limit resets', async () => {
    const resetSeconds = Math.floor(clock.nowMs() / 1000) + 3600;
    github.failNext({ method: 'GET', status: 403, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(resetSeconds) }, body: { message: 'API rate limit exceeded' } });
    const error = await upsertStickyComment(client(), planRequest()).catch((e: unknown) => e);
    expect((error as Error).message).toBe(`GitHub rate limit exhausted (GET /repos/acme/schedules/issues/42/comments?per_page=100); it resets at ${new Date(resetSeconds * 1000).toISOString()}`);
    expect(sleeps).toEqual([]);
  });

  it('retries a 5xx once, then gives up', async () => {
    github.failNext({ method: 'GET', status: 502, body: { message: 'Bad Gateway' } });
    await upsertStickyComment(client(), planRequest());
    expect(sleeps).toEqual([1_000]);

    github.failNext({ method: 'PATCH', status: 503, body: { message: 'Service Unavailable' }, times: 2 });
    const error = await upsertStickyComment(client(), planRequest(makeRealisticPlan())).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/GitHub answered 503 to PATCH \/repos\/acme\/schedules\/issues\/comments\/\d+: Service Unavailable/);
    expect(sleeps).toEqual([1_000, 1_000]);
  });

  it('reports an unreachable API', async () => {
    await github.stop();
    const error = await upsertStickyComment(client(), planRequest()).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^could not reach GitHub for GET \/repos\/acme\/schedules\/issues\/42\/comments/);
  });
});

describe('findMergedPullRequest', () => {
  it('picks the merged pull request whose merge commit was pushed', async () => {
    github.pullsByCommit.set('abc123', [
      { number: 7, merged_at: null, merge_commit_sha: null },
      { number: 9, merged_at: '2026-06-01T10:00:00Z', merge_commit_sha: 'abc123' },
    ]);
    expect((await findMergedPullRequest(client(), 'abc123'))?.number).toBe(9);
    expect(await findMergedPullRequest(client(), 'fff999')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { labelAcceptsHead, readPullRequestEvent, workflowRunUrl } from '../../src/github/event-context.js';
import { decideRetry, describeFailure } from '../../src/github/github-failures.js';
import { findNextPageUrl } from '../../src/github/link-header.js';

const NOW_MS = Date.parse('2026-06-01T12:00:00Z');
const headers = (values: Record<string, string | undefined>) => new Headers(Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined));

describe('decideRetry', () => {
  it.each([
    { name: '502', status: 502, h: {}, message: 'Bad Gateway', expected: { retry: true, waitMs: 1000 } },
    { name: 'secondary limit with retry-after', status: 403, h: { 'retry-after': '30' }, message: 'secondary rate limit', expected: { retry: true, waitMs: 30_000 } },
    { name: '429 with retry-after 0', status: 429, h: { 'retry-after': '0' }, message: '', expected: { retry: true, waitMs: 0 } },
    { name: 'secondary limit without retry-after', status: 403, h: {}, message: 'You have exceeded a secondary rate limit', expected: { retry: true, waitMs: 60_000 } },
    { name: 'primary limit', status: 403, h: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW_MS / 1000 + 20) }, message: 'API rate limit exceeded', expected: { retry: true, waitMs: 21_000 } },
    { name: 'permission 403', status: 403, h: { 'x-ratelimit-remaining': '4999' }, message: 'Resource not accessible by integration', expected: { retry: false } },
    { name: '404', status: 404, h: {}, message: 'Not Found', expected: { retry: false } },
    { name: '422', status: 422, h: {}, message: 'Validation Failed', expected: { retry: false } },
  ])('$name', ({ status, h, message, expected }) => {
    expect(decideRetry(status, headers(h), message, NOW_MS)).toMatchObject(expected);
  });

  it('describes every failure with what to do', () => {
    const base = { method: 'POST', path: '/repos/a/b/issues/1/comments', repository: 'a/b', details: [], headers: headers({}) };
    expect(describeFailure({ ...base, status: 401, message: 'Bad credentials' })).toBe('GitHub rejected the token (401: Bad credentials): set GITHUB_TOKEN to a valid token');
    expect(describeFailure({ ...base, status: 429, message: 'secondary rate limit' })).toMatch(/secondary rate limit.*try again in a few minutes/);
    expect(describeFailure({ ...base, status: 500, message: 'boom' })).toBe('GitHub answered 500 to POST /repos/a/b/issues/1/comments: boom');
  });
});

describe('findNextPageUrl', () => {
  it.each([
    ['<https://api.github.com/x?page=2>; rel="next", <https://api.github.com/x?page=5>; rel="last"', 'https://api.github.com/x?page=2'],
    ['<https://api.github.com/x?page=1>; rel="prev", <https://api.github.com/x?page=3>; rel=next', 'https://api.github.com/x?page=3'],
    ['<https://api.github.com/x?page=1>; rel="first"', null],
    [null, null],
  ])('%s', (link, expected) => {
    expect(findNextPageUrl(link)).toBe(expected);
  });
});

describe('event context', () => {
  it('reads the pull request number, labels and head of pull_request and issue_comment events', () => {
    const pullRequest = JSON.stringify({ action: 'labeled', number: 42, pull_request: { number: 42, labels: [{ name: 'cronform/accept-risk' }, { name: 'infra' }], head: { sha: 'abc' } } });
    expect(readPullRequestEvent(pullRequest)).toEqual({ action: 'labeled', number: 42, labels: ['cronform/accept-risk', 'infra'], headSha: 'abc' });
    expect(readPullRequestEvent(JSON.stringify({ issue: { number: 7, labels: [] } }))).toEqual({ action: null, number: 7, labels: [], headSha: null });
    expect(readPullRequestEvent('{"ref":"refs/heads/main"}')).toEqual({ action: null, number: null, labels: [], headSha: null });
    expect(readPullRequestEvent('not json')).toEqual({ action: null, number: null, labels: [], headSha: null });
  });

  it('lets the accept label accept a head only on a run not started by a push', () => {
    const event = (action: string, labels: string[]) => readPullRequestEvent(JSON.stringify({ action, pull_request: { number: 1, labels: labels.map((name) => ({ name })), head: { sha: 'abc' } } }));
    expect(labelAcceptsHead(event('labeled', ['cronform/accept-risk']), 'cronform/accept-risk')).toBe(true);
    expect(labelAcceptsHead(event('opened', ['cronform/accept-risk']), 'cronform/accept-risk')).toBe(true);
    expect(labelAcceptsHead(event('synchronize', ['cronform/accept-risk']), 'cronform/accept-risk')).toBe(false);
    expect(labelAcceptsHead(event('labeled', ['other']), 'cronform/accept-risk')).toBe(false);
  });

  it('links the workflow run', () => {
    expect(workflowRunUrl({ GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'a/b', GITHUB_RUN_ID: '99' })).toBe('https://github.com/a/b/actions/runs/99');
    expect(workflowRunUrl({})).toBeNull();
  });
});

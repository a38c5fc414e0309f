import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { captureOutput } from '@oclif/test';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import GithubComment from '../../../src/commands/github/comment.js';
import { APPLY_COMMENT_MARKER, RISK_NOTICE_MARKER } from '../../../src/github/sticky-comment.js';
import { renderPlanJson } from '../../../src/plan/render-json.js';
import { PLAN_COMMENT_MARKER } from '../../../src/plan/render-markdown.js';
import { FAKE_REPOSITORY, FAKE_TOKEN, FakeGitHub } from '../../github/fake-github-server.js';
import { makeChange, makePlan, makeRealisticPlan, makeSummary } from '../../plan/render-fixtures.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), 'cronform-gh-comment-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = path.join(scratch, name);
  writeFileSync(file, text);
  return file;
}

const mediumPlan = write('medium.json', renderPlanJson(makePlan({
  changes: [makeChange({ action: 'create', name: 'nightly', headline: 'new: runs/day 1', risk: 'MEDIUM', findings: [{ code: 'CF301', level: 'MEDIUM', message: 'zone' }] })],
  summary: makeSummary({ create: 1, highestRisk: 'MEDIUM' }),
})));
const errorPlan = write('realistic.json', renderPlanJson(makeRealisticPlan()));
const pullRequestEvent = (labels: string[], action = 'labeled') => write(`event-${labels.length}-${action}.json`, JSON.stringify({ action, number: 42, pull_request: { number: 42, labels: labels.map((name) => ({ name })), head: { sha: '5e1f0c0ffee5e1f0c0ffee' } } }));

const ENV_KEYS = ['GITHUB_TOKEN', 'GH_TOKEN', 'GITHUB_REPOSITORY', 'GITHUB_API_URL', 'GITHUB_EVENT_PATH', 'GITHUB_SHA', 'GITHUB_ACTOR', 'GITHUB_SERVER_URL', 'GITHUB_RUN_ID'] as const;
const savedEnv = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));
let github: FakeGitHub;

beforeEach(async () => {
  github = new FakeGitHub();
  Object.assign(process.env, {
    GITHUB_TOKEN: FAKE_TOKEN,
    GITHUB_REPOSITORY: FAKE_REPOSITORY,
    GITHUB_API_URL: await github.start(),
    GITHUB_EVENT_PATH: pullRequestEvent([]),
    GITHUB_SHA: 'abc123abc123abc123',
    GITHUB_ACTOR: 'octocat',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_RUN_ID: '777',
  });
  delete process.env.GH_TOKEN;
});
afterEach(async () => {
  await github.stop();
  for (const key of ENV_KEYS) {
    if (savedEnv[key] === undefined) delete process.env[key];
    else process.env[key] = savedEnv[key];
  }
});

async function comment(...argv: string[]) {
  const output = await captureOutput(() => GithubComment.run(argv, repoRoot));
  const error = output.error as (Error & { oclif?: { exit?: number } }) | undefined;
  return { ...output, exitCode: error ? (error.oclif?.exit ?? 1) : 0, message: error?.message ?? '' };
}

describe('cronform github comment', () => {
  it('posts the plan for the pull request of the event, then updates it and flags a rising risk', async () => {
    const first = await comment('--plan', mediumPlan);
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toMatch(/^Posted the cronform comment on #42 \(https:\/\/github\.com\/acme\/schedules\/pull\/42#issuecomment-\d+\)\./);
    const second = await comment('--plan', errorPlan);
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toContain('Updated the cronform comment on #42');
    expect(second.stdout).toContain('Risk rose from MEDIUM since the last plan');
    const bodies = github.commentsOn(42).map((c) => c.body.split('\n')[0]);
    expect(bodies).toEqual([PLAN_COMMENT_MARKER, RISK_NOTICE_MARKER]);
  });

  it('records the acceptance when the pull request carries the label', async () => {
    process.env.GITHUB_EVENT_PATH = pullRequestEvent(['infra', 'cronform/accept-risk']);
    const { exitCode } = await comment('--plan', errorPlan, '--accept-label', 'cronform/accept-risk');
    expect(exitCode).toBe(0);
    const body = github.commentsOn(42)[0]!.body;
    expect(body).toContain('**Risk accepted** with the `cronform/accept-risk` label');
    expect(body).toContain('for commit `5e1f0c0ffee5`');
    expect(body).toContain('[this workflow run](https://github.com/acme/schedules/actions/runs/777) started by @octocat');
  });

  it('does not record an acceptance on a push after the label: the label predates the new head', async () => {
    process.env.GITHUB_EVENT_PATH = pullRequestEvent(['cronform/accept-risk'], 'synchronize');
    const { exitCode } = await comment('--plan', errorPlan, '--accept-label', 'cronform/accept-risk');
    expect(exitCode).toBe(0);
    expect(github.commentsOn(42)[0]!.body).not.toContain('Risk accepted');
  });

  it('does not record an acceptance without the label', async () => {
    await comment('--plan', errorPlan, '--accept-label', 'cronform/accept-risk');
    expect(github.commentsOn(42)[0]!.body).not.toContain('Risk accepted');
  });

  it('posts the apply outcome on the merged pull request once, however often it runs', async () => {
    github.pullsByCommit.set('abc123abc123abc123', [{ number: 9, merged_at: '2026-06-01T10:00:00Z', merge_commit_sha: 'abc123abc123abc123' }]);
    const log = write('apply.log', 'Applied plan sha256:9: create nightly (v1)\n');
    for (let run = 0; run < 2; run++) {
      const { exitCode } = await comment('--apply-log', log, '--exit-code', '0', '--commit', 'abc123abc123abc123');
      expect(exitCode).toBe(0);
    }
    const comments = github.commentsOn(9);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain(`${APPLY_COMMENT_MARKER}\n## cronform apply: ✅ applied`);
    expect(comments[0]!.body).toContain('commit `abc123abc123` · by @octocat');
  });

  it('says so when a pushed commit has no pull request', async () => {
    const { exitCode, stdout } = await comment('--apply-log', write('empty.log', ''), '--commit', 'fff000');
    expect(exitCode).toBe(0);
    expect(stdout).toContain('no merged pull request contains commit fff000: nothing to comment on');
  });

  it('posts a --body-file with its risk', async () => {
    const { exitCode } = await comment('--body-file', write('body.md', '## custom plan\n'), '--risk', 'HIGH', '--pr', '5');
    expect(exitCode).toBe(0);
    expect(github.commentsOn(5)[0]!.body).toBe(`${PLAN_COMMENT_MARKER}\n<!-- cronform:risk=HIGH -->\n## custom plan\n`);
  });

  it.each([
    { name: 'a 403', setup: () => github.failNext({ method: 'POST', status: 403, body: { message: 'Resource not accessible by integration' } }), args: [] as string[], message: /403: Resource not accessible by integration\).*pull-requests: write/ },
    { name: 'a 404', setup: () => { process.env.GITHUB_REPOSITORY = 'acme/other'; }, args: [], message: /404: Not Found\).*acme\/other/ },
    { name: 'a missing token', setup: () => { delete process.env.GITHUB_TOKEN; }, args: [], message: /GITHUB_TOKEN is not set/ },
    { name: 'a malformed repository', setup: () => { process.env.GITHUB_REPOSITORY = 'acme'; }, args: [], message: /GITHUB_REPOSITORY must be owner\/name/ },
    { name: 'no pull request', setup: () => { delete process.env.GITHUB_EVENT_PATH; }, args: [], message: /no pull request: pass --pr or --commit/ },
    { name: 'a file that is not a plan', setup: () => undefined, args: ['--plan', path.join(repoRoot, 'package.json')], message: /not a cronform plan file/ },
  ])('fails with exit 1 on $name, never silently', async ({ setup, args, message }) => {
    setup();
    const result = await comment(...(args.length > 0 ? args : ['--plan', mediumPlan]));
    expect(result.exitCode).toBe(1);
    expect(result.message).toMatch(message);
    expect(github.comments).toHaveLength(0);
  });

  it('needs something to post', async () => {
    const { exitCode, message } = await comment('--pr', '3');
    expect(exitCode).toBe(1);
    expect(message).toContain('--plan, --body-file or --apply-log');
  });
});

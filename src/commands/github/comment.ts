import { readFileSync } from 'node:fs';
import { Flags } from '@oclif/core';
import { labelAcceptsHead, readPullRequestEvent, workflowRunUrl, type PullRequestEvent } from '../../github/event-context.js';
import { GitHubClient } from '../../github/github-client.js';
import { renderApplyComment } from '../../github/render-apply-comment.js';
import {
  APPLY_COMMENT_MARKER,
  RISK_LEVELS,
  composeCustomComment,
  composePlanComment,
  planWarrantsComment,
  type CommentRisk,
} from '../../github/sticky-comment.js';
import { findMergedPullRequest, isBotLogin, upsertStickyComment, type StickyCommentResult } from '../../operations/github-comment.js';
import { parsePlanJson } from '../../plan/render-json.js';
import { PLAN_COMMENT_MARKER } from '../../plan/render-markdown.js';
import { ExitCodes } from '../../shared/exit-codes.js';
import { CronformCommand } from '../cronform-command.js';

interface CommentContent {
  marker: string;
  body: string;
  risk: CommentRisk | null;
  createIfMissing: boolean;
}

export default class GithubComment extends CronformCommand {
  static override summary = 'Post or update the cronform comment on a pull request.';
  static override description =
    'Keeps one sticky comment per pull request, found by its hidden marker and written by the account of the token (a comment by anyone else is never adopted, edited or deleted, whatever it carries): the plan (--plan plan.json, or any markdown with --body-file) or the apply outcome (--apply-log). A plan whose risk rose since the last comment also gets a short new comment, because edits notify nobody; a plan without changes only updates an existing comment. Uses GITHUB_TOKEN, GITHUB_REPOSITORY, GITHUB_API_URL and the pull request of GITHUB_EVENT_PATH. Any failure to post exits 1.';
  static override examples = [
    '<%= config.bin %> github comment --plan plan.json --accept-label cronform/accept-risk',
    '<%= config.bin %> github comment --apply-log apply.log --exit-code 0 --commit "$GITHUB_SHA"',
  ];
  static override flags = {
    plan: Flags.string({ description: 'plan file written by `cronform plan --out`', exclusive: ['body-file', 'apply-log'] }),
    'body-file': Flags.string({ description: 'post this markdown file as the plan comment', exclusive: ['plan', 'apply-log'] }),
    risk: Flags.string({ description: 'risk level the --body-file reports (enables the rising-risk notice)', options: [...RISK_LEVELS], dependsOn: ['body-file'] }),
    'apply-log': Flags.string({ description: 'output of `cronform apply`: post the apply outcome comment', exclusive: ['plan', 'body-file'] }),
    'exit-code': Flags.integer({ description: 'exit code of `cronform apply`', dependsOn: ['apply-log'] }),
    pr: Flags.integer({ description: 'pull request number (default: from the event in GITHUB_EVENT_PATH)', min: 1, exclusive: ['commit'] }),
    commit: Flags.string({ description: 'comment on the merged pull request of this commit (a push to main)' }),
    'bot-login': Flags.string({ description: 'login that comments posted with a GitHub App installation token appear under (GET /user names a personal token\'s)', default: 'github-actions[bot]' }),
    'accept-label': Flags.string({ description: 'record the risk as accepted when the pull request carries this label (never on a run started by a push: the label predates the commit)' }),
    repo: Flags.string({ description: 'owner/name', env: 'GITHUB_REPOSITORY' }),
    'api-url': Flags.string({ description: 'GitHub API URL', env: 'GITHUB_API_URL', default: 'https://api.github.com' }),
    'event-path': Flags.string({ description: 'webhook event payload of the run', env: 'GITHUB_EVENT_PATH' }),
  };

  async run(): Promise<StickyCommentResult | { action: 'skipped'; reason: string }> {
    const { flags } = await this.parse(GithubComment);
    if (!flags.plan && !flags['body-file'] && !flags['apply-log']) this.fail('say what to post: --plan, --body-file or --apply-log');
    const token = process.env.GITHUB_TOKEN || process.env.GH_TOKEN;
    if (!token) this.fail('GITHUB_TOKEN is not set: in a workflow, pass env: GITHUB_TOKEN: ${{ github.token }}');
    if (!flags.repo) this.fail('GITHUB_REPOSITORY is not set: pass --repo owner/name');
    const event = flags['event-path'] ? readPullRequestEvent(this.readText(flags['event-path'], 'event file')) : null;
    if (!isBotLogin(flags['bot-login'])) this.fail(`--bot-login must be a GitHub App's account, ending with [bot] (got ${flags['bot-login']})`);
    const client = this.createClient(token, flags.repo, flags['api-url']);

    const issueNumber = await this.resolvePullRequest(client, flags, event);
    if (issueNumber === null) {
      const reason = `no merged pull request contains commit ${flags.commit}: nothing to comment on`;
      this.log(reason);
      return { action: 'skipped', reason };
    }
    const content = this.composeContent(flags, event);
    const result = await upsertStickyComment(client, { issueNumber, ...content, botLogin: flags['bot-login'] });
    this.log(describeResult(result, issueNumber));
    return result;
  }

  private createClient(token: string, repository: string, apiUrl: string): GitHubClient {
    try {
      return new GitHubClient({ token, repository, apiUrl });
    } catch (error) {
      this.fail((error as Error).message);
    }
  }

  private async resolvePullRequest(client: GitHubClient, flags: { pr?: number | undefined; commit?: string | undefined }, event: PullRequestEvent | null): Promise<number | null> {
    if (flags.pr) return flags.pr;
    if (flags.commit) return (await findMergedPullRequest(client, flags.commit))?.number ?? null;
    if (event?.number) return event.number;
    this.fail('no pull request: pass --pr or --commit, or run on a pull_request event (GITHUB_EVENT_PATH)');
  }

  private composeContent(
    flags: { plan?: string | undefined; 'body-file'?: string | undefined; risk?: string | undefined; 'apply-log'?: string | undefined; 'exit-code'?: number | undefined; 'accept-label'?: string | undefined },
    event: PullRequestEvent | null,
  ): CommentContent {
    if (flags['apply-log']) {
      const body = renderApplyComment({
        exitCode: flags['exit-code'] ?? ExitCodes.SUCCESS,
        log: this.readText(flags['apply-log'], 'apply log'),
        commit: process.env.GITHUB_SHA ?? null,
        actor: process.env.GITHUB_ACTOR ?? null,
        runUrl: workflowRunUrl(process.env),
      });
      return { marker: APPLY_COMMENT_MARKER, body, risk: null, createIfMissing: true };
    }
    if (flags['body-file']) {
      const risk = (flags.risk as CommentRisk | undefined) ?? null;
      return { marker: PLAN_COMMENT_MARKER, body: composeCustomComment(this.readText(flags['body-file'], 'body file'), PLAN_COMMENT_MARKER, risk), risk, createIfMissing: true };
    }
    let plan;
    try {
      plan = parsePlanJson(this.readText(flags.plan!, 'plan file'));
    } catch (error) {
      this.fail(`${flags.plan}: ${(error as Error).message}`);
    }
    const label = flags['accept-label'];
    const acceptance = label && event && labelAcceptsHead(event, label)
      ? { label, commit: (event.headSha ?? process.env.GITHUB_SHA ?? '').slice(0, 12) || null, actor: process.env.GITHUB_ACTOR ?? null, runUrl: workflowRunUrl(process.env) }
      : null;
    const { body, risk } = composePlanComment(plan, acceptance);
    return { marker: PLAN_COMMENT_MARKER, body, risk, createIfMissing: planWarrantsComment(plan) };
  }

  private readText(file: string, what: string): string {
    try {
      return readFileSync(file, 'utf8');
    } catch (error) {
      this.fail(`cannot read the ${what} ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  }
}

function describeResult(result: StickyCommentResult, issueNumber: number): string {
  const where = `#${issueNumber}${result.comment ? ` (${result.comment.url})` : ''}`;
  const lines = [
    {
      created: `Posted the cronform comment on ${where}.`,
      updated: `Updated the cronform comment on ${where}.`,
      unchanged: `The cronform comment on ${where} is already up to date.`,
      skipped: `No changes and no earlier cronform comment on #${issueNumber}: nothing posted.`,
    }[result.action],
  ];
  if (result.duplicatesDeleted > 0) lines.push(`Removed ${result.duplicatesDeleted} duplicate comment(s) left by a concurrent run.`);
  if (result.riskNotice) lines.push(`Risk rose from ${result.previousRisk} since the last plan: notified reviewers (${result.riskNotice.url}).`);
  return lines.join('\n');
}

/**
 * The few GitHub REST endpoints cronform uses, over Node's global fetch: issue comments (a pull
 * request is an issue for comments) and the pull requests of a commit.
 *
 * Every request is tried at most twice: once more after a 5xx, a network error or a rate limit
 * whose wait fits in `maxRetryWaitMs`. A longer wait fails at once with the time it resets: a CI
 * job sleeping for an hour helps nobody. Pagination follows `Link: rel="next"`, but only to the
 * API's own origin, so the token is never sent anywhere else.
 */
import { systemClock, type Clock } from '../shared/clock.js';
import { decideRetry, describeFailure } from './github-failures.js';
import { findNextPageUrl } from './link-header.js';

export interface IssueComment {
  id: number;
  body: string;
  html_url: string;
  created_at: string;
  user: { login: string; type: string } | null;
}

export interface GitHubUser {
  login: string;
  type: string;
}

export interface PullRequestRef {
  number: number;
  html_url: string;
  merged_at: string | null;
  merge_commit_sha: string | null;
}

export interface GitHubClientOptions {
  token: string;
  /** `owner/name`. */
  repository: string;
  /** Default https://api.github.com; GitHub Enterprise Server and tests set GITHUB_API_URL. */
  apiUrl?: string | undefined;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  clock?: Clock;
  /** Longest wait before the single retry (default 60 s). */
  maxRetryWaitMs?: number;
  requestTimeoutMs?: number;
}

export class GitHubApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** GitHub's own `message` field, when it answered with one. */
    readonly githubMessage: string | null = null,
  ) {
    super(message);
  }
}

/** What GitHub answers `GET /user` for a GitHub App installation token, the Actions GITHUB_TOKEN included. */
const INSTALLATION_TOKEN_REFUSAL = /resource not accessible by integration/i;

const PAGE_SIZE = 100;
/** 30,000 comments: far beyond any real pull request, and a bound on a server that never stops paging. */
const MAX_PAGES = 300;

interface ApiResponse {
  status: number;
  headers: Headers;
  data: unknown;
}

export class GitHubClient {
  private readonly apiUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly clock: Clock;
  private readonly maxRetryWaitMs: number;
  private readonly requestTimeoutMs: number;

  constructor(private readonly options: GitHubClientOptions) {
    if (!/^[^/\s]+\/[^/\s]+$/.test(options.repository)) throw new GitHubApiError(`GITHUB_REPOSITORY must be owner/name (got ${JSON.stringify(options.repository)})`, 0);
    this.apiUrl = (options.apiUrl || 'https://api.github.com').replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? fetch;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.clock = options.clock ?? systemClock;
    this.maxRetryWaitMs = options.maxRetryWaitMs ?? 60_000;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  }

  get repository(): string {
    return this.options.repository;
  }

  /**
   * The account a personal or OAuth token acts as; null for a GitHub App installation token (the
   * Actions GITHUB_TOKEN), which `GET /user` refuses with 403 "Resource not accessible by
   * integration". Any other failure (a bad token, a rate limit) is thrown as usual.
   */
  async getAuthenticatedUser(): Promise<GitHubUser | null> {
    try {
      const { data } = await this.request('GET', '/user');
      const login = (data as { login?: unknown } | null)?.login;
      if (typeof login !== 'string' || login === '') throw new GitHubApiError('GitHub answered GET /user without a login', 200);
      return { login, type: String((data as { type?: unknown }).type ?? 'User') };
    } catch (error) {
      if (error instanceof GitHubApiError && error.status === 403 && INSTALLATION_TOKEN_REFUSAL.test(error.githubMessage ?? '')) return null;
      throw error;
    }
  }

  /** All comments of an issue or pull request, oldest first. */
  async listIssueComments(issueNumber: number): Promise<IssueComment[]> {
    const comments: IssueComment[] = [];
    let url: string | null = `${this.repoPath()}/issues/${issueNumber}/comments?per_page=${PAGE_SIZE}`;
    for (let page = 0; url !== null; page++) {
      if (page >= MAX_PAGES) throw new GitHubApiError(`more than ${MAX_PAGES * PAGE_SIZE} comments on #${issueNumber}: refusing to page further`, 0);
      const response: ApiResponse = await this.request('GET', url);
      if (!Array.isArray(response.data)) throw new GitHubApiError(`GitHub answered GET ${url} with something other than a list`, response.status);
      comments.push(...(response.data as IssueComment[]));
      url = findNextPageUrl(response.headers.get('link'));
    }
    return comments;
  }

  async createIssueComment(issueNumber: number, body: string): Promise<IssueComment> {
    return (await this.request('POST', `${this.repoPath()}/issues/${issueNumber}/comments`, { body })).data as IssueComment;
  }

  async updateIssueComment(commentId: number, body: string): Promise<IssueComment> {
    return (await this.request('PATCH', `${this.repoPath()}/issues/comments/${commentId}`, { body })).data as IssueComment;
  }

  /** Deletes a comment; false when it was already gone (another run deleted it first). */
  async deleteIssueComment(commentId: number): Promise<boolean> {
    try {
      await this.request('DELETE', `${this.repoPath()}/issues/comments/${commentId}`);
      return true;
    } catch (error) {
      if (error instanceof GitHubApiError && error.status === 404) return false;
      throw error;
    }
  }

  /** Pull requests that contain a commit (for a merge commit on main: the merged one). */
  async listPullRequestsForCommit(sha: string): Promise<PullRequestRef[]> {
    const response = await this.request('GET', `${this.repoPath()}/commits/${encodeURIComponent(sha)}/pulls?per_page=${PAGE_SIZE}`);
    return Array.isArray(response.data) ? (response.data as PullRequestRef[]) : [];
  }

  private repoPath(): string {
    const [owner, name] = this.options.repository.split('/') as [string, string];
    return `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
  }

  private async request(method: string, pathOrUrl: string, body?: unknown): Promise<ApiResponse> {
    const url = this.resolveUrl(pathOrUrl);
    const path = url.slice(this.apiUrl.length) || '/';
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await this.fetchImpl(url, {
          method,
          headers: {
            accept: 'application/vnd.github+json',
            authorization: `Bearer ${this.options.token}`,
            'x-github-api-version': '2022-11-28',
            'user-agent': 'cronform',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(this.requestTimeoutMs),
        });
      } catch (error) {
        if (attempt === 1) {
          await this.sleep(1_000);
          continue;
        }
        throw new GitHubApiError(describeFailure({ method, path, repository: this.repository, status: 0, message: (error as Error).message, details: [], headers: new Headers() }), 0);
      }
      const data = await readJson(response);
      if (response.ok) return { status: response.status, headers: response.headers, data };

      const { message, details } = readErrorMessage(data, response.statusText);
      const decision = decideRetry(response.status, response.headers, message, this.clock.nowMs());
      if (attempt === 1 && decision.retry && decision.waitMs <= this.maxRetryWaitMs) {
        await this.sleep(decision.waitMs);
        continue;
      }
      throw new GitHubApiError(describeFailure({ method, path, repository: this.repository, status: response.status, message, details, headers: response.headers }), response.status, message);
    }
  }

  private resolveUrl(pathOrUrl: string): string {
    if (pathOrUrl.startsWith('/')) return `${this.apiUrl}${pathOrUrl}`;
    if (new URL(pathOrUrl).origin !== new URL(this.apiUrl).origin) {
      throw new GitHubApiError(`GitHub pagination pointed outside ${this.apiUrl} (${pathOrUrl}); not following it with the token`, 0);
    }
    return pathOrUrl;
  }
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function readErrorMessage(data: unknown, fallback: string): { message: string; details: string[] } {
  if (typeof data !== 'object' || data === null) return { message: typeof data === 'string' && data.length < 200 ? data : fallback, details: [] };
  const record = data as { message?: unknown; errors?: unknown };
  const details = Array.isArray(record.errors)
    ? record.errors.map((e: unknown) => (typeof e === 'string' ? e : String((e as { message?: unknown; code?: unknown }).message ?? (e as { code?: unknown }).code ?? JSON.stringify(e))))
    : [];
  return { message: typeof record.message === 'string' ? record.message : fallback, details };
}

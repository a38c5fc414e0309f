/**
 * A GitHub REST API on loopback with the endpoints `cronform github comment` uses: list (paginated
 * with `Link`, at most 100 per page), create, update and delete issue comments, the pull
 * requests of a commit, and `GET /user`. By default the token is an installation token, as the
 * Actions GITHUB_TOKEN is: `/user` is refused and comments are written by `github-actions[bot]`;
 * setting `identity` makes it a personal token of that account. Faults are scripted per request; `holdCommentLists(n)` holds the first n
 * list requests until all n arrived, which forces two runs into the create/create race.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeComment {
  id: number;
  issue: number;
  body: string;
  user: { login: string; type: string };
  created_at: string;
  updated_at: string;
  html_url: string;
}

export interface FakePull {
  number: number;
  merged_at: string | null;
  merge_commit_sha: string | null;
}

export interface ScriptedFault {
  method: string;
  /** Matches the request path (without query). */
  path?: RegExp;
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** How many matching requests fail (default 1). */
  times?: number;
}

export interface LoggedRequest {
  method: string;
  path: string;
  query: string;
  body: unknown;
}

export const FAKE_TOKEN = 'test-token';
export const ACTIONS_BOT = { login: 'github-actions[bot]', type: 'Bot' };
export const FAKE_REPOSITORY = 'acme/schedules';
const MAX_BODY_CHARS = 65_536;

export class FakeGitHub {
  readonly requests: LoggedRequest[] = [];
  readonly comments: FakeComment[] = [];
  pullsByCommit = new Map<string, FakePull[]>();
  /** The account of a personal token; null: an installation token (GET /user answers 403). */
  identity: { login: string; type: string } | null = null;
  private nextId = 1000;
  private faults: ScriptedFault[] = [];
  private held: Array<() => void> = [];
  private holdCount = 0;
  private server: Server | undefined;
  url = '';

  async start(): Promise<string> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  addComment(issue: number, body: string, user = { login: 'someone', type: 'User' }): FakeComment {
    const id = this.nextId++;
    const now = new Date(Date.UTC(2026, 5, 1, 12, 0, 0) + id * 1000).toISOString();
    const comment = { id, issue, body, user, created_at: now, updated_at: now, html_url: `https://github.com/${FAKE_REPOSITORY}/pull/${issue}#issuecomment-${id}` };
    this.comments.push(comment);
    return comment;
  }

  commentsOn(issue: number): FakeComment[] {
    return this.comments.filter((c) => c.issue === issue);
  }

  failNext(fault: ScriptedFault): void {
    this.faults.push({ times: 1, ...fault });
  }

  /** The next `count` comment listings wait until all of them have arrived. */
  holdCommentLists(count: number): void {
    this.holdCount = count;
    this.held = [];
  }

  count(method: string, path?: RegExp): number {
    return this.requests.filter((r) => r.method === method && (!path || path.test(r.path))).length;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url);
    const text = await readBody(request);
    const body = text ? (JSON.parse(text) as unknown) : undefined;
    const method = request.method ?? 'GET';
    this.requests.push({ method, path: url.pathname, query: url.search, body });

    if (request.headers.authorization !== `Bearer ${FAKE_TOKEN}`) return send(response, 401, { message: 'Bad credentials' });
    const fault = this.faults.find((f) => f.method === method && (!f.path || f.path.test(url.pathname)));
    if (fault) {
      fault.times = (fault.times ?? 1) - 1;
      if (fault.times <= 0) this.faults.splice(this.faults.indexOf(fault), 1);
      return send(response, fault.status, fault.body ?? { message: `scripted ${fault.status}` }, fault.headers);
    }

    if (url.pathname === '/user' && method === 'GET') {
      return this.identity ? send(response, 200, { ...this.identity, id: 1 }) : send(response, 403, { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest/users/users#get-the-authenticated-user' });
    }
    const prefix = `/repos/${FAKE_REPOSITORY}`;
    if (!url.pathname.startsWith(`${prefix}/`)) return send(response, 404, { message: 'Not Found' });
    const route = url.pathname.slice(prefix.length);
    let match: RegExpExecArray | null;
    if ((match = /^\/issues\/(\d+)\/comments$/.exec(route))) {
      const issue = Number(match[1]);
      if (method === 'GET') return this.listComments(issue, url, response);
      if (method === 'POST') return this.createComment(issue, body, response);
    }
    if ((match = /^\/issues\/comments\/(\d+)$/.exec(route))) {
      const comment = this.comments.find((c) => c.id === Number(match![1]));
      if (!comment) return send(response, 404, { message: 'Not Found' });
      if (method === 'PATCH') {
        const problem = checkBody(body);
        if (problem) return send(response, 422, problem);
        comment.body = (body as { body: string }).body;
        comment.updated_at = new Date().toISOString();
        return send(response, 200, comment);
      }
      if (method === 'DELETE') {
        this.comments.splice(this.comments.indexOf(comment), 1);
        return send(response, 204, null);
      }
    }
    if ((match = /^\/commits\/([0-9a-f]+)\/pulls$/.exec(route)) && method === 'GET') {
      return send(response, 200, (this.pullsByCommit.get(match[1]!) ?? []).map((p) => ({ ...p, html_url: `https://github.com/${FAKE_REPOSITORY}/pull/${p.number}` })));
    }
    return send(response, 404, { message: 'Not Found' });
  }

  private async listComments(issue: number, url: URL, response: ServerResponse): Promise<void> {
    if (this.holdCount > 0) {
      this.holdCount -= 1;
      const release = new Promise<void>((resolve) => this.held.push(resolve));
      if (this.holdCount === 0) for (const resolve of this.held) resolve();
      await release;
    }
    const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 30));
    const page = Number(url.searchParams.get('page') ?? 1);
    const all = this.commentsOn(issue);
    const last = Math.max(1, Math.ceil(all.length / perPage));
    const links: string[] = [];
    const pageUrl = (n: number) => `${this.url}${url.pathname}?per_page=${perPage}&page=${n}`;
    if (page < last) links.push(`<${pageUrl(page + 1)}>; rel="next"`, `<${pageUrl(last)}>; rel="last"`);
    if (page > 1) links.push(`<${pageUrl(1)}>; rel="first"`, `<${pageUrl(page - 1)}>; rel="prev"`);
    send(response, 200, all.slice((page - 1) * perPage, page * perPage), links.length > 0 ? { link: links.join(', ') } : {});
  }

  private createComment(issue: number, body: unknown, response: ServerResponse): void {
    const problem = checkBody(body);
    if (problem) return send(response, 422, problem);
    send(response, 201, this.addComment(issue, (body as { body: string }).body, this.identity ?? ACTIONS_BOT));
  }
}

function checkBody(body: unknown): object | null {
  const text = (body as { body?: unknown } | undefined)?.body;
  if (typeof text !== 'string' || text === '') return { message: 'Validation Failed', errors: [{ resource: 'IssueComment', code: 'missing_field', field: 'body' }] };
  if (text.length > MAX_BODY_CHARS) {
    return { message: 'Validation Failed', errors: [{ resource: 'IssueComment', code: 'custom', field: 'body', message: 'body is too long (maximum is 65536 characters)' }] };
  }
  return null;
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(body === null ? '' : JSON.stringify(body));
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

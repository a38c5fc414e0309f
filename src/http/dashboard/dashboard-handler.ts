/**
 * The dashboard (SPEC §8, issue 16 item 5): server-rendered pages on the runner's HTTP server at
 * `/` (schedules), `/schedules/<name>`, `/timeline`, `/waiting`, their stylesheet and script under
 * `/assets/`, and the actions at `POST /actions/<verb>`. Anything else is left to the server's
 * other handlers (metrics, health).
 *
 * Read-only unless `allowActions`; then each action needs `Authorization: Bearer <token>`,
 * compared in constant time. The token comes from the environment (CRONFORM_DASHBOARD_TOKEN, see
 * readDashboardToken), never from a flag, which `ps` would show to every user of the machine.
 * Every page sends a Content-Security-Policy that allows this server's own script and stylesheet
 * and nothing else: even if escaping failed somewhere, an injected script would not run.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Database } from '../../db/client.js';
import { RunOperationError } from '../../operations/runs/run-operation-error.js';
import type { Clock } from '../../shared/clock.js';
import type { HttpHandler } from '../http-handler.js';
import { ACTIONS, ActionRequestError, performAction, type DashboardAction } from './actions.js';
import { DASHBOARD_CSS, DASHBOARD_JS } from './assets.js';
import { html, type Html } from './html.js';
import { renderPage, type Section } from './layout.js';
import { renderSchedulePage } from './schedule-page.js';
import { renderSchedulesPage, type ListQuery } from './schedules-page.js';
import { renderTimelinePage } from './timeline-page.js';
import { renderWaitingPage } from './waiting-page.js';
import { isAllowedHost } from './host-check.js';

export const DASHBOARD_TOKEN_ENV = 'CRONFORM_DASHBOARD_TOKEN';
export const DEFAULT_DASHBOARD_ACTOR = 'dashboard';
export const MIN_TOKEN_LENGTH = 16;
const MAX_ACTION_BODY_BYTES = 16 * 1024;

export interface DashboardOptions {
  database: Database;
  /** Read once per request: "now" of the pages and of the actions' audit rows. */
  clock: Clock;
  /** `--allow-actions`: offer and accept actions. Needs `token`. */
  allowActions: boolean;
  /** The bearer token actions must carry (readDashboardToken). */
  token?: string | undefined;
  /** Audit actor of the actions; default `dashboard`. */
  actor?: string | undefined;
  /**
   * Host names (besides IP literals and localhost) the pages and actions answer to: any other Host
   * header gets 421, against DNS rebinding (host-check.ts). `--http-allowed-hosts`.
   */
  allowedHosts?: readonly string[] | undefined;
  /** Unexpected failures (a bug, the database gone): the page says only "internal error". */
  onError?: ((error: unknown, what: string) => void) | undefined;
}

/** A dashboard started with options that cannot work: the command reports it and exits. */
export class DashboardConfigurationError extends Error {}

/**
 * The token from the environment; undefined when unset or empty. `--allow-actions` without one is
 * refused by createDashboardHandler, as is a token too short to resist guessing.
 */
export function readDashboardToken(env: NodeJS.ProcessEnv): string | undefined {
  const token = env[DASHBOARD_TOKEN_ENV]?.trim();
  return token ? token : undefined;
}

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

function send(response: ServerResponse, request: IncomingMessage, status: number, contentType: string, body: string, extra: Record<string, string> = {}): void {
  response.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': contentType, 'Content-Length': String(Buffer.byteLength(body)), ...extra });
  response.end(request.method === 'HEAD' ? undefined : body);
}

function sendJson(response: ServerResponse, request: IncomingMessage, status: number, value: unknown, extra: Record<string, string> = {}): void {
  send(response, request, status, 'application/json; charset=utf-8', JSON.stringify(value), extra);
}

function listQuery(url: URL): ListQuery {
  const query = (url.searchParams.get('q') ?? '').trim().slice(0, 200);
  const page = Number(url.searchParams.get('page') ?? '1');
  return { query, page: Number.isSafeInteger(page) && page >= 1 && page <= 1_000_000 ? page : 1 };
}

async function readJsonBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_ACTION_BODY_BYTES) throw new ActionRequestError(`the request body is over ${MAX_ACTION_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
  } catch {
    throw new ActionRequestError('the request body is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ActionRequestError('the request body must be a JSON object');
  return parsed as Record<string, unknown>;
}

/** No Origin header (curl, scripts) or this server's own. */
function isSameOrigin(request: IncomingMessage): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

/** Throws DashboardConfigurationError for actions without a usable token; commands call it before they open anything. */
export function checkDashboardConfiguration(options: { allowActions: boolean; token?: string | undefined }): void {
  if (options.allowActions && options.token === undefined) {
    throw new DashboardConfigurationError(`--allow-actions needs a token: set ${DASHBOARD_TOKEN_ENV} in the environment (at least ${MIN_TOKEN_LENGTH} characters, e.g. from openssl rand -hex 32); actions are refused without one`);
  }
  if (options.allowActions && options.token !== undefined && options.token.length < MIN_TOKEN_LENGTH) {
    throw new DashboardConfigurationError(`${DASHBOARD_TOKEN_ENV} is too short (${options.token.length} characters): use at least ${MIN_TOKEN_LENGTH}, e.g. openssl rand -hex 32`);
  }
}

export function createDashboardHandler(options: DashboardOptions): HttpHandler {
  checkDashboardConfiguration(options);
  const { database, clock } = options;
  const actionsAllowed = options.allowActions;
  const actor = options.actor ?? DEFAULT_DASHBOARD_ACTOR;
  // Read-only: no token is kept, so none can ever be accepted.
  const tokenDigest = options.allowActions && options.token !== undefined ? digest(options.token) : undefined;

  /** Hashing both sides first gives equal lengths to compare, and the comparison takes the same time whatever matches. */
  const carriesToken = (request: IncomingMessage): boolean => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    return tokenDigest !== undefined && match !== null && timingSafeEqual(digest(match[1]!), tokenDigest);
  };

  const renderHtml = async (request: IncomingMessage, response: ServerResponse, section: Section, render: (nowMs: number) => Promise<{ title: string; body: Html } | undefined>): Promise<void> => {
    const started = performance.now();
    const nowMs = clock.nowMs();
    let page: { title: string; body: Html } | undefined;
    try {
      page = await render(nowMs);
    } catch (error) {
      options.onError?.(error, `GET ${section}`);
      send(response, request, 500, 'text/html; charset=utf-8', renderPage({ title: 'Error', section, actionsAllowed, nowMs }, html`<h1>Internal error</h1><p>The dashboard could not build this page; the runner's log has the details.</p>`).text);
      return;
    }
    const status = page === undefined ? 404 : 200;
    page ??= { title: 'Not found', body: html`<h1>Not found</h1><p>No schedule has that name. <a href="/">All schedules</a></p>` };
    const text = renderPage({ title: page.title, section, actionsAllowed, nowMs }, page.body).text;
    send(response, request, status, 'text/html; charset=utf-8', text, { 'Server-Timing': `render;dur=${(performance.now() - started).toFixed(1)}` });
  };

  const handleAction = async (request: IncomingMessage, response: ServerResponse, verb: string): Promise<void> => {
    if (!actionsAllowed) return sendJson(response, request, 403, { error: 'actions are disabled: this dashboard is read-only (the runner needs --allow-actions and a token)' });
    if (!carriesToken(request)) return sendJson(response, request, 401, { error: 'a valid dashboard token is required (Authorization: Bearer …)' }, { 'WWW-Authenticate': 'Bearer realm="cronform"' });
    if (!isSameOrigin(request)) return sendJson(response, request, 403, { error: 'cross-origin actions are refused' });
    if (!ACTIONS.includes(verb as DashboardAction)) return sendJson(response, request, 404, { error: `no action ${JSON.stringify(verb)}: one of ${ACTIONS.join(', ')}` });
    if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) return sendJson(response, request, 415, { error: 'send the action as application/json' });
    try {
      const body = await readJsonBody(request);
      const outcome = await performAction(database, verb as DashboardAction, body, { nowMs: clock.nowMs(), actor });
      sendJson(response, request, 200, outcome);
    } catch (error) {
      if (error instanceof ActionRequestError) return sendJson(response, request, 400, { error: error.message });
      if (error instanceof RunOperationError) return sendJson(response, request, 409, { error: error.message });
      options.onError?.(error, `POST /actions/${verb}`);
      sendJson(response, request, 500, { error: "internal error: the runner's log has the details" });
    }
  };

  const allowedHosts = options.allowedHosts ?? [];
  const isDashboardPath = (path: string) =>
    path.startsWith('/actions/') || path === '/' || path === '/timeline' || path === '/waiting' || path.startsWith('/schedules/') || path === '/assets/dashboard.css' || path === '/assets/dashboard.js';

  return async (request, response, url) => {
    const path = url.pathname;
    const method = request.method ?? 'GET';
    if (!isDashboardPath(path)) return false;
    // Before anything else, actions included: a rebound name must not even learn which pages exist.
    if (!isAllowedHost(request.headers.host, allowedHosts)) {
      const shown = JSON.stringify((request.headers.host ?? '').slice(0, 100));
      send(response, request, 421, 'text/plain; charset=utf-8', `the dashboard answers only requests to an IP address, localhost or a host named by --http-allowed-hosts, not Host: ${shown} (DNS rebinding protection)\n`);
      return true;
    }
    if (path.startsWith('/actions/')) {
      if (method !== 'POST') {
        sendJson(response, request, 405, { error: 'actions are POST requests' }, { Allow: 'POST' });
        return true;
      }
      await handleAction(request, response, path.slice('/actions/'.length));
      return true;
    }
    if (method !== 'GET' && method !== 'HEAD') {
      send(response, request, 405, 'text/plain; charset=utf-8', 'method not allowed\n', { Allow: 'GET, HEAD' });
      return true;
    }
    if (path === '/assets/dashboard.css') send(response, request, 200, 'text/css; charset=utf-8', DASHBOARD_CSS);
    else if (path === '/assets/dashboard.js') send(response, request, 200, 'text/javascript; charset=utf-8', DASHBOARD_JS);
    else if (path === '/') await renderHtml(request, response, 'schedules', (nowMs) => renderSchedulesPage(database, listQuery(url), nowMs));
    else if (path === '/timeline') await renderHtml(request, response, 'timeline', (nowMs) => renderTimelinePage(database, listQuery(url), nowMs));
    else if (path === '/waiting') await renderHtml(request, response, 'waiting', (nowMs) => renderWaitingPage(database, nowMs, actionsAllowed));
    else {
      let name: string;
      try {
        name = decodeURIComponent(path.slice('/schedules/'.length));
      } catch {
        send(response, request, 400, 'text/plain; charset=utf-8', 'malformed schedule name in the path\n');
        return true;
      }
      await renderHtml(request, response, 'schedule', (nowMs) => renderSchedulePage(database, name, nowMs, actionsAllowed));
    }
    return true;
  };
}

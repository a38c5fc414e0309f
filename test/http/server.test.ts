/**
 * The runner's HTTP server over real sockets: handler order, 404 and 405, a throwing handler
 * answered 500 without stopping the server, a port in use refused with a clear error, and
 * /healthz in both states (its loop source faked, its database a real PGlite).
 */
import { request } from 'node:http';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { createHealthHandler } from '../../src/http/health-handler.js';
import type { HttpHandler } from '../../src/http/http-handler.js';
import { createRunnerMetrics, runnerHandlers } from '../../src/http/runner-http.js';
import { HttpListenError, startHttpServer, type HttpServer } from '../../src/http/server.js';
import { acceptReadOnly, sendText } from '../../src/http/responses.js';
import { Runner } from '../../src/runner/runner.js';
import { ManualClock } from '../../src/shared/clock.js';
import { createJsonLogger, silentLogger } from '../../src/shared/logger.js';
import { createPgliteDatabase } from '../support/databases.js';

const T0 = Date.parse('2026-11-30T12:00:00Z');
const LEASE_MS = 30_000;

/** A raw request (fetch cannot send a request target that is not a path, nor a Host header of its choosing). */
function rawRequest(url: string, options: { method?: string; path: string; headers?: Record<string, string> }): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method: options.method ?? 'GET', path: options.path, headers: options.headers ?? {} }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('startHttpServer', () => {
  const servers: HttpServer[] = [];
  let database: Database | undefined;
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
    await database?.close();
    database = undefined;
  });
  const start = async (handlers: HttpHandler[], logger = silentLogger) => {
    const server = await startHttpServer({ address: '127.0.0.1:0', handlers, logger });
    servers.push(server);
    return server;
  };

  it('offers a request to each handler in order; none answering is a 404', async () => {
    const seen: string[] = [];
    const first: HttpHandler = async (_req, res, url) => {
      seen.push(`first ${url.pathname}`);
      if (url.pathname !== '/one') return false;
      sendText(res, 200, 'text/plain', 'one');
      return true;
    };
    const second: HttpHandler = async (_req, res, url) => {
      seen.push(`second ${url.pathname}${url.search}`);
      if (url.pathname !== '/two') return false;
      sendText(res, 200, 'text/plain', 'two');
      return true;
    };
    const server = await start([first, second]);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await (await fetch(`${server.url}/one`)).text()).toBe('one');
    expect(await (await fetch(`${server.url}/two?x=1`)).text()).toBe('two');
    const missing = await fetch(`${server.url}/three`);
    expect([missing.status, await missing.text()]).toEqual([404, 'not found: /three\n']);
    expect(seen).toEqual(['first /one', 'first /two', 'second /two?x=1', 'first /three', 'second /three']);
  });

  it('answers 405 with Allow for a known path asked with another method', async () => {
    const readOnly: HttpHandler = async (_req, res, url) => {
      if (url.pathname !== '/metrics') return false;
      if (acceptReadOnly(res)) sendText(res, 200, 'text/plain', 'ok');
      return true;
    };
    const server = await start([readOnly]);
    const posted = await fetch(`${server.url}/metrics`, { method: 'POST', body: 'x' });
    expect([posted.status, posted.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    const head = await fetch(`${server.url}/metrics`, { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
  });

  it('answers 500 and logs when a handler throws, and keeps serving', async () => {
    const lines: string[] = [];
    const logger = createJsonLogger({ write: (line) => lines.push(line) });
    let calls = 0;
    const flaky: HttpHandler = async (_req, res) => {
      calls += 1;
      if (calls === 1) throw new Error('database went away');
      sendText(res, 200, 'text/plain', 'fine');
      return true;
    };
    const server = await start([flaky], logger);
    const failed = await fetch(`${server.url}/x`);
    expect([failed.status, await failed.text()]).toEqual([500, 'internal error (see the runner log)\n']);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'error', msg: 'http handler failed', method: 'GET', path: '/x', error: 'database went away' });
    expect(await (await fetch(`${server.url}/x`)).text()).toBe('fine');
  });

  it('parses the request target against its own origin: a path starting with // cannot change the host', async () => {
    const hosts: string[] = [];
    const server = await start([
      async (_req, res, url) => {
        hosts.push(`${url.host} ${url.pathname}`);
        sendText(res, 200, 'text/plain', 'ok');
        return true;
      },
    ]);
    await rawRequest(server.url, { path: '//evil.example/metrics' });
    expect(hosts).toEqual([`${new URL(server.url).host} //evil.example/metrics`]);
    expect(await rawRequest(server.url, { path: 'http://evil.example/metrics' })).toEqual({ status: 400, body: 'bad request target\n' });
  });

  it('refuses a port in use with a message that says so', async () => {
    const server = await start([]);
    const { port } = new URL(server.url);
    const attempt = startHttpServer({ address: `127.0.0.1:${port}`, handlers: [], logger: silentLogger });
    await expect(attempt).rejects.toThrow(HttpListenError);
    await expect(attempt).rejects.toThrow(`cannot listen on 127.0.0.1:${port} (--http): the port is already in use (another runner or program listens there)`);
  });

  it('/healthz: 200 while the runner loop completes within a lease, 503 with the reason after', async () => {
    database = await createPgliteDatabase();
    const clock = new ManualClock(T0);
    let lastLoopMs: number | undefined;
    const server = await start([createHealthHandler({ source: { runnerId: 'r-1', lastSuccessfulLoopMs: () => lastLoopMs }, database, clock, staleAfterMs: LEASE_MS })]);
    const health = async () => {
      const response = await fetch(`${server.url}/healthz`);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    // Starting: the start counts as a completed loop.
    clock.set(T0 + LEASE_MS);
    expect(await health()).toEqual({ status: 200, body: { status: 'ok', runnerId: 'r-1', database: { reachable: true }, lastSuccessfulLoop: null, problems: [] } });
    clock.set(T0 + LEASE_MS + 1);
    expect((await health()).status).toBe(503);
    lastLoopMs = T0 + 40_000;
    clock.set(T0 + 40_000 + LEASE_MS);
    expect((await health()).body).toMatchObject({ status: 'ok', lastSuccessfulLoop: '2026-11-30T12:00:40.000Z' });
    clock.set(T0 + 40_000 + LEASE_MS + 1_000);
    expect(await health()).toEqual({
      status: 503,
      body: { status: 'failing', runnerId: 'r-1', database: { reachable: true }, lastSuccessfulLoop: '2026-11-30T12:00:40.000Z', problems: ['runner loop has not completed for 31 s (limit 30 s)'] },
    });
    lastLoopMs = clock.nowMs();
    await database.close();
    const unreachable = await health();
    expect(unreachable.status).toBe(503);
    expect(unreachable.body).toMatchObject({ status: 'failing', database: { reachable: false }, problems: [expect.stringMatching(/^database unreachable: /)] });
    database = undefined;
  });

  it('/metrics without a database: its gauges left out, cronform_metrics_database_up 0, the counters still served', async () => {
    const closed = await createPgliteDatabase();
    const clock = new ManualClock(T0);
    const lines: string[] = [];
    const metrics = createRunnerMetrics({ database: closed, clock, logger: createJsonLogger({ write: (line) => lines.push(line) }), leaseMs: LEASE_MS });
    metrics.schedulerTicked(12);
    expect(await metrics.render()).toContain('cronform_runners_alive 0');
    await closed.db.execute(sql`insert into runners (id, hostname, pid, version, started_at, heartbeat_at) values ('r', 'h', 1, 'v', ${new Date(T0).toISOString()}::timestamptz, ${new Date(T0).toISOString()}::timestamptz)`);
    await closed.db.execute(sql`insert into schedules (name, version, definition, digest) values ('s', 1, '{}', 'd')`);
    await closed.db.execute(sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts)
      select id, 1, now(), 'MANUAL', 'k', 'QUEUED', 2, 'reports', now(), 1 from schedules`);
    const live = await metrics.render();
    expect(live).toContain('cronform_runners_alive 1');
    expect(live).toContain('cronform_queue_depth{queue="reports",status="QUEUED"} 1');
    await closed.close();
    const text = await metrics.render();
    expect(text).toContain('cronform_metrics_database_up 0');
    expect(text).toMatch(/^cronform_runners_alive nan$/im); // prom-client writes "Nan"; Prometheus reads any case
    expect(text).not.toMatch(/^cronform_queue_depth\{/m);
    expect(text).toContain('cronform_scheduler_tick_duration_seconds_count 1');
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toContain('metrics: could not read the database');
  });

  it('serves the runner handlers: /metrics and /healthz of a started runner, whose loop reports its completions, and the read-only dashboard', async () => {
    database = await createPgliteDatabase();
    const clock = new ManualClock(T0);
    const metrics = createRunnerMetrics({ database, clock, logger: silentLogger, leaseMs: LEASE_MS });
    const runner = new Runner(database, { clock, concurrency: 1, leaseMs: LEASE_MS, baseDir: process.cwd(), env: {}, observer: metrics });
    await runner.start();
    try {
      // The first loop on PGlite took 3-6 s on a loaded 2-core host (vi.waitFor gives 1 s by default).
      await vi.waitFor(() => expect(runner.lastSuccessfulLoopMs).toBe(T0), { timeout: 20_000 });
      const handlers = runnerHandlers({ database, clock, logger: silentLogger, metrics, leaseMs: LEASE_MS, runner: { runnerId: runner.id, lastSuccessfulLoopMs: () => runner.lastSuccessfulLoopMs }, dashboard: { allowActions: false } });
      const server = await start(handlers);
      const page = await fetch(`${server.url}/`);
      expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
      expect(await page.text()).toContain('</html>');
      // Read-only: an action is refused whatever it carries.
      const action = await fetch(`${server.url}/actions/trigger`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer 0123456789abcdef0123' }, body: '{"schedule":"x"}' });
      expect(action.status).toBe(403);
      const healthz = await fetch(`${server.url}/healthz`);
      expect([healthz.status, ((await healthz.json()) as { runnerId: string }).runnerId]).toEqual([200, runner.id]);
      const text = await (await fetch(`${server.url}/metrics`)).text();
      expect(text).toContain('# TYPE cronform_runs_total counter');
      expect(text).toContain('cronform_runners_alive 1');
      expect(text).toContain('cronform_metrics_database_up 1');
      expect((await fetch(`${server.url}/healthz`, { method: 'DELETE' })).status).toBe(405);
    } finally {
      await runner.stop();
    }
  }, 60_000);

  it('answers the dashboard only for IP, localhost and allowed Host headers (DNS rebinding), /metrics and /healthz for any', async () => {
    database = await createPgliteDatabase();
    const clock = new ManualClock(T0);
    const metrics = createRunnerMetrics({ database, clock, logger: silentLogger, leaseMs: LEASE_MS });
    const source = { runnerId: 'r1', lastSuccessfulLoopMs: () => T0 };
    const handlers = runnerHandlers({ database, clock, logger: silentLogger, metrics, leaseMs: LEASE_MS, runner: source, dashboard: { allowActions: false, allowedHosts: ['cronform.internal'] } });
    const server = await start(handlers);
    const { port } = new URL(server.url);
    const status = async (path: string, host: string, method = 'GET') => (await rawRequest(server.url, { path, method, headers: { Host: host } })).status;
    // A name rebound to 127.0.0.1 by a page the operator visits: no page, asset or action.
    for (const path of ['/', '/waiting', '/timeline', '/schedules/x', '/assets/dashboard.js']) expect([path, await status(path, `evil.example:${port}`)]).toEqual([path, 421]);
    expect(await status('/actions/trigger', `evil.example:${port}`, 'POST')).toBe(421);
    expect(await status('/', 'cronform.internal.evil.example')).toBe(421);
    expect(await status('/', 'localhost.evil.example')).toBe(421);
    const refused = await rawRequest(server.url, { path: '/', headers: { Host: 'evil.example' } });
    expect(refused.body).toContain('--http-allowed-hosts');
    // Addressed by IP, localhost or an allowed name: served.
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'LOCALHOST', `[::1]:${port}`, `cronform.internal:${port}`, 'Cronform.Internal.']) expect([host, await status('/', host)]).toEqual([host, 200]);
    // Prometheus and health checks reach the runner by name: never refused for it.
    expect(await status('/healthz', `runner-1.prod.example:${port}`)).toBe(200);
    expect(await status('/metrics', `runner-1.prod.example:${port}`)).toBe(200);
  });
});

import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpJobDefinition } from '../../../src/compile/definition.js';
import { executeJob, type ExecuteOptions } from '../../../src/runner/executors/execute-job.js';
import { context, repoRoot, runnerEnv, startServer, type RecordedRequest, type TestServer } from './executor-fixtures.js';

const options: ExecuteOptions = { timeoutMs: 10_000, env: runnerEnv, baseDir: repoRoot };

function httpJob(url: string, more: Partial<HttpJobDefinition> = {}): HttpJobDefinition {
  return { type: 'http', url, method: 'POST', headers: {}, expectStatus: [[200, 299]], ...more };
}

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(status: number, body = ''): Promise<TestServer> {
  const server = await startServer((_request, response) => response.writeHead(status, { 'content-type': 'text/plain' }).end(body));
  servers.push(server);
  return server;
}

function onlyRequest(server: TestServer): RecordedRequest {
  expect(server.requests).toHaveLength(1);
  return server.requests[0]!;
}

describe('http jobs', () => {
  it('succeeds on an expected status, sending the run identity and a header from the runner environment', async () => {
    const server = await serve(200, 'accepted');
    const job = httpJob(`${server.url}/reports/{{businessDate}}?key={{idempotencyKey}}`, {
      headers: { Authorization: { fromEnv: 'NOTION_TOKEN' }, 'X-Date': '{{businessDate}}', 'Idempotency-Key': 'forged' },
      body: 'date={{businessDate}}',
    });
    const outcome = await executeJob(job, context, options);
    expect(outcome).toMatchObject({ status: 'SUCCEEDED', httpStatus: 200, exitCode: null, error: null, stdoutTail: 'accepted', stderrTail: null });
    const request = onlyRequest(server);
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/reports/2026-03-07?key=daily-report%3A2026-03-08T10%3A30%3A00.000Z%3ASCHEDULED');
    expect(request.headers).toMatchObject({
      authorization: 'notion-secret-value',
      'x-date': '2026-03-07',
      'idempotency-key': 'daily-report:2026-03-08T10:30:00.000Z:SCHEDULED',
      'x-cronform-run-id': '42',
      'x-cronform-attempt': '2',
      'user-agent': 'cronform',
    });
    expect(request.headers['content-type']).toMatch(/^text\/plain/);
    expect(request.body).toBe('date=2026-03-07');
  });

  it('redacts header values from the environment that the server reflects in its body', async () => {
    const server = await startServer((request, response) => response.writeHead(401).end(JSON.stringify({ error: 'bad credentials', got: request.headers })));
    servers.push(server);
    const job = httpJob(server.url, { headers: { Authorization: { fromEnv: 'BEARER_TOKEN' }, 'X-Api-Key': { fromEnv: 'NOTION_TOKEN' } } });
    const outcome = await executeJob(job, context, { ...options, env: { ...runnerEnv, BEARER_TOKEN: 'Bearer s3cr3t-bearer-credential' } });
    expect(outcome).toMatchObject({ status: 'FAILED', httpStatus: 401 });
    const body = JSON.parse(outcome.stdoutTail!) as { got: Record<string, string> };
    expect(body.got).toMatchObject({ authorization: '[redacted:BEARER_TOKEN]', 'x-api-key': '[redacted:NOTION_TOKEN]' });
    expect(JSON.stringify(outcome)).not.toMatch(/s3cr3t|notion-secret/);
  });

  it('sends an object body as JSON, placeholders substituted in its string values', async () => {
    const server = await serve(200);
    const outcome = await executeJob(httpJob(server.url, { method: 'put', body: { date: '{{businessDate}}', count: 3, note: 'say "hi"' } }), context, options);
    expect(outcome.status).toBe('SUCCEEDED');
    const request = onlyRequest(server);
    expect(request.method).toBe('PUT');
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual({ date: '2026-03-07', count: 3, note: 'say "hi"' });
  });

  it('keeps a content-type the job sets', async () => {
    const server = await serve(200);
    await executeJob(httpJob(server.url, { headers: { 'Content-Type': 'application/vnd.api+json' }, body: { a: 1 } }), context, options);
    expect(onlyRequest(server).headers['content-type']).toBe('application/vnd.api+json');
  });

  it('fails on an unexpected status, keeping the tail of the response body', async () => {
    const server = await serve(503, `${'x'.repeat(100)}overloaded`);
    const outcome = await executeJob(httpJob(server.url), context, { ...options, maxOutputBytes: 13 });
    expect(outcome).toMatchObject({ status: 'FAILED', httpStatus: 503, error: 'HTTP 503 (expected 200-299)', stdoutTail: 'xxxoverloaded' });
  });

  it.each([
    [204, [[204, 204]], 'SUCCEEDED', null],
    [200, [[204, 204]], 'FAILED', 'HTTP 200 (expected 204)'],
    [302, [[200, 299]], 'FAILED', 'HTTP 302 (expected 200-299)'],
    [404, [[200, 299], [404, 404]], 'SUCCEEDED', null],
  ] as const)('judges status %i against %j', async (status, expectStatus, outcomeStatus, error) => {
    const server = await startServer((_request, response) => response.writeHead(status, status === 302 ? { location: '/elsewhere' } : {}).end());
    servers.push(server);
    const outcome = await executeJob(httpJob(server.url, { expectStatus: expectStatus.map(([low, high]) => [low, high]) }), context, options);
    expect(outcome).toMatchObject({ status: outcomeStatus, httpStatus: status, error });
    expect(server.requests).toHaveLength(1);
  });

  it('times out against a server that never answers', async () => {
    const server = await startServer(() => {});
    servers.push(server);
    const outcome = await executeJob(httpJob(server.url), context, { ...options, timeoutMs: 200 });
    expect(outcome).toMatchObject({ status: 'TIMED_OUT', error: 'timed out after 200ms', httpStatus: null });
  });

  it('times out while the response body is still streaming, keeping what arrived', async () => {
    const server = await startServer((_request, response) => response.writeHead(200).write('partial'));
    servers.push(server);
    const outcome = await executeJob(httpJob(server.url), context, { ...options, timeoutMs: 300 });
    expect(outcome).toMatchObject({ status: 'TIMED_OUT', stdoutTail: 'partial' });
  });

  it('reports CANCELLED when aborted, leaving no listener behind', async () => {
    const controller = new AbortController();
    const server = await startServer(() => controller.abort());
    servers.push(server);
    const outcome = await executeJob(httpJob(server.url), context, { ...options, signal: controller.signal });
    expect(outcome).toMatchObject({ status: 'CANCELLED', error: 'cancelled' });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('fails with the cause code when the connection is refused', async () => {
    const server = await serve(200);
    await server.close();
    servers.pop();
    const outcome = await executeJob(httpJob(server.url), context, options);
    expect(outcome).toMatchObject({ status: 'FAILED', error: 'request failed: ECONNREFUSED', httpStatus: null });
  });

  it.each([
    ['a missing secret header', httpJob('http://127.0.0.1:9/', { headers: { Authorization: { fromEnv: 'API_TOKEN' } } }), 'environment variable API_TOKEN is not set on this runner: set API_TOKEN to enable this job'],
    ['an unknown placeholder in the url', httpJob('http://127.0.0.1:9/{{date}}'), 'unknown placeholder {{date}} in url (known: businessDate, scheduledFor, runId, attempt, idempotencyKey, schedule, trigger, upstreamRunId)'],
    ['an unknown placeholder in a header', httpJob('http://127.0.0.1:9/', { headers: { 'X-Day': '{{day}}' } }), 'unknown placeholder {{day}} in headers.X-Day (known: businessDate, scheduledFor, runId, attempt, idempotencyKey, schedule, trigger, upstreamRunId)'],
    ['an unknown placeholder in the body', httpJob('http://127.0.0.1:9/', { body: { nested: ['{{day}}'] } }), 'unknown placeholder {{day}} in body (known: businessDate, scheduledFor, runId, attempt, idempotencyKey, schedule, trigger, upstreamRunId)'],
    ['a secret with a trailing newline', httpJob('http://127.0.0.1:9/', { headers: { Authorization: { fromEnv: 'NEWLINE_TOKEN' } } }), 'header Authorization has an invalid value (contains a line break or NUL)'],
    ['a GET with a body', httpJob('http://127.0.0.1:9/', { method: 'GET', body: 'x' }), 'a GET request cannot have a body'],
    ['a url that is not http', httpJob('file:///etc/passwd'), 'url must use http or https (got file:)'],
  ])('fails without sending on %s', async (_case, job, error) => {
    const outcome = await executeJob(job, context, { ...options, env: { ...runnerEnv, NEWLINE_TOKEN: 'newline-secret-value\n' } });
    expect(outcome).toMatchObject({ status: 'FAILED', error, httpStatus: null });
    expect(JSON.stringify(outcome)).not.toMatch(/secret-value/);
  });
});

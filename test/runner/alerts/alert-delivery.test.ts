/**
 * Alert delivery over real loopback sockets: retries with backoff on the manual clock, the two
 * payload formats as receivers see them, and a dead receiver (one that accepts and never answers,
 * one that refuses) that must never hold up the runner's loop.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../../src/db/client.js';
import { AlertDispatcher, type DeliveryResult } from '../../../src/runner/alerts/dispatcher.js';
import type { AlertMessage } from '../../../src/runner/alerts/payloads.js';
import type { ExecutionOutcome } from '../../../src/runner/run-types.js';
import { Runner } from '../../../src/runner/runner.js';
import { ManualClock } from '../../../src/shared/clock.js';
import { applyManifests, scheduleManifest } from '../../support/apply-manifests.js';
import { createPgliteDatabase } from '../../support/databases.js';
import { heldJobs } from '../held-jobs.js';

const T0 = Date.parse('2026-11-29T12:00:00Z');
const MESSAGE: AlertMessage = {
  event: 'firing',
  alert: { id: 7, rule: 'run-failed', schedule: 'billing', criticality: 'CRITICAL', summary: 'billing: run 42 failed: exited with code 1 <@here> & more', details: { runId: 42, command: 'cronform runs show 42' }, openedAt: '2026-11-29T13:00:05.000Z', resolvedAt: null },
  runner: 'host-1-abc',
};

interface Received {
  contentType: string | undefined;
  body: unknown;
}

/** A receiver answering each request with the next status of `statuses` (the last one repeats). */
async function startReceiver(statuses: number[]): Promise<{ url: string; received: Received[]; server: Server; whenReceived: (count: number) => Promise<void> }> {
  const received: Received[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      received.push({ contentType: request.headers['content-type'], body: JSON.parse(text) });
      response.writeHead(statuses[Math.min(received.length - 1, statuses.length - 1)]!).end();
      for (const waiter of waiters.filter((w) => received.length >= w.count)) waiter.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const whenReceived = (count: number) => (received.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve })));
  return { url: `http://127.0.0.1:${port}/hook`, received, server, whenReceived };
}

const servers: Array<Server | TcpServer> = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

describe('alert delivery to a loopback receiver', () => {
  it('retries a receiver that fails twice (500, 503) with backoff on the clock, and succeeds on the third request', async () => {
    const receiver = await startReceiver([500, 503, 200]);
    servers.push(receiver.server);
    const clock = new ManualClock(T0);
    const results: DeliveryResult[] = [];
    const dispatcher = new AlertDispatcher({ clock, env: {}, initialBackoffMs: 1_000, onResult: (_id, _target, result) => results.push(result) });
    dispatcher.enqueue(MESSAGE, [{ name: 'oncall', type: 'webhook', url: receiver.url }]);
    await receiver.whenReceived(1);
    await clock.waitForTimerDueBy(T0 + 1_000); // the backoff, not before
    expect(receiver.received).toHaveLength(1);
    clock.advance(1_000);
    await receiver.whenReceived(2);
    await clock.waitForTimerDueBy(T0 + 3_000);
    clock.advance(2_000);
    await dispatcher.whenIdle();
    expect(receiver.received).toHaveLength(3);
    expect(results).toEqual([{ delivered: true, attempts: 3, error: null }]);
    // The same message each time, as the README documents it.
    expect(receiver.received[2]).toEqual({
      contentType: 'application/json',
      body: { version: 1, event: 'firing', dedupKey: 'cronform-alert-7-firing', alert: MESSAGE.alert, runner: 'host-1-abc', sentAt: '2026-11-29T12:00:03.000Z' },
    });
  });

  it('sends Slack incoming-webhook payloads ({ text, blocks }) with the url read from the runner environment', async () => {
    const receiver = await startReceiver([200]);
    servers.push(receiver.server);
    const results: DeliveryResult[] = [];
    const dispatcher = new AlertDispatcher({ clock: new ManualClock(T0), env: { TEAM_SLACK_URL: receiver.url }, onResult: (_id, _target, result) => results.push(result) });
    dispatcher.enqueue(MESSAGE, [{ name: 'team', type: 'slack', url: { fromEnv: 'TEAM_SLACK_URL' } }, { name: 'unset', type: 'slack', url: { fromEnv: 'NOT_SET_HERE' } }]);
    await dispatcher.whenIdle();
    expect(results).toEqual([
      { delivered: false, attempts: 0, error: 'unset: environment variable NOT_SET_HERE is not set on this runner' },
      { delivered: true, attempts: 1, error: null },
    ]);
    expect(receiver.received[0]!.body).toEqual({
      text: ':rotating_light: [CRITICAL] billing: run 42 failed: exited with code 1 &lt;@here&gt; &amp; more',
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: ':rotating_light: [CRITICAL] billing: run 42 failed: exited with code 1 &lt;@here&gt; &amp; more' } },
        { type: 'context', elements: [{ type: 'mrkdwn', text: 'rule `run-failed` · alert 7 · opened 2026-11-29T13:00:05.000Z · `cronform runs show 42` · `cronform alerts`' }] },
      ],
    });
  });

  it('a dead receiver (accepts and never answers) and a refusing one never hold up the runner loop', async () => {
    // Accepts connections and never answers.
    const dead = createTcpServer((socket) => sockets.push(socket));
    let connections = 0;
    dead.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    servers.push(dead);
    // A port nobody listens on any more: connections are refused.
    const closed = createTcpServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const refusedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    const database: Database = await createPgliteDatabase();
    try {
      const policy = `apiVersion: cronform/v1
kind: Policy
metadata: { name: default }
spec:
  alerts:
    targets:
      - { name: dead, type: webhook, url: "http://127.0.0.1:${(dead.address() as AddressInfo).port}/hook" }
      - { name: refused, type: slack, url: "http://127.0.0.1:${refusedPort}/hook" }
`;
      await applyManifests(database, { 'policy.yaml': policy, 'a.yaml': scheduleManifest('billing', { cron: '* * * * *', criticality: 'CRITICAL' }) }, T0);
      const clock = new ManualClock(T0 + 60_000 - 10);
      const jobs = heldJobs();
      const runner = new Runner(database, { clock, concurrency: 2, leaseMs: 30_000, baseDir: process.cwd(), env: {}, execute: jobs.execute, alerts: { intervalMs: 0, delivery: { requestTimeoutMs: 10 * 60_000, maxAttempts: 3 } } });
      const failed: ExecutionOutcome = { status: 'FAILED', exitCode: 1, httpStatus: null, error: 'exited with code 1', stdoutTail: null, stderrTail: null, durationMs: 0 };
      const slots = 4;
      for (let minute = 1; minute <= slots; minute += 1) {
        clock.set(T0 + minute * 60_000);
        await runner.tick();
        await runner.alertsEvaluated();
        jobs.finishAll(failed);
        await runner.worker.waitForExecutions(10_000);
        await runner.tick(); // records the outcome and starts an alert evaluation
        await runner.alertsEvaluated(); // which records and queues, and must not wait for any receiver
        if (minute === 1) await new Promise<void>((resolve) => (connections > 0 ? resolve() : dead.once('connection', () => resolve())));
      }
      // Every slot ran and was recorded while the first message still waits on the dead receiver.
      expect(jobs.started).toHaveLength(slots);
      const runs = await queryRows<{ status: string }>(database.db, sql`select status from schedule_runs order by scheduled_for`);
      expect(runs.map((r) => r.status)).toEqual(Array(slots).fill('FAILED'));
      expect((await queryRows<{ rule: string }>(database.db, sql`select rule from alerts order by id`)).map((a) => a.rule)).toEqual(['run-failed', 'consecutive-failures']);
      expect(connections).toBe(1);
      expect(runner.alerts!.dispatcher.pending).toBeGreaterThan(0);
      runner.alerts!.dispatcher.stop();
      await runner.worker.releaseUnfinished().catch(() => undefined);
    } finally {
      await database.close();
    }
  });
});

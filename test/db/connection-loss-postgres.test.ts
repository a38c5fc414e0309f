/**
 * The PostgreSQL connection dropping under the runner (a database restart), simulated with a TCP
 * proxy on loopback that can be cut and restored: a transaction in flight fails without taking the
 * process down, LISTEN comes back by itself, however long the server stays unreachable, and a
 * runner stopped while the server is unreachable still stops, and its pool closes.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, queryRows, type Database } from '../../src/db/client.js';
import { Runner } from '../../src/runner/runner.js';
import type { Logger } from '../../src/shared/logger.js';
import { systemClock } from '../../src/shared/clock.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';
import { createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../support/databases.js';
import { heldJobs, SUCCEEDED } from '../runner/held-jobs.js';

/** Forwards a loopback port to the server; `cut` drops every connection and refuses new ones. */
async function startProxy(target: URL): Promise<{ url: string; cut(): Promise<void>; restore(): Promise<void>; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const serve = (client: net.Socket) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  };
  let server = net.createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  const closeServer = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    url: url.toString(),
    async cut() {
      const closed = closeServer();
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    async restore() {
      server = net.createServer(serve);
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      if (server.listening) await closeServer();
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `promise`'s outcome, or 'pending' if it has not settled within `ms` (a hang is the failure). */
async function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | 'pending'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<'pending'>((resolve) => (timer = setTimeout(() => resolve('pending'), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

async function waitFor(what: string, probe: () => boolean, timeoutMs: number): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !probe(); await sleep(20)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

describe.runIf(postgresServerUrl)('losing the PostgreSQL connection', () => {
  let server: TestPostgres;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let database: Database;
  beforeAll(async () => {
    server = await createPostgresDatabase({ migrated: false });
    proxy = await startProxy(new URL(server.url));
    database = await openDatabase({ url: proxy.url, maxConnections: 2 });
  });
  afterAll(async () => {
    await database?.close().catch(() => undefined);
    await proxy?.close();
    await server?.drop();
  });

  it('fails the transaction in flight, not the process, and serves the next query once the server is back', async () => {
    const transaction = database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await proxy.cut();
      // The client now emits 'error' while checked out of the pool: unhandled, it would end the process.
      await sleep(200);
      await tx.execute(sql`select 2`);
    });
    await expect(transaction).rejects.toThrow();
    await proxy.restore();
    expect(await queryRows<{ one: number }>(database.db, sql`select 1 as one`)).toEqual([{ one: 1 }]);
  });

  it('re-opens LISTEN after failed attempts, says so, and delivers notifications again', async () => {
    const payloads: string[] = [];
    let reconnects = 0;
    const stop = await database.listen('cronform_test_channel', (payload) => payloads.push(payload), () => (reconnects += 1));
    try {
      await proxy.cut();
      // Long enough for the first re-open (after 0.5 s) to fail against the closed port.
      await sleep(1_200);
      await proxy.restore();
      await waitFor('LISTEN to be re-opened', () => reconnects === 1, 10_000);
      const notifier = new pg.Client({ connectionString: server.url });
      await notifier.connect();
      await notifier.query(`select pg_notify('cronform_test_channel', 'after the outage')`);
      await notifier.end();
      await waitFor('the notification', () => payloads.includes('after the outage'), 5_000);
    } finally {
      await stop();
    }
  });

  it('releases a pooled client whose BEGIN failed, so the pool can still close', async () => {
    // The connection dies right after it is checked out (a database shutting down): BEGIN fails.
    const own = await openDatabase({ url: proxy.url, maxConnections: 2 });
    const pool = (own.db as unknown as { $client: pg.Pool }).$client;
    pool.once('acquire', (client) => (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy());
    await expect(own.db.transaction(async (tx) => tx.execute(sql`select 1`))).rejects.toThrow();
    expect(pool.totalCount).toBe(0);
    expect(await settledWithin(own.close().then(() => 'closed'), 5_000)).toBe('closed');
  });

  it('stops a runner, and closes its pool, while the database is unreachable', async () => {
    const migrated = await createPostgresDatabase();
    const cutOff = await startProxy(new URL(migrated.url));
    try {
      const nowMs = Date.now();
      await applyManifests(await migrated.open(), { 'a.yaml': scheduleManifest('cut-off', { cron: '0 0 1 1 *', timeout: '10m' }) }, nowMs);
      const setup = await migrated.open();
      await setup.db.execute(
        sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts)
            select id, version, now(), 'MANUAL', name || ':manual', 'QUEUED', 2, 'default', now(), 1 from schedules`,
      );
      await setup.close();
      const runnerDatabase = await openDatabase({ url: cutOff.url, maxConnections: 4 });
      const errors: string[] = [];
      const logger: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: (message: string) => void errors.push(message), child: () => logger };
      const jobs = heldJobs();
      const runner = new Runner(runnerDatabase, { clock: systemClock, concurrency: 1, leaseMs: 1_200, drainTimeoutMs: 2_000, killGraceMs: 200, baseDir: process.cwd(), env: {}, execute: jobs.execute, logger });
      await runner.start();
      await jobs.whenStarted(1);
      await cutOff.cut();
      // The job ends while the database is unreachable: its outcome cannot be written.
      jobs.finishAll(SUCCEEDED);
      expect(await settledWithin(runner.stop().then(() => 'stopped'), 15_000)).toBe('stopped');
      expect(await settledWithin(runnerDatabase.close().then(() => 'closed'), 5_000)).toBe('closed');
      expect(errors).toContain('writing outcomes at shutdown failed; their runs will be resolved per onStall');
    } finally {
      await cutOff.close();
      await migrated.drop();
    }
  });
});

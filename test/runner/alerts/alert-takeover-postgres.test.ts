/**
 * Alerts owed by a runner that did not deliver them (real PostgreSQL, a real loopback receiver):
 * a runner records an alert and is cut off before its request ends (its `send` never answers, as
 * when the process is killed mid-request: it writes nothing more), or gives up because the
 * receiver keeps failing. Another runner takes the message over only once the claim is older
 * than the delivery lease, delivers it exactly once, then sends the resolved message once. An
 * alert resolved before its firing message was delivered is never sent late as firing.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../../src/db/client.js';
import { migrateDatabase } from '../../../src/db/migrate.js';
import { readAlerts } from '../../../src/operations/alerts.js';
import type { SendRequest } from '../../../src/runner/alerts/dispatcher.js';
import { AlertEvaluator } from '../../../src/runner/alerts/evaluator.js';
import { ManualClock } from '../../../src/shared/clock.js';
import { applyManifests, scheduleManifest } from '../../support/apply-manifests.js';
import { createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../../support/databases.js';

const T0 = Date.parse('2026-11-29T12:00:00Z');
const HOUR = 3_600_000;
const LEASE_MS = 60_000;

interface Received {
  event: string;
  dedupKey: string;
  alertId: number;
  schedule: string;
  runner: string;
}

// Each schedule is hourly and CRITICAL, so its slots not started are missed-slot alerts too: the
// tests follow the run-failed alert of each.
const RULE = 'run-failed';

describe.runIf(postgresServerUrl)('alert messages taken over from a runner that did not deliver them', () => {
  let server: TestPostgres;
  let setup: Database;
  let receiver: Server;
  let url = '';
  const received: Received[] = [];
  const connections: Database[] = [];
  const evaluators: AlertEvaluator[] = [];

  beforeAll(async () => {
    server = await createPostgresDatabase();
    setup = await server.open();
    await migrateDatabase(setup);
    receiver = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => {
        const body = JSON.parse(text) as { event: string; dedupKey: string; runner: string; alert: { id: number; schedule: string; rule: string } };
        if (body.alert.rule === RULE) received.push({ event: body.event, dedupKey: body.dedupKey, alertId: body.alert.id, schedule: body.alert.schedule, runner: body.runner });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    for (const evaluator of evaluators) evaluator.dispatcher.stop();
    for (const db of connections) await db.close();
    await setup.close();
    await server.drop();
    await new Promise((resolve) => receiver.close(resolve));
  });

  const targets = () => [{ name: 'oncall', type: 'webhook' as const, url }];

  async function evaluator(runnerId: string, clock: ManualClock, send?: SendRequest): Promise<AlertEvaluator> {
    const db = await server.open({ maxConnections: 2 });
    connections.push(db);
    const created = new AlertEvaluator(db, {
      runnerId,
      runnerStartedAtMs: T0,
      noRunnerAlertAfterMs: 3_600_000,
      clock,
      env: {},
      deliveryLeaseMs: LEASE_MS,
      // One request per try: the dispatcher's backoff waits on the manual clock.
      delivery: { maxAttempts: 1, ...(send ? { send } : {}) },
    });
    evaluators.push(created);
    return created;
  }

  async function insertRun(schedule: string, slotMs: number, status: 'FAILED' | 'SUCCESS'): Promise<void> {
    const slot = new Date(slotMs).toISOString();
    await setup.db.execute(sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, attempts, max_attempts, started_at, finished_at)
      select id, 1, ${slot}::timestamptz, 'SCHEDULED', ${`${schedule}:${slot}:SCHEDULED`}, ${status}, 2, 'default', ${slot}::timestamptz, 1, 1, ${slot}::timestamptz, ${slot}::timestamptz + interval '5 seconds'
      from schedules where name = ${schedule}`);
  }

  const deliveries = (schedule: string) =>
    queryRows<{ event: string; state: string; claimed_by: string | null }>(
      setup.db,
      sql`select d.event, d.state, d.claimed_by from alert_deliveries d join alerts a on a.id = d.alert_id where a.schedule_name = ${schedule} and a.rule = ${RULE} order by d.event`,
    );
  const receivedFor = (schedule: string) => received.filter((r) => r.schedule === schedule);
  /**
   * Lets the dispatcher's detached queues run (its requests go over real sockets) and the evaluator
   * record their results (`settled`): the receiver has answered before the record is written, and
   * a record still in flight at the next evaluation would let that evaluation take the message
   * over again.
   */
  const settle = (...of: AlertEvaluator[]) => Promise.all(of.map((e) => e.settled()));

  beforeAll(async () => {
    const critical = { cron: '0 * * * *', criticality: 'CRITICAL' };
    await applyManifests(setup, { 'a.yaml': scheduleManifest('billing', critical), 'b.yaml': scheduleManifest('payroll', critical), 'c.yaml': scheduleManifest('ledger', critical), 'd.yaml': scheduleManifest('audit', critical) }, T0);
  });

  it('a runner cut off mid-request: another delivers the firing message once after the lease, then the resolved one once', async () => {
    const clock = new ManualClock(T0 + HOUR + 60_000);
    // Never answers and ignores its abort: the process is gone, it writes nothing more.
    const dead = await evaluator('runner-dead', clock, () => new Promise(() => undefined));
    const live = await evaluator('runner-live', clock);
    await insertRun('billing', T0 + HOUR, 'FAILED');
    await dead.evaluate(clock.nowMs(), targets());
    expect(await deliveries('billing')).toEqual([{ event: 'firing', state: 'PENDING', claimed_by: 'runner-dead' }]);

    // Within the lease the message is still the recorder's: not sent twice.
    clock.set(clock.nowMs() + 30_000);
    await live.evaluate(clock.nowMs(), targets());
    await settle(live);
    expect(receivedFor('billing')).toEqual([]);

    clock.set(clock.nowMs() + 31_000);
    expect((await live.evaluate(clock.nowMs(), targets())).redelivered).toBeGreaterThan(0);
    await settle(live);
    for (let i = 0; i < 3; i += 1) {
      clock.set(clock.nowMs() + LEASE_MS + 1_000);
      await live.evaluate(clock.nowMs(), targets());
      await settle(live);
    }
    const [alert] = await readAlerts(setup, { openOnly: false, limit: 10 }).then((all) => all.filter((a) => a.schedule === 'billing' && a.rule === RULE));
    expect(receivedFor('billing')).toEqual([{ event: 'firing', dedupKey: `cronform-alert-${alert!.id}-firing`, alertId: alert!.id, schedule: 'billing', runner: 'runner-live' }]);
    expect(await deliveries('billing')).toEqual([{ event: 'firing', state: 'DELIVERED', claimed_by: 'runner-live' }]);
    expect(alert).toMatchObject({ deliveries: 1, pendingDeliveries: 0 });

    await insertRun('billing', T0 + 2 * HOUR, 'SUCCESS');
    clock.set(T0 + 2 * HOUR + 60_000);
    await live.evaluate(clock.nowMs(), targets());
    await settle(live);
    clock.set(clock.nowMs() + LEASE_MS + 1_000);
    await live.evaluate(clock.nowMs(), targets());
    await settle(live);
    expect(receivedFor('billing').map((r) => r.event)).toEqual(['firing', 'resolved']);
    expect(receivedFor('billing')[1]!.dedupKey).toBe(`cronform-alert-${alert!.id}-resolved`);
  }, 120_000);

  it('a runner whose receiver kept failing gives the message back: another delivers it once after the lease', async () => {
    const clock = new ManualClock(T0 + HOUR + 60_000);
    const failing = await evaluator('runner-failing', clock, () => Promise.resolve({ status: 503 }));
    const live = await evaluator('runner-live-2', clock);
    await insertRun('payroll', T0 + HOUR, 'FAILED');
    await failing.evaluate(clock.nowMs(), targets());
    await settle(failing);
    expect(await deliveries('payroll')).toEqual([{ event: 'firing', state: 'PENDING', claimed_by: null }]);
    expect(receivedFor('payroll')).toEqual([]);

    clock.set(clock.nowMs() + 30_000);
    await live.evaluate(clock.nowMs(), targets());
    await settle(live);
    expect(receivedFor('payroll')).toEqual([]);
    clock.set(clock.nowMs() + 31_000);
    await live.evaluate(clock.nowMs(), targets());
    await settle(live);
    clock.set(clock.nowMs() + LEASE_MS + 1_000);
    await Promise.all([live.evaluate(clock.nowMs(), targets()), failing.evaluate(clock.nowMs(), targets())]);
    await settle(live, failing);
    expect(receivedFor('payroll').map((r) => `${r.event} ${r.runner}`)).toEqual(['firing runner-live-2']);
    expect(await deliveries('payroll')).toEqual([{ event: 'firing', state: 'DELIVERED', claimed_by: 'runner-live-2' }]);
  }, 120_000);

  it('an alert resolved before its firing message was delivered is never sent, as firing or resolved', async () => {
    const clock = new ManualClock(T0 + HOUR + 60_000);
    const dead = await evaluator('runner-dead-3', clock, () => new Promise(() => undefined));
    const live = await evaluator('runner-live-3', clock);
    await insertRun('ledger', T0 + HOUR, 'FAILED');
    await dead.evaluate(clock.nowMs(), targets());
    await insertRun('ledger', T0 + 2 * HOUR, 'SUCCESS');
    clock.set(T0 + 2 * HOUR + 1_000);
    await live.evaluate(clock.nowMs(), targets());
    for (let i = 0; i < 3; i += 1) {
      clock.set(clock.nowMs() + LEASE_MS + 1_000);
      await live.evaluate(clock.nowMs(), targets());
      await settle(live);
    }
    expect(receivedFor('ledger')).toEqual([]);
    expect((await deliveries('ledger')).map((d) => `${d.event} ${d.state}`)).toEqual(['firing SKIPPED', 'resolved SKIPPED']);
  }, 120_000);

  it('a live runner with a slow receiver keeps its claim: nobody else sends the message meanwhile', async () => {
    const clock = new ManualClock(T0 + HOUR + 60_000);
    let answer: (status: number) => void = () => undefined;
    const answered = new Promise<number>((resolve) => (answer = resolve));
    // The first request waits for the test; the others (missed-slot alerts queued behind it) are accepted.
    let requests = 0;
    const slow = await evaluator('runner-slow', clock, async () => ((requests += 1) === 1 ? { status: await answered } : { status: 200 }));
    const other = await evaluator('runner-other', clock);
    await insertRun('audit', T0 + HOUR, 'FAILED');
    await slow.evaluate(clock.nowMs(), targets());
    for (let i = 0; i < 4; i += 1) {
      // The other runner looks 30 s after the owner's last evaluation, which renewed the claim (the
      // owner evaluates every 30 s): without it the claim would be a lease old from the second round.
      clock.set(clock.nowMs() + 30_000);
      await other.evaluate(clock.nowMs(), targets());
      await settle(other);
      clock.set(clock.nowMs() + 1_000);
      await slow.evaluate(clock.nowMs(), targets());
    }
    expect(receivedFor('audit')).toEqual([]);
    expect(await deliveries('audit')).toEqual([{ event: 'firing', state: 'PENDING', claimed_by: 'runner-slow' }]);
    answer(200);
    await settle(slow);
    expect(await deliveries('audit')).toEqual([{ event: 'firing', state: 'DELIVERED', claimed_by: 'runner-slow' }]);
  }, 120_000);
});

/**
 * Each alert rule, end to end on a migrated PGlite: the runner driven tick by tick with a manual
 * clock and in-process jobs (held-jobs.ts), alerts evaluated on every tick, messages captured by an
 * in-process `send` (no socket: the loopback deliveries are in alert-delivery.test.ts). Every rule
 * fires once on its event however many ticks follow, is recorded, and resolves when it clears.
 */
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../../src/db/client.js';
import { approveRun } from '../../../src/operations/runs/approve.js';
import type { SendRequest } from '../../../src/runner/alerts/dispatcher.js';
import type { ExecutionOutcome } from '../../../src/runner/run-types.js';
import { Runner } from '../../../src/runner/runner.js';
import { ManualClock } from '../../../src/shared/clock.js';
import { applyManifests, scheduleManifest } from '../../support/apply-manifests.js';
import { createPgliteDatabase } from '../../support/databases.js';
import { heldJobs, SUCCEEDED } from '../held-jobs.js';

const T0 = Date.parse('2026-11-29T12:00:00Z');
const HOUR = 3_600_000;
const FAILED: ExecutionOutcome = { status: 'FAILED', exitCode: 1, httpStatus: null, error: 'environment variable STRIPE_API_KEY is not set on this runner', stdoutTail: null, stderrTail: null, durationMs: 0 };
const POLICY = `apiVersion: cronform/v1
kind: Policy
metadata: { name: default }
spec:
  alerts:
    targets:
      - { name: oncall, type: webhook, url: "https://alerts.example.com/cronform" }
`;

interface Sent {
  event: string;
  rule: string;
  schedule: string | null;
  summary: string;
}

function recordingSend(): { send: SendRequest; sent: Sent[] } {
  const sent: Sent[] = [];
  const send: SendRequest = async (_url, init) => {
    const body = JSON.parse(init.body) as { event: string; alert: { rule: string; schedule: string | null; summary: string } };
    sent.push({ event: body.event, rule: body.alert.rule, schedule: body.alert.schedule, summary: body.alert.summary });
    return { status: 204 };
  };
  return { send, sent };
}

async function alertRows(database: Database) {
  return queryRows<{ rule: string; state: string; deliveries: number; delivery_attempts: number }>(database.db, sql`select rule, state, deliveries, delivery_attempts from alerts order by id`);
}

describe('alert rules on a runner driven tick by tick', () => {
  let database: Database | undefined;
  let runner: Runner | undefined;
  afterEach(async () => {
    await runner?.worker.releaseUnfinished().catch(() => undefined);
    runner?.alerts?.dispatcher.stop();
    await database?.close();
    runner = undefined;
    database = undefined;
  });

  async function setUp(spec: Record<string, unknown>, options: { startMs: number; leaseMs?: number; runnerOptions?: { noRunnerAlertAfterMs: number } }) {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'policy.yaml': POLICY, 'a.yaml': scheduleManifest('billing', { cron: '0 * * * *', ...spec }) }, T0);
    const clock = new ManualClock(options.startMs);
    const jobs = heldJobs();
    const { send, sent } = recordingSend();
    const r = new Runner(database, { clock, concurrency: 2, leaseMs: options.leaseMs ?? 30_000, baseDir: process.cwd(), env: {}, execute: jobs.execute, alerts: { intervalMs: 0, ...options.runnerOptions, delivery: { send } } });
    runner = r;
    /** One tick, its alert evaluation (started by the tick, not awaited by it) and its messages. */
    const tick = async () => {
      await r.tick();
      await r.alertsEvaluated();
      await r.alerts!.dispatcher.whenIdle();
    };
    /** The clock moves to `ms` and ticks; the jobs started end with `outcome` (none: they keep running). */
    const at = async (ms: number, outcome?: ExecutionOutcome) => {
      clock.set(ms);
      await r.tick();
      await r.alertsEvaluated();
      if (outcome) {
        jobs.finishAll(outcome);
        await r.worker.waitForExecutions(10_000);
      }
      await tick();
    };
    return { clock, jobs, sent, db: database, tick, at };
  }

  const rules = async (db: Database) => (await alertRows(db)).map((a) => `${a.rule} ${a.state} delivered ${a.deliveries}`);
  const events = (sent: Sent[]) => sent.map((s) => `${s.event} ${s.rule}`);

  it('run-failed (CRITICAL): the first final failure alerts once, the next success resolves it', async () => {
    const { sent, db, tick, at } = await setUp({ criticality: 'CRITICAL' }, { startMs: T0 + HOUR - 10 });
    await at(T0 + HOUR, FAILED);
    await tick();
    expect(await alertRows(db)).toEqual([{ rule: 'run-failed', state: 'OPEN', deliveries: 1, delivery_attempts: 1 }]);
    expect(sent).toEqual([{ event: 'firing', rule: 'run-failed', schedule: 'billing', summary: 'billing: run 1 failed: environment variable STRIPE_API_KEY is not set on this runner' }]);
    await at(T0 + 2 * HOUR, FAILED); // the same streak: no second alert
    expect(events(sent)).toEqual(['firing run-failed']);
    await at(T0 + 3 * HOUR, SUCCEEDED);
    await tick();
    expect(await rules(db)).toEqual(['run-failed RESOLVED delivered 2']);
    expect(events(sent)).toEqual(['firing run-failed', 'resolved run-failed']);
  });

  it('consecutive-failures (MEDIUM: 2 in a row): no alert on the first failure, one on the second, resolved by a success', async () => {
    const { sent, db, at } = await setUp({ criticality: 'MEDIUM' }, { startMs: T0 + HOUR - 10 });
    await at(T0 + HOUR, FAILED);
    expect(await rules(db)).toEqual([]);
    await at(T0 + 2 * HOUR, FAILED);
    await at(T0 + 3 * HOUR, FAILED);
    expect(await rules(db)).toEqual(['consecutive-failures OPEN delivered 1']);
    expect(sent.map((s) => s.summary)).toEqual(['billing: 2 runs in a row failed, the last (run 2): environment variable STRIPE_API_KEY is not set on this runner']);
    await at(T0 + 4 * HOUR, SUCCEEDED);
    expect(await rules(db)).toEqual(['consecutive-failures RESOLVED delivered 2']);
    expect(events(sent)).toEqual(['firing consecutive-failures', 'resolved consecutive-failures']);
  });

  it('missed-slot (HIGH): a slot not started within its grace period alerts once, its start resolves it', async () => {
    const { sent, db, tick, at, clock } = await setUp({ criticality: 'HIGH', approval: 'required', gracePeriod: '10m' }, { startMs: T0 + HOUR - 10 });
    await at(T0 + HOUR);
    await at(T0 + HOUR + 10 * 60_000 - 1);
    expect(await rules(db)).toEqual([]);
    await at(T0 + HOUR + 10 * 60_000);
    await at(T0 + HOUR + 11 * 60_000);
    expect(await rules(db)).toEqual(['missed-slot OPEN delivered 1']);
    expect(sent.map((s) => s.summary)).toEqual(['billing: the 2026-11-29T13:00:00.000Z slot did not start within its grace period of 10m: run 1 is MANUAL_REQUIRED']);
    await approveRun(db, { runId: 1, nowMs: clock.nowMs(), author: { actor: 'oncall', reason: 'late but needed', gitSha: null } });
    await at(T0 + HOUR + 12 * 60_000);
    await tick();
    expect(runner!.worker.activeCount).toBe(1);
    expect(await rules(db)).toEqual(['missed-slot RESOLVED delivered 2']);
    expect(events(sent)).toEqual(['firing missed-slot', 'resolved missed-slot']);
  });

  it('over-timeout (HIGH): an attempt past its timeout alerts once, killed or not, until an attempt ends within it', async () => {
    const { sent, db, at } = await setUp({ criticality: 'HIGH', timeout: '5m' }, { startMs: T0 + HOUR - 10, leaseMs: 10 * HOUR });
    await at(T0 + HOUR);
    await at(T0 + HOUR + 5 * 60_000);
    expect(await rules(db)).toEqual([]);
    await at(T0 + HOUR + 5 * 60_000 + 1_000);
    expect(await rules(db)).toEqual(['over-timeout OPEN delivered 1']);
    const timedOut: ExecutionOutcome = { ...FAILED, status: 'TIMED_OUT', exitCode: null, error: 'timed out after 5m' };
    await at(T0 + HOUR + 6 * 60_000, timedOut); // killed now: the same occurrence
    // HIGH also alerts on the final failure the kill makes (run-failed); this test follows over-timeout.
    expect(sent.filter((s) => s.rule === 'over-timeout').map((s) => s.summary)).toEqual(['billing: run 1 attempt 1 ran over its timeout of 5m (still running after 5m1s)']);
    await at(T0 + 2 * HOUR, SUCCEEDED);
    expect((await rules(db)).filter((r) => r.startsWith('over-timeout'))).toEqual(['over-timeout RESOLVED delivered 2']);
    expect(events(sent).filter((e) => e.endsWith('over-timeout'))).toEqual(['firing over-timeout', 'resolved over-timeout']);
  });

  it('freshness: alerts once when the last success is older than spec.freshness, resolved by the next success', async () => {
    const { sent, db, at } = await setUp({ criticality: 'LOW', freshness: '90m' }, { startMs: T0 + HOUR - 10 });
    await at(T0 + HOUR, SUCCEEDED);
    await at(T0 + 2 * HOUR, FAILED);
    expect(await rules(db)).toEqual([]);
    await at(T0 + 2 * HOUR + 30 * 60_000 + 1_000);
    await at(T0 + 3 * HOUR, FAILED);
    expect(await rules(db)).toEqual(['freshness OPEN delivered 1']);
    expect(sent.map((s) => s.summary)).toEqual(['billing: stale: the last success was at 2026-11-29T13:00:00.000Z, more than its freshness of 90m ago']);
    await at(T0 + 4 * HOUR, SUCCEEDED);
    expect(await rules(db)).toEqual(['freshness RESOLVED delivered 2']);
    expect(events(sent)).toEqual(['firing freshness', 'resolved freshness']);
  });

  it('no-runner: the runner that starts after a gap with no runner reports it once, then resolves it', async () => {
    const { sent, db, tick } = await setUp({ criticality: 'LOW' }, { startMs: T0 + HOUR - 10, runnerOptions: { noRunnerAlertAfterMs: 5 * 60_000 } });
    await db.db.execute(sql`insert into runners (id, hostname, pid, version, started_at, heartbeat_at, stopped_at)
      values ('old', 'host-a', 1, 'dev', ${new Date(T0 - HOUR).toISOString()}::timestamptz, ${new Date(T0).toISOString()}::timestamptz, null)`);
    await tick();
    expect(await rules(db)).toEqual(['no-runner OPEN delivered 1']);
    expect(sent.map((s) => s.summary)).toEqual(['no runner was alive from 2026-11-29T12:00:00.000Z to 2026-11-29T12:59:59.990Z (1h): slots in that gap were missed or caught up by their misfire policy (cronform runs)']);
    await tick();
    await tick();
    expect(await rules(db)).toEqual(['no-runner RESOLVED delivered 2']);
    expect(events(sent)).toEqual(['firing no-runner', 'resolved no-runner']);
  });

  it('no-runner: nothing when a runner heartbeated within the limit', async () => {
    const { db, tick } = await setUp({ criticality: 'LOW' }, { startMs: T0 + HOUR, runnerOptions: { noRunnerAlertAfterMs: 5 * 60_000 } });
    await db.db.execute(sql`insert into runners (id, hostname, pid, version, started_at, heartbeat_at, stopped_at)
      values ('old', 'host-a', 1, 'dev', ${new Date(T0).toISOString()}::timestamptz, ${new Date(T0 + HOUR - 4 * 60_000).toISOString()}::timestamptz, null)`);
    await tick();
    expect(await rules(db)).toEqual([]);
  });
});

/**
 * Two runner replicas on one PostgreSQL database, each with its own metrics registry and HTTP
 * server, driven tick by tick under one manual clock through a run mix that reaches every final
 * status a runner writes: SUCCESS, FAILED after a retry, SKIPPED (overlap, misfire), CANCELLED by
 * the cancel operation while a replica held the run and while another waited for approval,
 * SKIPPED by `pause` (a run waiting behind another), FAILED by the reconciler of the other
 * replica after a lease expired. Scraped over HTTP and parsed by a parser library, the counters
 * summed across the replicas equal the database, per schedule and status: each final run counted
 * once, whether a runner wrote it or an operation did (through the run_final_events outbox). The run log lines are checked in the same scenario (run-log.test.ts is the fast one).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../src/db/client.js';
import { upsertRunner } from '../../src/db/reconcile-queries.js';
import { FINAL_STATUSES } from '../../src/db/run-vocabulary.js';
import { createRunnerMetrics, startRunnerHttpServer } from '../../src/http/runner-http.js';
import type { HttpServer } from '../../src/http/server.js';
import { cancelRun } from '../../src/operations/runs/cancel.js';
import { pauseSchedule } from '../../src/operations/runs/pause.js';
import type { ExecutionOutcome } from '../../src/runner/run-types.js';
import { Runner } from '../../src/runner/runner.js';
import type { WorkerOptions } from '../../src/runner/worker.js';
import { ManualClock } from '../../src/shared/clock.js';
import { createJsonLogger } from '../../src/shared/logger.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';
import { createPostgresDatabase, type TestPostgres } from '../support/databases.js';
import { everyAttempt } from '../../src/db/open-attempts.js';
import { heldJobs, SUCCEEDED } from '../runner/held-jobs.js';
import { scrape, sumBy, type Scrape } from './prometheus-text.js';

const T0 = Date.parse('2026-11-30T12:00:00Z');
const MINUTE = 60_000;
const LEASE_MS = 30_000;
const FAILED: ExecutionOutcome = { status: 'FAILED', exitCode: 1, httpStatus: null, error: 'exited with code 1', stdoutTail: null, stderrTail: null, durationMs: 0 };

interface Replica {
  id: string;
  database: Database;
  runner: Runner;
  server: HttpServer;
  lines: Array<Record<string, unknown>>;
}

describe('metrics of two runner replicas on PostgreSQL', () => {
  let postgres: TestPostgres;
  const replicas: Replica[] = [];
  const clock = new ManualClock(T0);
  const held = heldJobs();
  // alpha succeeds, beta fails (one retry), gamma and eps run until stopped.
  const execute: NonNullable<WorkerOptions['execute']> = (job, context, options) => {
    if (context.schedule === 'alpha') return Promise.resolve(SUCCEEDED);
    if (context.schedule === 'beta') return Promise.resolve(FAILED);
    return held.execute(job, context, options);
  };
  let scrapes: Scrape[] = [];
  /** Runs an operation moved on after the scheduler created them, with the status they were created with. */
  const createdStatusOf = new Map<number, string>();

  const tickAll = async (only?: Replica) => {
    for (let round = 0; round < 3; round += 1) {
      for (const replica of only ? [only] : replicas) await replica.runner.tick();
    }
  };
  /** Moves the clock to `ms` in steps of 5 s, ticking at each as the runner loop would (it heartbeats every lease / 3). */
  const at = async (ms: number, only?: Replica) => {
    while (clock.nowMs() < ms) {
      clock.set(Math.min(ms, clock.nowMs() + 5_000));
      await tickAll(only);
    }
  };
  /** Downtime: no runner ticks until `ms`. */
  const jumpTo = async (ms: number) => {
    clock.set(ms);
    await tickAll();
  };

  beforeAll(async () => {
    postgres = await createPostgresDatabase();
    const setup = await postgres.open({ maxConnections: 1 });
    const every = { cron: '* * * * *' };
    await applyManifests(
      setup,
      {
        'a.yaml': scheduleManifest('alpha', { ...every, overlap: 'ALLOW' }),
        'b.yaml': scheduleManifest('beta', { ...every, overlap: 'ALLOW', retry: { maxAttempts: 2, backoff: 'fixed', initialDelay: '1s' } }),
        'g.yaml': scheduleManifest('gamma', { ...every, overlap: 'SKIP_NEW' }),
        'e.yaml': scheduleManifest('eps', { ...every, overlap: 'SKIP_NEW', onStall: 'fail' }),
        // zeta's second slot waits behind its first (PENDING) until `pause` skips it; delta's runs wait for approval.
        'z.yaml': scheduleManifest('zeta', { ...every, overlap: 'QUEUE_NEW' }),
        'd.yaml': scheduleManifest('delta', { ...every, approval: 'required' }),
      },
      T0 - 30_000,
    );
    for (const id of ['replica-a', 'replica-b']) {
      const database = await postgres.open({ maxConnections: 4 });
      const lines: Array<Record<string, unknown>> = [];
      const logger = createJsonLogger({ level: 'debug', write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) });
      const metrics = createRunnerMetrics({ database, clock, logger, leaseMs: LEASE_MS });
      const runner = new Runner(database, { clock, concurrency: 2, leaseMs: LEASE_MS, killGraceMs: 1_000, baseDir: process.cwd(), env: {}, execute, logger, observer: metrics, runnerId: id, slotLookaheadMs: 0 });
      await upsertRunner(database.db, { id, hostname: 'test', pid: 1, version: 'test' }, new Date(T0));
      const server = await startRunnerHttpServer('127.0.0.1:0', { database, clock, logger, metrics, leaseMs: LEASE_MS, runner: { runnerId: id, lastSuccessfulLoopMs: () => runner.lastSuccessfulLoopMs }, dashboard: { allowActions: false } });
      replicas.push({ id, database, runner, server, lines });
    }

    // Minute 1 (nothing ran before): a run per schedule, two per replica; beta fails and is retried a second later.
    await jumpTo(T0 + MINUTE + 500);
    await at(T0 + MINUTE + 2_500);
    // Minute 2: gamma and eps still run, so their slots are SKIPPED (overlap).
    await at(T0 + 2 * MINUTE + 500);
    await at(T0 + 2 * MINUTE + 2_500);
    // An operator cancels gamma's running run; NOTIFY reaches both replicas, only its holder counts it.
    const [gammaRun] = await queryRows<{ id: string }>(setup.db, sql`select r.id from schedule_runs r join schedules s on s.id = r.schedule_id where s.name = 'gamma' and r.status = 'RUNNING'`);
    await cancelRun(setup, { runId: Number(gammaRun!.id), nowMs: clock.nowMs(), author: { actor: 'test', reason: null, gitSha: null } });
    for (const replica of replicas) replica.runner.worker.cancel(Number(gammaRun!.id));
    await tickAll();
    // eps's holder is cut off: only the other replica ticks until the lease has expired, and its
    // reconciler resolves the stall per onStall: fail.
    const [epsRun] = await queryRows<{ lease_owner: string }>(setup.db, sql`select r.lease_owner from schedule_runs r join schedules s on s.id = r.schedule_id where s.name = 'eps' and r.status = 'RUNNING'`);
    const other = replicas.find((r) => r.id !== epsRun!.lease_owner)!;
    await at(clock.nowMs() + 45_000, other);
    await tickAll();
    // Final statuses no runner writes: a run waiting for approval cancelled, a run waiting behind
    // another skipped by a pause (then the scheduler records zeta's slots SKIPPED/PAUSED itself).
    const [waiting] = await queryRows<{ id: string }>(setup.db, sql`select r.id from schedule_runs r join schedules s on s.id = r.schedule_id where s.name = 'delta' and r.status = 'MANUAL_REQUIRED' order by r.id limit 1`);
    await cancelRun(setup, { runId: Number(waiting!.id), nowMs: clock.nowMs(), author: { actor: 'test', reason: null, gitSha: null } });
    const paused = await pauseSchedule(setup, { name: 'zeta', reason: 'test', untilMs: null, nowMs: clock.nowMs(), author: { actor: 'test', reason: null, gitSha: null } });
    expect(paused.skippedRunIds.length).toBeGreaterThan(0);
    createdStatusOf.set(Number(waiting!.id), 'MANUAL_REQUIRED');
    for (const id of paused.skippedRunIds) createdStatusOf.set(id, 'PENDING');
    // Eight minutes of downtime: the misfire policy skips the older slots and runs the latest.
    await jumpTo(T0 + 10 * MINUTE + 500);
    await at(T0 + 10 * MINUTE + 2_500);
    held.finishAll();
    await tickAll();
    scrapes = await Promise.all(replicas.map((r) => scrape(r.server.url)));
  }, 120_000);

  afterAll(async () => {
    for (const replica of replicas) await replica.server.close();
    await postgres?.drop();
  });

  const database = () => replicas[0]!.database;

  it('counts each final run once: the sum across replicas equals the database, per schedule and status', async () => {
    const rows = await queryRows<{ schedule: string; status: string; n: string }>(
      database().db,
      sql`select s.name as schedule, r.status, count(*) as n from schedule_runs r join schedules s on s.id = r.schedule_id
          where r.status = any(${`{${FINAL_STATUSES.join(',')}}`}::text[]) group by 1, 2`,
    );
    const expected = new Map(rows.map((r) => [`${r.schedule}/${r.status}`, Number(r.n)]));
    // The mix reached what it was built for.
    for (const key of ['alpha/SUCCESS', 'beta/FAILED', 'gamma/SKIPPED', 'gamma/CANCELLED', 'eps/FAILED', 'alpha/SKIPPED', 'delta/CANCELLED', 'zeta/SKIPPED']) expect(expected.get(key), key).toBeGreaterThan(0);
    const counted = sumBy(scrapes.flatMap((s) => s.samples('cronform_runs_total')), (l) => `${l.schedule}/${l.status}`);
    expect(Object.fromEntries(counted)).toEqual(Object.fromEntries(expected));
    // Both replicas wrote final outcomes: the sum is over real shares, not one replica's total.
    for (const s of scrapes) expect(s.samples('cronform_runs_total').reduce((total, x) => total + x.value, 0)).toBeGreaterThan(0);
    // Everything the operations wrote was taken out of the outbox.
    const [left] = await queryRows<{ n: string }>(database().db, sql`select count(*) as n from run_final_events`);
    expect(Number(left!.n)).toBe(0);
  });

  it('counts skipped slots by reason, retries and lease expiries as the database has them', async () => {
    // A slot is counted as the scheduler created it, or as `pause` skipped it: the run cancelled
    // while it waited for approval was created MANUAL_REQUIRED.
    const cancelledWaiting = [...createdStatusOf].filter(([, status]) => status === 'MANUAL_REQUIRED').map(([id]) => id);
    const skipped = await queryRows<{ key: string; n: string }>(
      database().db,
      sql`select s.name || '/' || (case when r.id = any(${`{${cancelledWaiting.join(',')}}`}::bigint[]) then 'MANUAL_REQUIRED' else r.status end) || '/' || coalesce(r.status_reason, 'NONE') as key,
            sum(coalesce(r.summarized_slots, 1)) as n
          from schedule_runs r join schedules s on s.id = r.schedule_id
          where (r.status in ('SKIPPED', 'MISSED', 'MANUAL_REQUIRED') or r.id = any(${`{${cancelledWaiting.join(',')}}`}::bigint[])) and r.trigger_type = 'SCHEDULED' group by 1`,
    );
    const counted = sumBy(scrapes.flatMap((s) => s.samples('cronform_slots_skipped_total')), (l) => `${l.schedule}/${l.status}/${l.reason}`);
    expect(Object.fromEntries(counted)).toEqual(Object.fromEntries(skipped.map((r) => [r.key, Number(r.n)])));
    expect(counted.get('gamma/SKIPPED/OVERLAP')).toBeGreaterThan(0);
    expect(counted.get('zeta/SKIPPED/PAUSED')).toBeGreaterThan(0);

    const [retries] = await queryRows<{ n: string }>(database().db, sql`select count(*) as n from run_attempts a join schedule_runs r on r.id = a.run_id where a.attempt < r.attempts`);
    expect(sumBy(scrapes.flatMap((s) => s.samples('cronform_retries_total')), () => 'all').get('all')).toBe(Number(retries!.n));
    const [stalled] = await queryRows<{ n: string }>(database().db, sql`select count(*) as n from run_attempts where status = 'STALLED'`);
    expect(Number(stalled!.n)).toBeGreaterThan(0);
    expect(sumBy(scrapes.flatMap((s) => s.samples('cronform_lease_expiries_total')), (l) => l.outcome!).get('stalled')).toBe(Number(stalled!.n));
  });

  it('observes one duration per attempt written and one start delay per scheduled first start, in consistent histograms', async () => {
    const attempts = await queryRows<{ schedule: string; n: string }>(
      database().db,
      sql`select s.name as schedule, count(*) as n from run_attempts a join schedule_runs r on r.id = a.run_id join schedules s on s.id = r.schedule_id
          where a.status in ('SUCCEEDED', 'FAILED') group by 1`,
    );
    const firstStarts = await queryRows<{ schedule: string; n: string }>(
      database().db,
      sql`select s.name as schedule, count(*) as n from ${everyAttempt()} a join schedule_runs r on r.id = a.run_id join schedules s on s.id = r.schedule_id
          where a.attempt = 1 and a.status <> 'CLAIMED' and r.trigger_type = 'SCHEDULED' group by 1`,
    );
    for (const [name, rows] of [['cronform_run_duration_seconds', attempts], ['cronform_run_start_delay_seconds', firstStarts]] as const) {
      const histograms = scrapes.flatMap((s) => s.histograms(name));
      for (const h of histograms) {
        // Cumulative buckets: never decreasing, and +Inf is the count.
        for (let i = 1; i < h.buckets.length; i += 1) expect(h.buckets[i]!.count).toBeGreaterThanOrEqual(h.buckets[i - 1]!.count);
        expect(h.buckets.at(-1)).toEqual({ le: Number.POSITIVE_INFINITY, count: h.count });
      }
      const counts = new Map<string, number>();
      for (const h of histograms) counts.set(h.labels.schedule!, (counts.get(h.labels.schedule!) ?? 0) + h.count);
      expect(Object.fromEntries(counts), name).toEqual(Object.fromEntries(rows.map((r) => [r.schedule, Number(r.n)])));
    }
    // Start delay is measured from the slot: the first runs started half a second after theirs.
    const alphaDelays = scrapes.flatMap((s) => s.histograms('cronform_run_start_delay_seconds')).filter((h) => h.labels.schedule === 'alpha');
    expect(alphaDelays.reduce((n, h) => n + (h.buckets.find((b) => b.le === 0.25)?.count ?? 0), 0)).toBe(0);
    expect(scrapes.flatMap((s) => s.histograms('cronform_scheduler_tick_duration_seconds')).reduce((n, h) => n + h.count, 0)).toBeGreaterThan(0);
  });

  it('reads queue depth, runners alive and last success from the database, the same on both replicas', async () => {
    const [active] = await queryRows<{ n: string }>(database().db, sql`select count(*) as n from active_runs where status in ('PENDING', 'QUEUED', 'RUNNING', 'RETRY_PENDING')`);
    for (const s of scrapes) {
      expect(s.samples('cronform_queue_depth').reduce((n, x) => n + x.value, 0)).toBe(Number(active!.n));
      expect(s.samples('cronform_runners_alive')).toEqual([{ labels: {}, value: 2 }]);
    }
    const [last] = await queryRows<{ ms: string }>(
      database().db,
      sql`select extract(epoch from max(r.finished_at)) * 1000 as ms from schedule_runs r join schedules s on s.id = r.schedule_id where s.name = 'alpha' and r.status = 'SUCCESS'`,
    );
    const reported = scrapes.flatMap((s) => s.samples('cronform_schedule_last_success_timestamp')).filter((x) => x.labels.schedule === 'alpha');
    expect(Math.max(...reported.map((x) => x.value))).toBe(Number(last!.ms) / 1000);
  });

  it('keeps label cardinality bounded by schedule names: no run ids, no error texts', () => {
    const allowed = new Set(['schedule', 'status', 'reason', 'queue', 'outcome', 'le']);
    for (const s of scrapes) {
      for (const family of s.families.filter((f) => f.name.startsWith('cronform_'))) {
        for (const metric of family.metrics) for (const label of Object.keys(metric.labels ?? {})) expect(allowed, `${family.name}{${label}}`).toContain(label);
      }
    }
  });

  it('writes a line for every state change of a run, each with its run id, schedule, slot and attempt', async () => {
    const lines = replicas.flatMap((r) => r.lines);
    const runs = await queryRows<{ id: string; schedule: string; scheduled_for: Date | string; status: string }>(
      database().db,
      sql`select r.id, s.name as schedule, r.scheduled_for, r.status from schedule_runs r join schedules s on s.id = r.schedule_id`,
    );
    const byId = new Map(runs.map((r) => [Number(r.id), r]));
    const runLines = lines.filter((l) => 'runId' in l);
    expect(runLines.length).toBeGreaterThan(runs.length);
    for (const line of runLines) {
      const run = byId.get(line.runId as number);
      expect(run, JSON.stringify(line)).toBeDefined();
      expect(line).toMatchObject({ schedule: run!.schedule, scheduledFor: new Date(run!.scheduled_for).toISOString(), attempt: expect.any(Number) });
    }
    const messagesOf = (runId: number) => runLines.filter((l) => l.runId === runId).map((l) => `${l.attempt as number}:${l.msg as string}`);
    for (const run of runs) {
      const createdAs = createdStatusOf.get(Number(run.id)) ?? (['SKIPPED', 'MISSED', 'MANUAL_REQUIRED', 'PENDING'].includes(run.status) ? run.status : 'QUEUED');
      expect(messagesOf(Number(run.id))[0], `run ${run.id}`).toBe(`0:run created ${createdAs}`);
    }
    const attempts = await queryRows<{ run_id: string; attempt: number; status: string }>(database().db, sql`select run_id, attempt, status from ${everyAttempt()} a where status <> 'CLAIMED'`);
    for (const attempt of attempts) {
      const messages = messagesOf(Number(attempt.run_id));
      expect(messages, `run ${attempt.run_id}`).toContain(`${attempt.attempt}:attempt started`);
      if (attempt.status === 'SUCCEEDED') expect(messages).toContain(`${attempt.attempt}:attempt finished; run SUCCESS`);
      if (attempt.status === 'FAILED') expect(messages.some((m) => m.startsWith(`${attempt.attempt}:attempt finished; run `))).toBe(true);
      if (attempt.status === 'STALLED') expect(messages).toContain(`${attempt.attempt}:lease expired: attempt stalled; run FAILED`);
    }
    // Two runs end CANCELLED (gamma's while it ran, delta's while it waited for approval); rows
    // come back in no set order: the one the runner was stopping is gamma's.
    const cancelled = runs.find((r) => r.status === 'CANCELLED' && r.schedule === 'gamma')!;
    expect(messagesOf(Number(cancelled.id))).toContain('1:run cancelled by an operator; stopping its job');
    // The runner's own lines name it.
    for (const replica of replicas) expect(replica.lines.every((l) => l.runnerId === replica.id)).toBe(true);
  });
});

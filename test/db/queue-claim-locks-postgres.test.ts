/**
 * Claims are serialized per queue, not globally (issue 20 item 3): a claim holds the advisory locks
 * of the queues it takes from until it commits. On real PostgreSQL, with claims on separate
 * connections held open at chosen points: a claim on a busy queue waits for the one before it and
 * then sees its runs running (the limit holds); a claim with due runs in another queue takes those
 * at once; and claims racing over many small queues never deadlock and never exceed a limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';
import { insertRuns, type NewRun } from '../../src/db/scheduler-queries.js';
import { claimRuns, type ClaimedRun, type ClaimQueues, type ClaimRequest } from '../../src/db/worker-queries.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';
import { createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../support/databases.js';

const T0 = Date.parse('2026-11-29T12:00:00Z');

function queuedRun(scheduleId: number, index: number, queue: string, dueMs: number): NewRun {
  const scheduledFor = new Date(dueMs + index);
  return {
    scheduleId,
    scheduleVersion: 1,
    scheduledFor,
    triggerType: 'MANUAL',
    idempotencyKey: `q:${queue}:${index}:${dueMs}`,
    status: 'QUEUED',
    statusReason: null,
    priority: 2,
    queue,
    businessDate: null,
    runAfter: scheduledFor,
    maxAttempts: 1,
    summarizedSlots: null,
    finishedAt: null,
  };
}

function request(runnerId: string, nowMs: number, capacity: number, queueLimits: Record<string, number>, queues?: ClaimQueues): ClaimRequest {
  return { runnerId, now: new Date(nowMs), leaseMs: 60_000, capacity, queueLimits, defaultQueueLimit: 100, ...(queues ? { queues } : {}) };
}

/** A claim whose transaction stays open until `commit()`: its locks are held meanwhile. */
function openClaim(database: Database, claim: ClaimRequest): { claimed: Promise<ClaimedRun[]>; commit: () => void; done: Promise<void> } {
  let commit!: () => void;
  const released = new Promise<void>((resolve) => (commit = resolve));
  let claimedResolve!: (runs: ClaimedRun[]) => void;
  const claimed = new Promise<ClaimedRun[]>((resolve) => (claimedResolve = resolve));
  const done = database.db.transaction(async (tx) => {
    claimedResolve(await claimRuns(tx, claim));
    await released;
  });
  return { claimed, commit, done };
}

async function waitersOnAdvisoryLocks(database: Database): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    database.db,
    sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'advisory'`,
  );
  return row?.n ?? 0;
}

/** Asserts that `claim` has not returned and is waiting for an advisory lock, seen from `observer`. */
async function expectWaiting(observer: Database, claim: { claimed: Promise<unknown> }, what: string): Promise<void> {
  let settled = false;
  void claim.claimed.then(() => (settled = true));
  await until(async () => (await waitersOnAdvisoryLocks(observer)) === 1, what);
  expect(settled).toBe(false);
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function runningByQueue(database: Database): Promise<Record<string, number>> {
  const rows = await queryRows<{ queue: string; n: number }>(database.db, sql`select queue, count(*)::int as n from schedule_runs where status = 'RUNNING' group by queue order by queue`);
  return Object.fromEntries(rows.map((r) => [r.queue, r.n]));
}

/** Runs `test` on a fresh database (freshDatabase), dropped afterwards. */
async function withFreshDatabase(test: (fresh: { server: TestPostgres; setup: Database; scheduleId: number }) => Promise<void>): Promise<void> {
  const fresh = await freshDatabase();
  try {
    await test(fresh);
  } finally {
    await fresh.server.drop();
  }
}

/** A fresh database with one schedule whose runs are inserted by the test. */
async function freshDatabase(): Promise<{ server: TestPostgres; setup: Database; scheduleId: number }> {
  const server = await createPostgresDatabase();
  const setup = await server.open();
  await applyManifests(setup, { 'a.yaml': scheduleManifest('queued-by-hand', { cron: '0 0 1 1 *' }) }, T0 - 3_600_000);
  const [schedule] = await queryRows<{ id: string | number }>(setup.db, sql`select id from schedules`);
  return { server, setup, scheduleId: Number(schedule!.id) };
}

// A runner's claims start from the queues its last claim met (ClaimQueues); a first claim has none.
describe.runIf(postgresServerUrl).each([
  ['a first claim', false],
  ['a claim that knows its queues', true],
])('claims locked per queue, %s (PostgreSQL)', (_name, knows) => {
  let server: TestPostgres;
  let setup: Database;
  let scheduleId: number;
  beforeAll(async () => {
    ({ server, setup, scheduleId } = await freshDatabase());
  });
  afterAll(async () => {
    await server.drop();
  });

  it('a claim on a queue another claim holds waits for it, then counts its runs against the limit', async () => {
    await setup.db.transaction((tx) => insertRuns(tx, Array.from({ length: 6 }, (_, i) => queuedRun(scheduleId, i, 'reports', T0 - 60_000)), new Date(T0)));
    const [first, second] = await Promise.all([server.open({ maxConnections: 1 }), server.open({ maxConnections: 1 })]);
    const limits = { reports: 3 };
    const a = openClaim(first!, request('a', T0, 2, limits));
    expect((await a.claimed).length).toBe(2);
    const b = openClaim(second!, request('b', T0, 5, limits, knows ? { due: ['reports'] } : undefined));
    await expectWaiting(setup, b, "the second claim's wait for the queue lock");
    a.commit();
    await a.done;
    // Read after the first committed: one free slot of three, not three.
    expect((await b.claimed).length).toBe(1);
    b.commit();
    await b.done;
    expect(await runningByQueue(setup)).toEqual({ reports: 3 });
  });

  it('a claim with due runs in another queue takes them while a claim on the busy queue is open', async () => {
    await setup.db.execute(sql`update schedule_runs set status = 'CANCELLED', lease_owner = null, finished_at = ${new Date(T0).toISOString()}::timestamptz where status in ('QUEUED', 'RUNNING')`);
    // The first claim sees only `slow` (the `fast` runs are due a minute later).
    await setup.db.transaction((tx) =>
      insertRuns(tx, [...Array.from({ length: 4 }, (_, i) => queuedRun(scheduleId, i, 'slow', T0 + 1_000)), ...Array.from({ length: 4 }, (_, i) => queuedRun(scheduleId, i, 'fast', T0 + 60_000))], new Date(T0)),
    );
    const [first, second, third] = await Promise.all([server.open({ maxConnections: 1 }), server.open({ maxConnections: 1 }), server.open({ maxConnections: 1 })]);
    const limits = { slow: 2, fast: 10 };
    const a = openClaim(first!, request('a', T0 + 2_000, 1, limits));
    expect((await a.claimed).map((r) => r.queue)).toEqual(['slow']);
    // Both queues are due for the second claim: it takes `fast` without waiting for `slow`.
    const b = openClaim(second!, request('b', T0 + 120_000, 10, limits, knows ? { due: ['slow', 'fast'] } : undefined));
    const taken = await Promise.race([b.claimed, new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 5_000))]);
    expect(taken === 'waited' ? taken : taken.map((r) => r.queue)).toEqual(['fast', 'fast', 'fast', 'fast']);
    b.commit();
    await b.done;
    a.commit();
    await a.done;
    // Once the first committed, `slow` has one free slot of two.
    const c = openClaim(third!, request('c', T0 + 120_000, 10, limits, knows ? { due: ['slow'] } : undefined));
    expect((await c.claimed).map((r) => r.queue)).toEqual(['slow']);
    c.commit();
    await c.done;
    expect(await runningByQueue(setup)).toEqual({ fast: 4, slow: 2 });
  });
});

describe.runIf(postgresServerUrl)('a claim whose due runs moved to a queue another claim holds (PostgreSQL)', () => {
  /** A queue name whose lock key (hashtext) is below, or above, that of `queue`. */
  async function nameBesides(database: Database, queue: string, side: 'below' | 'above'): Promise<string> {
    const [row] = await queryRows<{ name: string }>(
      database.db,
      sql`select n.name from (select 'queue-' || i as name from generate_series(1, 100) as i) n
          where case when ${side} = 'below' then hashtext(n.name) < hashtext(${queue}) else hashtext(n.name) > hashtext(${queue}) end
          order by n.name limit 1`,
    );
    return row!.name;
  }

  it.each(['below', 'above'] as const)('waits for it, or says it is contended, when the queue it knew sorts %s it', async (side) =>
    withFreshDatabase(async ({ server, setup, scheduleId }) => {
      await setup.db.transaction((tx) => insertRuns(tx, Array.from({ length: 4 }, (_, i) => queuedRun(scheduleId, i, 'busy', T0 - 60_000)), new Date(T0)));
      const known = await nameBesides(setup, 'busy', side);
      const [first, second] = await Promise.all([server.open({ maxConnections: 1 }), server.open({ maxConnections: 1 })]);
      const limits = { busy: 3 };
      const a = openClaim(first!, request('a', T0, 1, limits));
      expect((await a.claimed).length).toBe(1);
      // The second claim knows only `known` (its last claim's queue): it gets that lock, finds
      // nothing due there and the due runs in `busy`, whose lock the first claim holds.
      const queues: ClaimQueues = { due: [known] };
      let b = openClaim(second!, request('b', T0, 5, limits, queues));
      if (side === 'above') {
        // It holds a higher key, so it may not wait: it takes nothing and says why.
        expect(await b.claimed).toEqual([]);
        expect(queues).toEqual({ due: ['busy'], contended: true });
        b.commit();
        await b.done;
        // The claim the runner makes at once holds nothing yet, and waits.
        b = openClaim(second!, request('b', T0, 5, limits, queues));
      }
      await expectWaiting(setup, b, 'the second claim to wait for the queue lock');
      a.commit();
      await a.done;
      expect((await b.claimed).length).toBe(2);
      expect(queues).toEqual({ due: ['busy'], contended: false });
      b.commit();
      await b.done;
      expect(await runningByQueue(setup)).toEqual({ busy: 3 });
    }));
});

describe.runIf(postgresServerUrl)('a runner of the version before per-queue locks (PostgreSQL)', () => {
  it('claims alone: its global lock, taken exclusively, keeps these claims waiting until it commits', async () =>
    withFreshDatabase(async ({ server, setup, scheduleId }) => {
    await setup.db.transaction((tx) => insertRuns(tx, Array.from({ length: 4 }, (_, i) => queuedRun(scheduleId, i, 'reports', T0 - 60_000)), new Date(T0)));
    const [older, newer] = await Promise.all([server.open({ maxConnections: 1 }), server.open({ maxConnections: 1 })]);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    // What the claim of the version before took first: pg_advisory_xact_lock(0x63666d03).
    const old = older!.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${0x63666d03})`);
      locked();
      await released;
    });
    await holding;
    const claim = openClaim(newer!, request('new', T0, 5, { reports: 2 }));
    await expectWaiting(setup, claim, 'the claim to wait for the former global lock');
    release();
    await old;
    expect((await claim.claimed).length).toBe(2);
    claim.commit();
    await claim.done;
    }));
});

describe.runIf(postgresServerUrl)('claims racing over many small queues (PostgreSQL)', () => {
  it('never deadlock, never exceed a queue limit, and fill every queue to its limit', async () =>
    withFreshDatabase(async ({ server, setup, scheduleId }) => {
    const limits: Record<string, number> = { q1: 1, q2: 2, q3: 3, q4: 1, q5: 4, q6: 2 };
    const queues = Object.keys(limits);
    // 20 due runs per queue, interleaved in the claim order so every scan meets several queues.
    const runs = Array.from({ length: 20 * queues.length }, (_, i) => queuedRun(scheduleId, i, queues[i % queues.length]!, T0 - 60_000));
    await setup.db.transaction((tx) => insertRuns(tx, runs, new Date(T0)));
    const claimers = await Promise.all(Array.from({ length: 4 }, () => server.open({ maxConnections: 1 })));
    // Two claimers carry their queues from claim to claim as runners do, two start afresh each time.
    const known: Array<ClaimQueues | undefined> = [{ due: [] }, { due: [] }, undefined, undefined];
    let seed = 20_261_202;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    for (let round = 0; round < 12; round += 1) {
      await Promise.all(
        claimers.map(async (database, index) => {
          await new Promise((resolve) => setTimeout(resolve, random() * 10));
          const pause = random() * 15;
          await database.db.transaction(async (tx) => {
            await claimRuns(tx, request(`r${index}`, T0, 1 + Math.floor(random() * 4), limits, known[index]));
            // Hold the queue locks a while, so that other claims meet them.
            await new Promise((resolve) => setTimeout(resolve, pause));
          });
        }),
      );
      const running = await runningByQueue(setup);
      for (const queue of queues) expect(running[queue] ?? 0, `${queue} after round ${round}`).toBeLessThanOrEqual(limits[queue]!);
      // Free a run of each full queue now and then, so that the claims keep meeting.
      if (round % 3 === 2) {
        await setup.db.execute(sql`update schedule_runs set status = 'SUCCESS', lease_owner = null, finished_at = ${new Date(T0).toISOString()}::timestamptz
          where id in (select min(id) from schedule_runs where status = 'RUNNING' group by queue)`);
      }
    }
    const claimer = claimers[0]!;
    await claimer.db.transaction((tx) => claimRuns(tx, request('last', T0, 100, limits)));
    expect(await runningByQueue(setup)).toEqual(limits);
    }));
});

/**
 * A claim first ranks a narrow scan of candidates (a little more than its capacity) and ranks the
 * full scan (max(4 × capacity, 100) of each set) only when the narrow one may choose differently
 * (worker-queries.ts, chooseRuns). Its choice must always be the full scan's: here random sets of
 * queued runs, due retries, running runs and queue limits, sized around both scans, are claimed and
 * compared with the full scan's choice computed independently in JavaScript.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';
import { claimRuns } from '../../src/db/worker-queries.js';
import { createPgliteDatabase } from '../support/databases.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';
import { explainStatement, rowsRead, scansOf } from '../support/query-plans.js';

const T0 = Date.parse('2026-11-29T12:00:00Z');
const QUEUES = ['a', 'b', 'c'];

interface RunSpec {
  status: 'QUEUED' | 'RETRY_PENDING' | 'RUNNING';
  /** 0–5, mapped to a queue by queueOf. */
  queue: number;
  priority: number;
  /** Seconds after 2026-11-28T00:00Z. */
  slot: number;
  /** Seconds before T0 it fell due (negative: not due yet). */
  dueFor: number;
}

/**
 * The queue of a run: spread evenly (skew 0), or with most runs in the first queue (skew 1: four in
 * six, skew 2: five in six): a full queue at the head of the claim order, where the narrow scan
 * must give way to the full one.
 */
const queueOf = (spec: RunSpec, skew: number): string => QUEUES[skew === 0 ? spec.queue % 3 : Math.max(0, spec.queue - 2 - skew)]!;

interface StoredRun {
  id: number;
  status: string;
  queue: string;
  priority: number;
  slotMs: number;
  runAfterMs: number;
}

/** The runs the full scan takes, in the claim's documented semantics (docs/reliability.md, "Known limit"). */
function fullScanChoice(runs: StoredRun[], capacity: number, limits: Record<string, number>, defaultLimit: number): number[] {
  const scan = Math.max(capacity * 4, 100);
  const claimOrder = (x: StoredRun, y: StoredRun) => x.priority - y.priority || x.slotMs - y.slotMs || x.id - y.id;
  const queued = runs.filter((r) => r.status === 'QUEUED' && r.runAfterMs <= T0).sort(claimOrder).slice(0, scan);
  const retries = runs
    .filter((r) => r.status === 'RETRY_PENDING' && r.runAfterMs <= T0)
    .sort((x, y) => x.runAfterMs - y.runAfterMs)
    .slice(0, scan);
  const running = new Map<string, number>();
  for (const r of runs) if (r.status === 'RUNNING') running.set(r.queue, (running.get(r.queue) ?? 0) + 1);
  const rank = new Map<string, number>();
  const taken: number[] = [];
  for (const candidate of [...queued, ...retries].sort(claimOrder)) {
    const n = (rank.get(candidate.queue) ?? 0) + 1;
    rank.set(candidate.queue, n);
    const free = (limits[candidate.queue] ?? defaultLimit) - (running.get(candidate.queue) ?? 0);
    if (n <= free && taken.length < capacity) taken.push(candidate.id);
  }
  return taken.sort((x, y) => x - y);
}

const runSpec = (dueRange: [number, number], status: fc.Arbitrary<RunSpec['status']>): fc.Arbitrary<RunSpec> =>
  fc.record({
    status,
    queue: fc.integer({ min: 0, max: 5 }),
    priority: fc.integer({ min: 1, max: 3 }),
    slot: fc.integer({ min: 0, max: 2 * 86_400 - 1 }),
    dueFor: fc.integer({ min: dueRange[0], max: dueRange[1] }),
  });

describe('claim: the narrow scan', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, { 'a.yaml': scheduleManifest('batch', { cron: '0 0 1 1 *' }) }, T0);
  });
  afterAll(() => database.close());

  async function store(specs: RunSpec[], skew = 0): Promise<StoredRun[]> {
    await database.db.execute(sql`delete from schedule_runs`);
    // Unique instants (a millisecond per run): a schedule has one run per slot and trigger, and
    // retries are read in run_after order, where a tie at the end of a scan would leave which one
    // is read to the plan.
    const slot = (s: RunSpec, index: number) => new Date(Date.parse('2026-11-28T00:00:00Z') + s.slot * 1000 + index).toISOString();
    const runAfter = (s: RunSpec, index: number) => new Date(T0 - s.dueFor * 1000 + index).toISOString();
    await database.db.execute(
      sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts, attempts)
          select s.id, s.version, x.slot, 'MANUAL', 'k' || x.n, x.status, x.priority, x.queue, x.run_after, 3, case when x.status = 'QUEUED' then 0 else 1 end
          from schedules s, unnest(${sql.param(specs.map((_, index) => index))}::int[], ${sql.param(specs.map(slot))}::timestamptz[], ${sql.param(specs.map((s) => s.status))}::text[],
            ${sql.param(specs.map((s) => s.priority))}::int[], ${sql.param(specs.map((s) => queueOf(s, skew)))}::text[], ${sql.param(specs.map(runAfter))}::timestamptz[])
            as x(n, slot, status, priority, queue, run_after)`,
    );
    const rows = await queryRows<{ id: string | number; status: string; queue: string; priority: number; slot_ms: number | string; run_after_ms: number | string }>(
      database.db,
      sql`select id, status, queue, priority, extract(epoch from scheduled_for) * 1000 as slot_ms, extract(epoch from run_after) * 1000 as run_after_ms from schedule_runs`,
    );
    return rows.map((r) => ({ id: Number(r.id), status: r.status, queue: r.queue, priority: r.priority, slotMs: Number(r.slot_ms), runAfterMs: Math.round(Number(r.run_after_ms)) }));
  }

  it('takes what the full scan takes, whatever the queues, limits and retries', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          capacity: fc.integer({ min: 34, max: 70 }),
          // Queued and due: around the narrow scan (capacity + 100) and the full one (4 × capacity).
          queued: fc.array(runSpec([0, 3_600], fc.constant('QUEUED')), { maxLength: 400, size: 'max' }),
          retries: fc.array(runSpec([0, 3_600], fc.constant('RETRY_PENDING')), { maxLength: 300, size: 'max' }),
          // Not due yet, and running (they use their queue's slots).
          others: fc.array(runSpec([-3_600, -1], fc.constantFrom('QUEUED', 'RETRY_PENDING')), { maxLength: 40, size: 'max' }),
          running: fc.array(runSpec([0, 60], fc.constant('RUNNING')), { maxLength: 60, size: 'max' }),
          limits: fc.tuple(fc.integer({ min: 1, max: 250 }), fc.integer({ min: 1, max: 250 })),
          defaultLimit: fc.integer({ min: 1, max: 400 }),
          skew: fc.constantFrom(0, 1, 2),
        }),
        async (c) => {
          const runs = await store([...c.queued, ...c.retries, ...c.others, ...c.running], c.skew);
          const limits = { a: c.limits[0], b: c.limits[1] };
          const expected = fullScanChoice(runs, c.capacity, limits, c.defaultLimit);
          const claimed = await database.db.transaction((tx) =>
            claimRuns(tx, { runnerId: 'r1', now: new Date(T0), leaseMs: 30_000, capacity: c.capacity, queueLimits: limits, defaultQueueLimit: c.defaultLimit }),
          );
          expect(claimed.map((run) => run.id).sort((x, y) => x - y)).toEqual(expected);
        },
      ),
      { numRuns: 100, seed: 20261202, endOnFailure: true },
    );
  });

  it('gives way to the full scan when a queue with room starts after the narrow one ends', async () => {
    // Capacity 40: a narrow scan of 140 queued runs, a full one of 160. The first 140 are in queue a
    // (room for 10 or 39), the next 20 in queue c (room for all); a due retry of queue b sorts last.
    const capacity = 40;
    const queued = (n: number, queue: number): RunSpec => ({ status: 'QUEUED', queue, priority: 2, slot: n, dueFor: 60 });
    const head = Array.from({ length: 140 }, (_, n) => queued(n, 0));
    const tail = Array.from({ length: 20 }, (_, n) => queued(140 + n, 2));
    const lastRetry: RunSpec = { status: 'RETRY_PENDING', queue: 1, priority: 3, slot: 0, dueFor: 30 };
    for (const [limit, retries] of [[10, []], [39, [lastRetry]]] as const) {
      // 10: the narrow scan takes 10, short of the capacity, and the full one 10 of a and 20 of c.
      // 39: the narrow scan fills the capacity with the retry after its last queued run; the full
      // one takes the first run of c instead, which sorts before the retry.
      const runs = await store([...head, ...tail, ...retries]);
      const claimed = await database.db.transaction((tx) => claimRuns(tx, { runnerId: 'r1', now: new Date(T0), leaseMs: 30_000, capacity, queueLimits: { a: limit }, defaultQueueLimit: 1_000 }));
      expect(claimed.map((run) => run.id).sort((x, y) => x - y)).toEqual(fullScanChoice(runs, capacity, { a: limit }, 1_000));
      expect(claimed.filter((run) => run.queue === 'c').length).toBe(limit === 10 ? 20 : 1);
    }
  });

  it('ranks a little more than its capacity when the first candidates fit', async () => {
    const busy: RunSpec[] = Array.from({ length: 2_000 }, (_, n) => ({ status: 'QUEUED', queue: 0, priority: 2, slot: n, dueFor: 60 }));
    await store(busy);
    const capacity = 200;
    // With the queue's lock already hinted (a busy runner's claim), the first ranking statement is the narrow one.
    const plan = await explainStatement(database, /^\s*with paused as/, (executor) =>
      claimRuns(executor, { runnerId: 'r1', now: new Date(T0), leaseMs: 30_000, capacity, queueLimits: {}, defaultQueueLimit: 10_000, queues: { due: ['a'] } }),
    );
    // The full scan would read 800; the narrow one reads capacity + 100.
    expect(rowsRead(scansOf(plan, 'active_runs'))).toBe(capacity + 100);
  });
});

/**
 * Applies the scale benchmark's schedules in a process of its own (its time and peak RSS are then
 * its own), the way `cronform apply` would: compile → plan against the database → apply.
 *
 * One plan cannot create more than ~5,400 schedules on PostgreSQL today (apply inserts all
 * versions and audit rows in one statement, and a statement takes at most 65,535 parameters), so
 * a one-plan probe of 6,000 runs first; when it fails, schedules are applied in cumulative batches
 * (each plan's desired set = every schedule so far), as a repository growing would.
 *  - mode `all`: every schedule through plan/apply.
 *  - mode `seed`: the first batch through plan/apply, the rest cloned in SQL from it (fast; for the
 *    default run, whose time budget cannot hold a full apply). Clones are real rows of the same
 *    shape (schedules + schedule_versions, next_run_at copied), never seen by a plan.
 *
 *   node bench/runner/cronform-apply.js <database-url> <count> <all|seed> <batch> <nowMs>
 * Prints one JSON line with the figures.
 */
import { compileSources } from '../../dist/compile/compile-sources.js';
import { planAgainstDatabase } from '../../dist/operations/plan.js';
import { applyPlan } from '../../dist/operations/apply.js';
import { systemClock } from '../../dist/shared/clock.js';
import { openMigrated } from './cronform-setup.js';
import { policyDocument, scaleSchedules, toSources } from './manifests.js';

const PROBE_COUNT = 6000;
const [url, countText, mode, batchText, nowText] = process.argv.slice(2);
const count = Number(countText);
const batch = Number(batchText);
const nowMs = Number(nowText);

const figures = { mode, count, compileMs: 0, planMs: 0, applyMs: 0, plans: 0, applied: 0, seeded: 0, seedMs: 0, probe: null };
const database = await openMigrated(url);

async function applyFirst(compiled, upTo) {
  const desired = { ...compiled, schedules: compiled.schedules.slice(0, upTo), scheduleDocuments: upTo };
  const t0 = performance.now();
  const plan = await planAgainstDatabase(database, desired, { nowMs: systemClock.nowMs() });
  const t1 = performance.now();
  if (plan.errors.length > 0) throw new Error(`plan has ${plan.errors.length} error(s): ${plan.errors[0].message}`);
  await applyPlan(database, plan, { author: { actor: 'bench', reason: null, gitSha: null }, clock: systemClock, lockTimeoutMs: 60_000 });
  const t2 = performance.now();
  figures.planMs += t1 - t0;
  figures.applyMs += t2 - t1;
  figures.plans += 1;
  figures.applied = upTo;
}

try {
  const compileCount = mode === 'all' ? count : Math.min(count, PROBE_COUNT);
  const t0 = performance.now();
  const compiled = compileSources(toSources(policyDocument(), scaleSchedules(compileCount, nowMs)), systemClock.nowMs());
  figures.compileMs = performance.now() - t0;
  figures.compiled = compileCount;
  if (compiled.diagnostics.some((d) => d.severity === 'error')) throw new Error(`manifests have errors: ${compiled.diagnostics[0].message}`);

  const probeCount = Math.min(count, PROBE_COUNT);
  const probeStartMs = performance.now();
  try {
    await applyFirst(compiled, probeCount);
    figures.probe = { count: probeCount, ok: true };
  } catch (error) {
    // The transaction rolled back: nothing of the probe is left.
    figures.probe = { count: probeCount, ok: false, ms: performance.now() - probeStartMs, error: (error.cause?.message ?? error.message).slice(0, 160) };
    figures.planMs = 0;
    figures.applyMs = 0;
    figures.plans = 0;
  }
  if (mode === 'all') {
    if (figures.probe.ok) {
      if (count > figures.applied) await applyFirst(compiled, count);
    } else {
      for (let upTo = Math.min(batch, count); figures.applied < count; upTo = Math.min(count, upTo + batch)) await applyFirst(compiled, upTo);
    }
  } else {
    if (!figures.probe.ok) await applyFirst(compiled, Math.min(batch, count));
    const t1 = performance.now();
    figures.seeded = await seedClones(figures.applied, count);
    figures.seedMs = performance.now() - t1;
  }
  figures.peakRssMb = process.resourceUsage().maxRSS / 1024;
  console.log(JSON.stringify(figures));
} finally {
  await database.close();
}

/** Schedules applied..count-1 as copies of the applied ones (same cron and next_run_at, new names). */
async function seedClones(applied, total) {
  if (total <= applied) return 0;
  const client = await database.db.$client.connect();
  try {
    await client.query('begin');
    await client.query(
      `insert into schedules (name, version, definition, digest, status, managed, next_run_at, created_at, updated_at)
       select n.name, 1, jsonb_set(t.definition, '{name}', to_jsonb(n.name)), t.digest, 'ACTIVE', true, t.next_run_at, now(), now()
       from generate_series($1::int, $2::int - 1) g
       cross join lateral (select 'scale-' || lpad(g::text, 6, '0') as name) n
       join schedules t on t.name = 'scale-' || lpad((g % $1::int)::text, 6, '0')`,
      [applied, total],
    );
    await client.query(
      `insert into schedule_versions (schedule_id, version, name, definition, digest, status, actor, created_at)
       select s.id, 1, s.name, s.definition, s.digest, 'ACTIVE', 'bench-seed', now()
       from schedules s where not exists (select 1 from schedule_versions v where v.schedule_id = s.id)`,
    );
    await client.query('commit');
    await client.query('analyze schedules');
  } finally {
    client.release();
  }
  return total - applied;
}

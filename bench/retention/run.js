/**
 * The retention benchmark (issue 20 item 1, SPEC §8b): with 10,000,000 runs stored, `status`,
 * `runs <name>` and the claim cost what they cost with only the recent history a retention would
 * leave (target: within 1.5×), and retention deletes one day of runs quickly (target: under 1 s).
 *
 * On a fresh PostgreSQL database (bench_retention_…, dropped afterwards unless --keep):
 *   1. `--schedules` schedules; the last `--recent-days` days of runs (one every `interval` per
 *      schedule, spread so that the full history holds `--runs` runs over `--days` days), each
 *      executed run with one attempt; measure status, runs <name> and a claim ("recent only");
 *   2. add the older history up to `--runs` runs; measure the same ("full history");
 *   3. time the built retention pass (dist/runner/retention.js) dropping the oldest day (the run
 *      tables are partitioned by day: the days a runner would have made are created first).
 * The claim is measured on 1,000 QUEUED runs, each claim of 50 rolled back so every repeat sees
 * the same queue. Figures are medians of `--repeats`.
 *
 *   npm run build && node bench/retention/run.js [--runs 10000000] [--days 100] [--recent-days 8]
 *     [--schedules 100] [--repeats 7] [--server postgres://postgres@127.0.0.1:5432/postgres] [--keep] [--no-fail]
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDistStale } from '../shared/built-dist.js';
import { median } from '../shared/figures.js';
import { connect, DEFAULT_SERVER_URL, withFreshDatabase } from '../runner/databases.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const DAY_MS = 86_400_000;
const RATIO_TARGET = 1.5;
const RETENTION_DAY_TARGET_MS = 1_000;

function parseOptions(argv) {
  const value = (name, fallback) => {
    const index = argv.indexOf(name);
    return index === -1 ? fallback : argv[index + 1];
  };
  return {
    runs: Number(value('--runs', 10_000_000)),
    days: Number(value('--days', 100)),
    recentDays: Number(value('--recent-days', 8)),
    schedules: Number(value('--schedules', 100)),
    repeats: Number(value('--repeats', 7)),
    serverUrl: value('--server', process.env.BENCH_DATABASE_URL ?? DEFAULT_SERVER_URL),
    keep: argv.includes('--keep'),
    noFail: argv.includes('--no-fail'),
  };
}

function ensureBuilt() {
  const entry = path.join(repoRoot, 'dist/runner/retention.js');
  if (existsSync(entry) && !isDistStale(repoRoot, entry)) return;
  console.log('dist/ is missing or older than src/: running npm run build');
  spawnSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: 'inherit' });
  if (!existsSync(entry)) throw new Error('build failed: nothing to measure');
}

async function timeMs(body) {
  const started = process.hrtime.bigint();
  await body();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function medianMs(repeats, body) {
  await body(); // warm-up
  const times = [];
  for (let i = 0; i < repeats; i += 1) times.push(await timeMs(body));
  return median(times);
}

/** Runs of slots k = from … to of every schedule: slot = now − k × interval; ~94 % SUCCESS. */
async function insertRuns(client, { nowIso, intervalS, fromK, toK }) {
  await client.query(
    `insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, status_reason, priority, queue,
       run_after, attempts, max_attempts, created_at, started_at, finished_at)
     select s.id, 1, slot, 'SCHEDULED', s.name || ':' || slot || ':SCHEDULED', st, case st when 'SKIPPED' then 'OVERLAP' end, 2, 'default',
       slot, case when st = 'SKIPPED' then 0 else 1 end, 1, slot,
       case when st <> 'SKIPPED' then slot + make_interval(secs => (h % 30) / 10.0) end,
       slot + make_interval(secs => (h % 30) / 10.0 + 1 + h % 60)
     from schedules s
     cross join lateral generate_series($2::int, $3::int) k
     cross join lateral (select $1::timestamptz - make_interval(secs => k * $4::float8) as slot, abs(hashint8(s.id * 100003 + k)) % 1000 as h) v
     cross join lateral (select case when v.h < 40 then 'FAILED' when v.h < 60 then 'SKIPPED' else 'SUCCESS' end as st) t`,
    [nowIso, fromK, toK, intervalS],
  );
  await client.query(
    `insert into run_attempts (run_id, attempt, scheduled_for, runner_id, status, started_at, finished_at, exit_code)
     select r.id, 1, r.scheduled_for, 'bench-runner', case r.status when 'SUCCESS' then 'SUCCEEDED' else 'FAILED' end, r.started_at, r.finished_at, case r.status when 'SUCCESS' then 0 else 1 end
     from schedules s join schedule_runs r on r.schedule_id = s.id
     where r.started_at is not null and r.trigger_type = 'SCHEDULED'
       and r.scheduled_for >= $1::timestamptz - make_interval(secs => $3 * $4::float8) and r.scheduled_for <= $1::timestamptz - make_interval(secs => $2 * $4::float8)`,
    [nowIso, fromK, toK, intervalS],
  );
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  ensureBuilt();
  const { openDatabase } = await import('../../dist/db/client.js');
  const { migrateDatabase } = await import('../../dist/db/migrate.js');
  const { compileSources } = await import('../../dist/compile/compile-sources.js');
  const { readScheduleStatus } = await import('../../dist/operations/runs/schedule-status.js');
  const { listRuns } = await import('../../dist/operations/runs/list-runs.js');
  const { claimRuns } = await import('../../dist/db/worker-queries.js');
  const { runRetentionPass } = await import('../../dist/runner/retention.js');
  const { ensureDayPartitions, listRunPartitions } = await import('../../dist/db/run-partitions.js');
  const load = os.loadavg()[0];
  console.log(`# Retention benchmark — ${new Date().toISOString()}`);
  console.log(`Node ${process.version}, ${os.cpus().length} cores, load average ${load.toFixed(2)}${load > os.cpus().length / 2 ? ' (busy machine: wall times not representative)' : ''}`);
  const nowMs = Math.floor(Date.now() / 60_000) * 60_000;
  const nowIso = new Date(nowMs).toISOString();
  const perSchedule = Math.floor(options.runs / options.schedules);
  const intervalS = (options.days * 86_400) / perSchedule;
  const recentK = Math.floor((options.recentDays * 86_400) / intervalS);
  console.log(`${options.schedules} schedules × ${perSchedule} runs over ${options.days} days (one every ${intervalS.toFixed(1)} s each); recent only: ${options.recentDays} days (${recentK * options.schedules} runs)`);

  await withFreshDatabase(options.serverUrl, 'retention', options, async ({ url }) => {
    const database = await openDatabase({ url, maxConnections: 5 });
    await migrateDatabase(database);
    // The days a runner would have made as they came (db/run-partitions.ts): first only the recent
    // ones, as a retention would leave them; the older ones before the older history goes in.
    const recentFromMs = nowMs - (options.recentDays + 1) * DAY_MS;
    await ensureDayPartitions(database, recentFromMs, nowMs + 2 * DAY_MS);
    const client = await connect(url);
    const text = ['apiVersion: cronform/v1', 'kind: Schedule', 'metadata: { name: template }', 'spec:', '  cron: "* * * * *"', '  timezone: UTC', '  job: { type: command, command: [node, jobs/x.js] }', ''].join('\n');
    const template = compileSources([{ file: 'schedules/template.yaml', text }], nowMs).schedules[0];
    await client.query(
      `insert into schedules (name, version, definition, digest, status, managed, next_run_at, last_scheduled_for)
       select format('job-%s', lpad(g::text, 4, '0')), 1, jsonb_set($1::jsonb, '{name}', to_jsonb(format('job-%s', lpad(g::text, 4, '0')))), $2, 'ACTIVE', true, $3::timestamptz + interval '1 minute', $3::timestamptz
       from generate_series(1, $4::int) g`,
      [JSON.stringify(template.definition), template.digest, nowIso, options.schedules],
    );
    await client.query(`insert into schedule_versions (schedule_id, version, name, definition, digest, status, actor) select id, 1, name, definition, digest, 'ACTIVE', 'bench' from schedules`);
    // The claim's queue: 1,000 runs due now (slot k = 0 is free: history starts at k = 1).
    await client.query(
      `insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, max_attempts)
       select s.id, 1, $1::timestamptz - make_interval(secs => q * 0.001), 'MANUAL', s.name || ':q' || q, 'QUEUED', 2, 'default', $1::timestamptz - interval '1 second', 1
       from schedules s cross join generate_series(1, ceil(1000.0 / $2)::int) q`,
      [nowIso, options.schedules],
    );

    const measure = async (label) => {
      await client.query('analyze');
      const status = await medianMs(options.repeats, () => readScheduleStatus(database, { nowMs }));
      const runs = await medianMs(options.repeats, () => listRuns(database, { name: 'job-0042', limit: 20, nowMs }));
      const claim = await medianMs(options.repeats, async () => {
        await database.db
          .transaction(async (tx) => {
            const claimed = await claimRuns(tx, { runnerId: 'bench', now: new Date(nowMs), leaseMs: 30_000, capacity: 50, queueLimits: { default: 1_000 }, defaultQueueLimit: 1_000 });
            if (claimed.length !== 50) throw new Error(`claimed ${claimed.length}, expected 50`);
            throw new RolledBack();
          })
          .catch((error) => {
            if (!(error instanceof RolledBack)) throw error;
          });
      });
      const size = (table) => `pg_size_pretty((select sum(pg_total_relation_size(inhrelid)) from pg_inherits where inhparent = '${table}'::regclass))`;
      const { rows } = await client.query(`select count(*)::int as n, ${size('schedule_runs')} as runs_size, ${size('run_attempts')} as attempts_size from schedule_runs`);
      const days = (await listRunPartitions(database.db)).filter((p) => p.isDay).length;
      console.log(`  ${label}: ${rows[0].n} runs in ${days} day partitions (schedule_runs ${rows[0].runs_size}, run_attempts ${rows[0].attempts_size}): status ${status.toFixed(1)} ms, runs <name> ${runs.toFixed(1)} ms, claim of 50 ${claim.toFixed(1)} ms`);
      return { status, runs, claim };
    };

    let started = Date.now();
    await insertRuns(client, { nowIso, intervalS, fromK: 1, toK: recentK });
    console.log(`  seeded the recent runs in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    const recent = await measure('recent only');
    await ensureDayPartitions(database, nowMs - (options.days + 1) * DAY_MS, recentFromMs);
    started = Date.now();
    const chunk = Math.ceil((perSchedule - recentK) / 10);
    for (let from = recentK + 1; from <= perSchedule; from += chunk) {
      await insertRuns(client, { nowIso, intervalS, fromK: from, toK: Math.min(perSchedule, from + chunk - 1) });
      console.log(`  … slots up to ${Math.min(perSchedule, from + chunk - 1)} of ${perSchedule} per schedule (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }
    await client.query('vacuum analyze schedule_runs');
    await client.query('vacuum analyze run_attempts');
    const full = await measure('full history');

    // Retention of the oldest whole day: a retention reaching back to its end.
    const { rows: oldest } = await client.query(`select min(scheduled_for) as t from schedule_runs`);
    const firstMidnight = Math.ceil(new Date(oldest[0].t).getTime() / DAY_MS) * DAY_MS;
    const runsMs = nowMs - (firstMidnight + DAY_MS);
    const { rows: day } = await client.query(`select count(*)::int as n from schedule_runs where scheduled_for < $1::timestamptz`, [new Date(firstMidnight + DAY_MS).toISOString()]);
    let pass;
    const retentionMs = await timeMs(async () => {
      pass = await runRetentionPass(database, { nowMs, policyRetention: { runsMs, keepLast: 100 }, batchSize: 5_000, maxBatches: 100_000 });
    });
    console.log(`  retention of the oldest day (and the partial day before it): ${pass.deleted} runs (expected ${day[0].n}), ${pass.days} day partitions dropped and ${pass.batches} row batches, ${retentionMs.toFixed(0)} ms (${((pass.deleted / retentionMs) * 1000).toFixed(0)} runs/s)`);

    const rows = [
      ['status', recent.status, full.status],
      ['runs <name>', recent.runs, full.runs],
      ['claim of 50', recent.claim, full.claim],
    ];
    console.log('\n| figure | recent only | full history | ratio | target | verdict |\n|---|---|---|---|---|---|');
    let failed = false;
    for (const [label, a, b] of rows) {
      const ratio = b / a;
      const ok = ratio <= RATIO_TARGET;
      failed ||= !ok;
      console.log(`| ${label} | ${a.toFixed(1)} ms | ${b.toFixed(1)} ms | ${ratio.toFixed(2)}× | ≤ ${RATIO_TARGET}× | ${ok ? 'ok' : 'FAIL'} |`);
    }
    const dayOk = retentionMs <= RETENTION_DAY_TARGET_MS;
    failed ||= !dayOk;
    console.log(`| retention of one day (${pass.deleted} runs) | | ${retentionMs.toFixed(0)} ms | | < ${RETENTION_DAY_TARGET_MS} ms | ${dayOk ? 'ok' : 'FAIL'} |`);
    await client.end();
    await database.close();
    if (failed && !options.noFail) process.exitCode = 1;
  });
}

class RolledBack extends Error {}

await main();

/**
 * What one `GET /metrics` scrape costs on a large history: 10,000 schedules and 1,000,000 runs
 * (1,000 of them unfinished) on PostgreSQL, measured on the built RunnerMetrics (dist/). The first
 * scrape also reads each schedule's last success (once per process); the following ones read only
 * active_runs and runners. Target: a steady scrape well under the 10 s default scrape timeout and
 * independent of the history, here under 100 ms median.
 *
 *   npm run build && node bench/metrics/scrape.js [--schedules N] [--runs N] [--keep] [--no-fail]
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { isDistStale } from '../shared/built-dist.js';
import { DEFAULT_SERVER_URL, withFreshDatabase } from '../runner/databases.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const { values } = parseArgs({ options: { schedules: { type: 'string', default: '10000' }, runs: { type: 'string', default: '1000000' }, keep: { type: 'boolean', default: false }, 'no-fail': { type: 'boolean', default: false } } });
const schedules = Number(values.schedules);
const runs = Number(values.runs);
const entry = path.join(repoRoot, 'dist', 'http', 'metrics', 'runner-metrics.js');
if (!existsSync(entry) || isDistStale(repoRoot, entry)) {
  console.error('dist/ is missing or older than src/: run `npm run build` first');
  process.exit(1);
}
const { openDatabase } = await import('../../dist/db/client.js');
const { migrateDatabase } = await import('../../dist/db/migrate.js');
const { RunnerMetrics } = await import('../../dist/http/metrics/runner-metrics.js');
const { systemClock } = await import('../../dist/shared/clock.js');
const { silentLogger } = await import('../../dist/shared/logger.js');
const { sql } = await import('drizzle-orm');
const serverUrl = process.env.CRONFORM_BENCH_DATABASE_URL ?? DEFAULT_SERVER_URL;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

await withFreshDatabase(serverUrl, 'metrics', { keep: values.keep }, async ({ url }) => {
  const database = await openDatabase({ url, maxConnections: 2 });
  try {
    await migrateDatabase(database);
    const seedStart = performance.now();
    // Schedules, then their history: runs spread over the schedules, one slot a minute each, all
    // finished (mostly SUCCESS) but the last 1,000, which stay QUEUED (active_runs).
    const run = (statement) => database.db.execute(sql.raw(statement));
    await run(
      `insert into schedules (name, version, definition, digest, next_run_at)
       select 'schedule-' || i, 1, '{}'::jsonb, 'd', now() + interval '1 hour' from generate_series(1, ${schedules}) i`,
    );
    await run(
      `insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue,
         run_after, max_attempts, attempts, started_at, finished_at)
       select s.id, 1, t.slot, 'SCHEDULED', 'k' || i, st.status, 2, 'q' || (i % 5), t.slot, 1,
         case when st.status = 'QUEUED' then 0 else 1 end,
         case when st.status = 'QUEUED' then null else t.slot end,
         case when st.status = 'QUEUED' then null else t.slot + interval '1 second' end
       from generate_series(1, $1) i
       join schedules s on s.id = 1 + (i % $2)
       cross join lateral (select timestamptz '2026-01-01' + (i / $2) * interval '1 minute' as slot) t
       cross join lateral (select case when i > $1 - 1000 then 'QUEUED' when i % 10 = 0 then 'FAILED' else 'SUCCESS' end as status) st`
        .replaceAll('$1', String(runs))
        .replaceAll('$2', String(schedules)),
    );
    await run(`insert into runners (id, hostname, pid, version, started_at, heartbeat_at) select 'r' || i, 'h', i, 'v', now(), now() from generate_series(1, 3) i`);
    await run('analyze');
    const seedMs = performance.now() - seedStart;

    const metrics = new RunnerMetrics({ database, clock: systemClock, runnerSilenceMs: 90_000, logger: silentLogger, processMetrics: false });
    const firstStart = performance.now();
    const firstText = await metrics.render();
    const firstMs = performance.now() - firstStart;
    const steady = [];
    let text = '';
    for (let i = 0; i < 20; i += 1) {
      const start = performance.now();
      text = await metrics.render();
      steady.push(performance.now() - start);
    }
    const steadyMs = median(steady);
    const ok = steadyMs < 100;
    console.log(`metrics scrape on ${schedules.toLocaleString('en')} schedules, ${runs.toLocaleString('en')} runs (1,000 unfinished), PostgreSQL (seeded in ${(seedMs / 1000).toFixed(1)} s)`);
    console.log('| scrape | wall | output |');
    console.log('|---|---|---|');
    console.log(`| first (reads the last successes once) | ${firstMs.toFixed(0)} ms | ${(firstText.length / 1024).toFixed(0)} KiB |`);
    console.log(`| steady, median of 20 | ${steadyMs.toFixed(1)} ms (target < 100 ms: ${ok ? 'ok' : 'FAIL'}) | ${(text.length / 1024).toFixed(0)} KiB |`);
    if (!ok && !values['no-fail']) process.exitCode = 1;
  } finally {
    await database.close();
  }
});

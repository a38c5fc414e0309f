/**
 * The dashboard benchmark (issue 16 item 5): every page rendered server-side in under 200 ms with
 * 10,000 schedules and 1,000,000 runs stored. Creates a database on the server (bench_dashboard_…),
 * migrates and seeds it with generate_series (seed.js), serves the built dashboard handler (dist/)
 * on loopback, requests each page `--runs` times and prints the median and worst render time (the
 * handler's Server-Timing) and wall time per page against the target. The database is dropped
 * afterwards unless --keep.
 *
 *   npm run build && node bench/dashboard/run.js [--runs 7] [--schedules 10000] [--run-count 1000000]
 *     [--server postgres://postgres@127.0.0.1:5432/postgres] [--keep] [--no-fail]
 */
import { createServer } from 'node:http';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { isDistStale } from '../shared/built-dist.js';
import { median } from '../shared/figures.js';
import { DEFAULT_SERVER_URL, withFreshDatabase } from '../runner/databases.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const TARGET_MS = 200;

function parseOptions(argv) {
  const value = (name, fallback) => {
    const index = argv.indexOf(name);
    return index === -1 ? fallback : argv[index + 1];
  };
  return {
    runs: Number(value('--runs', 7)),
    schedules: Number(value('--schedules', 10_000)),
    runCount: Number(value('--run-count', 1_000_000)),
    serverUrl: value('--server', process.env.BENCH_DATABASE_URL ?? DEFAULT_SERVER_URL),
    keep: argv.includes('--keep'),
    noFail: argv.includes('--no-fail'),
  };
}

function ensureBuilt() {
  const entry = path.join(repoRoot, 'dist/http/dashboard/index.js');
  if (existsSync(entry) && !isDistStale(repoRoot, entry)) return;
  console.log('dist/ is missing or older than src/: running npm run build');
  spawnSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: 'inherit' });
  if (!existsSync(entry)) throw new Error('build failed: nothing to measure');
}

/** The pages, with the heaviest cases: a page of every-minute schedules (10,000+ runs each). */
function pages(schedules) {
  const last = Math.ceil(schedules / 100);
  return [
    ['schedules, page 1', '/'],
    [`schedules, page ${last} (last)`, `/?page=${last}`],
    ['schedules, every-minute ones', '/?q=job-0000'],
    ['schedule page, every-minute', '/schedules/team-01-job-00001'],
    ['schedule page, hourly', '/schedules/team-20-job-00100'],
    ['timeline, page 1', '/timeline'],
    ['timeline, every-minute ones', '/timeline?q=job-0000'],
    ['waiting runs', '/waiting'],
  ];
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  ensureBuilt();
  const { openDatabase } = await import('../../dist/db/client.js');
  const { migrateDatabase } = await import('../../dist/db/migrate.js');
  const { createDashboardHandler } = await import('../../dist/http/dashboard/index.js');
  const { systemClock } = await import('../../dist/shared/clock.js');
  const { seedDashboardDatabase } = await import('./seed.js');
  const load = os.loadavg()[0];
  console.log(`# Dashboard benchmark — ${new Date().toISOString()}`);
  console.log(`Node ${process.version}, ${os.cpus().length} cores, load average ${load.toFixed(2)}${load > os.cpus().length / 2 ? ' (busy machine: wall times not representative)' : ''}`);
  await withFreshDatabase(options.serverUrl, 'dashboard', options, async ({ url }) => {
    const database = await openDatabase({ url, maxConnections: 5 });
    await migrateDatabase(database);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const nowMs = systemClock.nowMs();
    const seedStarted = performance.now();
    await seedDashboardDatabase(client, { nowMs, schedules: options.schedules, runs: options.runCount });
    const counts = (await client.query('select (select count(*) from schedules) as schedules, (select count(*) from schedule_runs) as runs, (select count(*) from run_attempts) as attempts')).rows[0];
    await client.end();
    console.log(`seeded ${counts.schedules} schedules, ${counts.runs} runs, ${counts.attempts} attempts in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`);
    const handler = createDashboardHandler({ database, clock: systemClock, allowActions: false });
    const server = createServer((request, response) => {
      void handler(request, response, new URL(request.url ?? '/', 'http://127.0.0.1')).then((handled) => handled || response.writeHead(404).end());
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${server.address().port}`;
    const rows = [];
    try {
      for (const [label, pagePath] of pages(options.schedules)) {
        const renders = [];
        const walls = [];
        let bytes = 0;
        // One request first to warm the plan cache and the JIT; not counted.
        await (await fetch(base + pagePath)).text();
        for (let run = 0; run < options.runs; run += 1) {
          const started = performance.now();
          const response = await fetch(base + pagePath);
          const body = await response.text();
          walls.push(performance.now() - started);
          if (response.status !== 200) throw new Error(`${pagePath}: HTTP ${response.status}`);
          renders.push(Number(/dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '')?.[1] ?? NaN));
          bytes = body.length;
        }
        rows.push({ label, path: pagePath, renderMedian: median(renders), renderMax: Math.max(...renders), wallMedian: median(walls), kb: bytes / 1024 });
      }
    } finally {
      server.close();
      await database.close();
    }
    console.log('');
    console.log(`| page | path | target | render median | render worst | wall median | size | verdict |`);
    console.log(`|---|---|---|---|---|---|---|---|`);
    let failed = 0;
    for (const row of rows) {
      const ok = row.renderMedian < TARGET_MS;
      if (!ok) failed += 1;
      console.log(`| ${row.label} | \`${row.path}\` | < ${TARGET_MS} ms | ${row.renderMedian.toFixed(0)} ms | ${row.renderMax.toFixed(0)} ms | ${row.wallMedian.toFixed(0)} ms | ${row.kb.toFixed(0)} KB | ${ok ? 'ok' : 'FAIL'} |`);
    }
    if (failed > 0 && !options.noFail) process.exitCode = 1;
  });
}

await main();

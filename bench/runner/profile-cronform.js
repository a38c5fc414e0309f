/**
 * Where a cronform runner's time goes: one Runner (no-op executor) in this process, every
 * PostgreSQL statement timed by its first 70 characters. Workloads of the benchmark:
 *   throughput — N QUEUED runs, until all are done
 *   real       — the same with the real executors: every run spawns `true` (the `real` benchmark)
 *   delay      — 200 minute + 50 per-second crons for S seconds; prints the start delays too
 * Not part of `npm run bench:runner`; a tool for whoever optimizes the engine.
 *
 *   node bench/runner/profile-cronform.js throughput [runs=20000] [concurrency=10]
 *   node bench/runner/profile-cronform.js real [runs=500] [concurrency=10]
 *   node bench/runner/profile-cronform.js delay [seconds=70] [concurrency=10]
 *
 * With CRONFORM_CPU_PROFILE=<file.cpuprofile>, the runner phase alone (no setup) is also recorded
 * as a V8 CPU profile (open it in Chrome DevTools or VS Code); with CRONFORM_HEAP_PROFILE=
 * <file.heapprofile>, as a sampling profile of what it allocated, collected garbage included (where
 * the garbage collector's share of the runner's time comes from).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import { readServerCpuByPid, sumServerCpuMs } from './cpu.js';
import { connect, createDatabase, DEFAULT_SERVER_URL } from './databases.js';
import { applySources, createQueuedRuns, listSchedules, openMigrated } from './cronform-setup.js';
import { delaySchedules, policyDocument, throughputSchedules, toSources } from './manifests.js';
import { Runner } from '../../dist/runner/runner.js';
import { systemClock } from '../../dist/shared/clock.js';
import { sleep, summarizeDelays } from './report.js';

// The pg that cronform's dist/ resolves (the project's), not the peers' copy in this folder.
const pg = createRequire(new URL('../../dist/db/client.js', import.meta.url))('pg');
const workload = process.argv[2] ?? 'throughput';
const amount = Number(process.argv[3] ?? ({ delay: 70, real: 500 }[workload] ?? 20_000));
const concurrency = Number(process.argv[4] ?? 10);

const statements = new Map();
const claimMs = [];
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function timedQuery(config, values, callback) {
  const text = typeof config === 'string' ? config : (config?.text ?? '');
  const key = text.replace(/\s+/g, ' ').trim().slice(0, 70);
  const t0 = performance.now();
  const result = originalQuery.call(this, config, values, callback);
  result?.then?.(
    () => {
      const ms = performance.now() - t0;
      const entry = statements.get(key) ?? { calls: 0, ms: 0 };
      entry.calls += 1;
      entry.ms += ms;
      statements.set(key, entry);
      if (key.startsWith('with locked')) claimMs.push(ms);
    },
    () => undefined,
  );
  return result;
};

const noop = async () => ({ status: 'SUCCEEDED', exitCode: 0, httpStatus: null, error: null, stdoutTail: null, stderrTail: null, durationMs: 0 });
const database = await createDatabase(process.env.BENCH_DATABASE_URL ?? DEFAULT_SERVER_URL, 'cronform_profile');
try {
  const cronform = await openMigrated(database.url, concurrency + 2);
  if (workload === 'delay') {
    await applySources(cronform, toSources(policyDocument({ minInterval: '1s', maxRunsPerDay: 100_000 }), delaySchedules({ minute: 200, second: 50 })));
  } else {
    await applySources(cronform, toSources(policyDocument(), throughputSchedules(200)));
    await createQueuedRuns(cronform, await listSchedules(cronform), { count: amount });
  }
  statements.clear();
  const executors = workload === 'real' ? { baseDir: process.cwd(), env: process.env } : { baseDir: '.', env: {}, execute: noop };
  const runner = new Runner(cronform, { clock: systemClock, concurrency, ...executors });
  const client = await connect(database.url);
  // The server's CPU by process, this polling connection's own backend left out.
  const pollPid = Number((await client.query('select pg_backend_pid() as pid')).rows[0].pid);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const pgCpu0 = readServerCpuByPid(pollPid);
  const profilePath = process.env.CRONFORM_CPU_PROFILE;
  const heapProfilePath = process.env.CRONFORM_HEAP_PROFILE;
  const inspector = profilePath || heapProfilePath ? new Session() : undefined;
  if (inspector) {
    inspector.connect();
    if (profilePath) {
      await inspector.post('Profiler.enable');
      await inspector.post('Profiler.start');
    }
    if (heapProfilePath) {
      await inspector.post('HeapProfiler.enable');
      await inspector.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    }
  }
  const startedAt = new Date();
  await runner.start();
  if (workload === 'delay') await sleep(amount * 1000);
  else {
    for (;;) {
      const { rows } = await client.query(`select count(*) as n from schedule_runs where status in ('QUEUED', 'RUNNING')`);
      if (Number(rows[0].n) === 0) break;
      await sleep(50);
    }
  }
  const elapsedMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const pgCpuMs = sumServerCpuMs(pgCpu0, readServerCpuByPid(pollPid), pollPid);
  if (inspector) {
    if (profilePath) writeFileSync(profilePath, JSON.stringify((await inspector.post('Profiler.stop')).profile));
    if (heapProfilePath) writeFileSync(heapProfilePath, JSON.stringify((await inspector.post('HeapProfiler.stopSampling')).profile));
    inspector.disconnect();
  }
  await runner.stop();
  if (workload === 'delay') {
    const { rows } = await client.query(
      `select s.name like 'minute-%' as minute, extract(epoch from r.started_at - r.scheduled_for) * 1000 as delay_ms,
         extract(epoch from r.created_at - r.scheduled_for) * 1000 as created_ms
       from schedule_runs r join schedules s on s.id = r.schedule_id
       where r.scheduled_for >= $1::timestamptz + interval '2 seconds' and r.started_at is not null`,
      [startedAt],
    );
    for (const minute of [true, false]) {
      const d = summarizeDelays(rows.filter((r) => r.minute === minute).map((r) => Number(r.delay_ms)));
      const c = summarizeDelays(rows.filter((r) => r.minute === minute).map((r) => Number(r.created_ms)));
      console.log(`${minute ? 'minute' : 'second'} crons: ${d.count} starts, start − slot p50 ${d.p50?.toFixed(0)} p95 ${d.p95?.toFixed(0)} p99 ${d.p99?.toFixed(0)} max ${d.max?.toFixed(0)} ms; of which run created − slot p50 ${c.p50?.toFixed(0)} p99 ${c.p99?.toFixed(0)} ms`);
    }
  }
  await client.end();
  await cronform.close();
  const totalMs = [...statements.values()].reduce((sum, s) => sum + s.ms, 0);
  const rate = workload === 'delay' ? '' : `, ${Math.round((amount / elapsedMs) * 1000)} runs/s`;
  const runnerCpuMs = (cpu.user + cpu.system) / 1000;
  console.log(`${workload} ${amount}, concurrency ${concurrency}: ${Math.round(elapsedMs)} ms${rate}; statements ${Math.round(totalMs)} ms in all (the poll excluded); runner process CPU ${Math.round(runnerCpuMs)} ms`);
  if (workload !== 'delay') {
    // Steadier than wall time when other work shares the machine (PostgreSQL's includes its background processes).
    const perRun = (ms) => ((ms * 1000) / amount).toFixed(1);
    console.log(`CPU per run: runner ${perRun(runnerCpuMs)} µs, PostgreSQL ${pgCpuMs === null ? 'n/a' : `${perRun(pgCpuMs)} µs`}`);
  }
  console.log('  calls   total ms   ms/call  statement');
  for (const [key, s] of [...statements.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12)) {
    console.log(`${String(s.calls).padStart(7)} ${s.ms.toFixed(0).padStart(10)} ${(s.ms / s.calls).toFixed(2).padStart(9)}  ${key}`);
  }
  const average = (values) => (values.reduce((a, b) => a + b, 0) / Math.max(1, values.length)).toFixed(2);
  console.log(`claim statement ms: first 200 ${average(claimMs.slice(0, 200))}, last 200 ${average(claimMs.slice(-200))}`);
} finally {
  await database.drop();
}

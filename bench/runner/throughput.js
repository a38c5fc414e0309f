/**
 * Throughput: N no-op jobs created up front, then worker process(es) started together; timed from
 * `go` to the poll (every 50 ms) that sees nothing left. Creation is timed separately. Every system
 * runs on its own fresh database; workers run in child processes, so one or two processes compare.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, withFreshDatabase } from './databases.js';
import { startChild } from './child-protocol.js';
import { readChildrenCpuMs, readProcessCpuMs, readServerCpuByPid, sumServerCpuMs } from './cpu.js';
import { applySources, createQueuedRuns, listSchedules, notifyRunsQueued, openMigrated } from './cronform-setup.js';
import { policyDocument, throughputSchedules, toSources } from './manifests.js';
import { createGraphileWorkerJobs, createPgBossJobs, installGraphileWorker } from './peers-setup.js';
import { formatNumber, median, printTable, sleep, verdict } from './report.js';
import { describeWaits, startWaitSampler } from './wait-sampler.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const POLL_MS = 50;
const STALL_MS = 60_000;
const PG_BOSS_QUEUE = 'noop';

/** Polls `remainingSql` until it returns 0; returns ms from `t0`, or throws when progress stalls. */
async function waitUntilDrained(client, remainingSql, t0) {
  let last = Number.POSITIVE_INFINITY;
  let lastProgressMs = performance.now();
  for (;;) {
    const { rows } = await client.query(remainingSql);
    const remaining = Number(rows[0].remaining);
    const now = performance.now();
    if (remaining === 0) return now - t0;
    if (remaining < last) {
      last = remaining;
      lastProgressMs = now;
    } else if (now - lastProgressMs > STALL_MS) {
      throw new Error(`no progress for ${STALL_MS / 1000}s with ${remaining} left`);
    }
    await sleep(POLL_MS);
  }
}

/** The server's WAL insert position: what it wrote in between is the volume of the work's writes. */
async function readWalLsn(client) {
  const { rows } = await client.query('select pg_current_wal_insert_lsn()::text as lsn');
  return rows[0].lsn;
}

async function countWalBytesSince(client, lsn) {
  const { rows } = await client.query('select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1::pg_lsn)::float8 as bytes', [lsn]);
  return Number(rows[0].bytes);
}

/** CPU ms of the worker children together (null where /proc has none) and of the server, by pid. */
function readCpu(children, pollPid) {
  const workers = children.map((child) => readProcessCpuMs(child.pid));
  return { workersMs: workers.includes(null) ? null : workers.reduce((a, b) => a + b, 0), server: readServerCpuByPid(pollPid) };
}

/**
 * Starts `processes` children (all ready first), says go, waits for the drain, stops them. Also
 * returns what the workers and the PostgreSQL server spent in CPU between go and the drain (the
 * poll's own backend left out; the jobs' child processes, for real commands, are not the
 * workers'), and the WAL the server wrote meanwhile (every database on it, the poll's count(*)
 * included): where the time of each system goes, which jobs/s alone hides.
 */
async function runWorkers({ url, script, args, processes, remainingSql, sampleWaits = false, warm = null, env = process.env }) {
  const children = [];
  const client = await connect(url);
  try {
    for (let i = 0; i < processes; i += 1) children.push(await startChild(path.join(here, script), [url, ...args], { env }));
    const { rows } = await client.query('select pg_backend_pid() as pid');
    const pollPid = Number(rows[0].pid);
    // Warm: the workers start (connect, warm their code) on untimed runs of their own first; then
    // the timed runs are created without waking anyone, and `warm.start()` wakes them at t0.
    if (warm !== null) {
      for (const child of children) child.go();
      await warm.prepare();
      await waitUntilDrained(client, remainingSql, performance.now());
      await warm.createTimed();
    }
    // The sampler's own backend and process cost CPU too: only when asked (--sample-waits).
    const sampler = sampleWaits ? await startWaitSampler(url, { excludedPids: [pollPid] }) : null;
    const lsnBefore = await readWalLsn(client);
    const before = readCpu(children, pollPid);
    const goAtMs = Date.now();
    const t0 = performance.now();
    if (warm === null) for (const child of children) child.go();
    else await warm.start();
    const elapsedMs = await waitUntilDrained(client, remainingSql, t0);
    const after = readCpu(children, pollPid);
    // The workers' own helpers (cronform's job reaper, started with the first command job).
    const helperCpuMs = readChildrenCpuMs(children.map((child) => child.pid));
    const walBytes = await countWalBytesSince(client, lsnBefore);
    const waits = sampler === null ? null : await sampler.stop();
    const workerCpuMs = before.workersMs === null || after.workersMs === null ? null : after.workersMs - before.workersMs;
    return { elapsedMs, goAtMs, workerCpuMs, helperCpuMs, serverCpuMs: sumServerCpuMs(before.server, after.server, pollPid), walBytes, waits };
  } finally {
    await Promise.all(children.map((child) => child.stop().catch(() => child.kill())));
    await client.end();
  }
}

/**
 * `warmup` > 0: that many runs first, untimed, so that the timed runs measure workers in their
 * steady state (started, connected, code optimized) rather than with their start-up in the window.
 */
export async function measureCronform(serverUrl, options, { processes, concurrency, count, real, sampleWaits = false, warmup = 0, dist = null, queues = 1 }) {
  return withFreshDatabase(serverUrl, 'cronform', options, async ({ url }) => {
    const database = await openMigrated(url);
    let createMs;
    let measured;
    try {
      await applySources(database, toSources(policyDocument(), throughputSchedules(200)));
      const schedules = await listSchedules(database);
      // Warm: once the warm-up runs are done, the timed runs are created not yet due (idle workers
      // take none), made due in one statement, the tables vacuumed of what that left, and at t0 a
      // NOTIFY wakes the workers.
      const warm =
        warmup > 0
          ? {
              prepare: () => createQueuedRuns(database, schedules, { count: warmup, queues }),
              createTimed: async () => {
                createMs = await createQueuedRuns(database, schedules, { count, slotOffset: warmup, notify: false, runAfterMs: Date.now() + 86_400_000, queues });
                await database.db.$client.query(`update schedule_runs set run_after = now() - interval '1 second' where status = 'QUEUED' and run_after > now()`);
                await database.db.$client.query('vacuum schedule_runs, active_runs, run_attempts');
              },
              start: () => notifyRunsQueued(database.db),
            }
          : null;
      if (warm === null) createMs = await createQueuedRuns(database, schedules, { count, queues });
      measured = await runWorkers({
        url,
        script: 'cronform-runner.js',
        args: [String(concurrency), ...(real ? ['--real'] : [])],
        env: dist === null ? process.env : { ...process.env, BENCH_CRONFORM_DIST: dist },
        processes,
        sampleWaits,
        warm,
        // active_runs: the unfinished runs (their copy kept by the database's triggers), so the poll reads
        // only those, not every run of the table.
        remainingSql: `select count(*) as remaining from active_runs where status in ('QUEUED', 'RUNNING', 'RETRY_PENDING')`,
      });
    } finally {
      await database.close();
    }
    const { elapsedMs, goAtMs, workerCpuMs, helperCpuMs, serverCpuMs, walBytes, waits } = measured;
    const client = await connect(url);
    try {
      const { rows } = await client.query(
        `select (select count(*) from schedule_runs where status = 'SUCCESS') as succeeded,
                (select count(*) from run_attempts) as attempts,
                (select extract(epoch from min(started_at)) * 1000 from run_attempts) as first_start_ms,
                (select extract(epoch from max(finished_at)) * 1000 from run_attempts) as last_finish_ms`,
      );
      const succeeded = Number(rows[0].succeeded) - warmup;
      const attempts = Number(rows[0].attempts) - warmup;
      const note = succeeded === count && attempts === count ? '' : `${succeeded} SUCCESS, ${attempts} attempts`;
      // Where the time between go and the drained poll went: start-up, the jobs, the poll's lag.
      const phases = { firstStartMs: Number(rows[0].first_start_ms) - goAtMs, lastFinishMs: Number(rows[0].last_finish_ms) - goAtMs };
      return { createMs, elapsedMs, workerCpuMs, helperCpuMs, serverCpuMs, walBytes, waits, note, phases };
    } finally {
      await client.end();
    }
  });
}

export async function measureGraphileWorker(serverUrl, options, { processes, count, config }) {
  return withFreshDatabase(serverUrl, 'graphile_worker', options, async ({ url }) => {
    await installGraphileWorker(url);
    const createMs = await createGraphileWorkerJobs(url, { count });
    const { elapsedMs, workerCpuMs, serverCpuMs, walBytes } = await runWorkers({
      url,
      script: 'graphile-worker-child.js',
      args: [JSON.stringify(config)],
      processes,
      // Completed jobs are deleted; a failed one stays (with attempts left) and would stall the poll.
      remainingSql: 'select count(*) as remaining from graphile_worker._private_jobs',
    });
    return { createMs, elapsedMs, workerCpuMs, serverCpuMs, walBytes, note: '' };
  });
}

export async function measurePgBoss(serverUrl, options, { processes, count, config }) {
  return withFreshDatabase(serverUrl, 'pg_boss', options, async ({ url }) => {
    const createMs = await createPgBossJobs(url, PG_BOSS_QUEUE, { count });
    const { elapsedMs, workerCpuMs, serverCpuMs, walBytes } = await runWorkers({
      url,
      script: 'pg-boss-child.js',
      args: [JSON.stringify({ queues: [PG_BOSS_QUEUE], boss: { supervise: false, schedule: false }, ...config })],
      processes,
      remainingSql: `select count(*) as remaining from pgboss.job where name = '${PG_BOSS_QUEUE}' and state in ('created', 'retry', 'active')`,
    });
    return { createMs, elapsedMs, workerCpuMs, serverCpuMs, walBytes, note: '' };
  });
}

/**
 * The process-spawn bound of real command jobs, without any database: `true` spawned the way the
 * command executor does (detached, stdout/stderr piped), `concurrency` at a time.
 */
export async function measureSpawnBound(count, concurrency) {
  const spawnTrue = () =>
    new Promise((resolve, reject) => {
      const child = spawn('true', [], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.resume();
      child.stderr.resume();
      child.on('error', reject);
      child.on('close', resolve);
    });
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  let next = 0;
  const lane = async () => {
    while (next < count) {
      next += 1;
      await spawnTrue();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  const cpu = process.cpuUsage(cpu0);
  return { createMs: Number.NaN, elapsedMs: performance.now() - t0, workerCpuMs: (cpu.user + cpu.system) / 1000, helperCpuMs: 0, note: 'no database: the ceiling for real command jobs' };
}

/**
 * The configurations compared; `peerBest` ones are candidates for "graphile-worker's best". The
 * graphile-worker tunings come from its performance docs (local queue + batched completion); the
 * local queue size matters most (200 → ~13k/s, 1000 → ~30k/s here).
 */
function configurations(count, realCount) {
  const gwTuned = (concurrency, size) => ({ concurrency, worker: { localQueue: { size }, completeJobBatchDelay: 0, failJobBatchDelay: 0 } });
  const cronform = (processes, concurrency, n, real = false) => (s, o) => measureCronform(s, o, { processes, concurrency, count: n, real });
  const gw = (processes, config) => (s, o) => measureGraphileWorker(s, o, { processes, count, config });
  const pgBoss = (config) => (s, o) => measurePgBoss(s, o, { processes: 1, count, config });
  return [
    { system: 'cronform', label: '1 process × concurrency 10, no-op executor', count, run: cronform(1, 10, count), target: true },
    { system: 'cronform', label: '2 processes × concurrency 10, no-op executor', count, run: cronform(2, 10, count), target: true },
    { system: 'cronform', label: '1 process × concurrency 50, no-op executor (info)', count, run: cronform(1, 50, count) },
    { system: 'cronform', label: '1 process × concurrency 10, real `true` processes', count: realCount, run: cronform(1, 10, realCount, true) },
    { system: 'reference', label: 'node spawn(`true`), 10 at a time, no database', count: realCount, run: () => measureSpawnBound(realCount, 10) },
    { system: 'graphile-worker', label: 'defaults, concurrency 10 (no local queue, no batching)', count, run: gw(1, { concurrency: 10 }) },
    { system: 'graphile-worker', label: 'tuned: concurrency 10, localQueue 1000, complete/failJobBatchDelay 0', count, run: gw(1, gwTuned(10, 1000)), peerBest: true },
    { system: 'graphile-worker', label: 'tuned: concurrency 100, localQueue 2000, complete/failJobBatchDelay 0', count, run: gw(1, gwTuned(100, 2000)), peerBest: true },
    { system: 'graphile-worker', label: 'tuned ×2 processes: concurrency 10, localQueue 1000, batch delay 0', count, run: gw(2, gwTuned(10, 1000)), peerBest: true },
    { system: 'pg-boss', label: '10 work() loops × batchSize 100, polling 0.5 s', count, run: pgBoss({ workers: 10, batchSize: 100, pollingIntervalSeconds: 0.5 }), pgBossBest: true },
    { system: 'pg-boss', label: '4 work() loops × batchSize 1000, polling 0.5 s', count, run: pgBoss({ workers: 4, batchSize: 1000, pollingIntervalSeconds: 0.5 }), pgBossBest: true },
  ];
}

/** A total per job (`scale` per unit: 1,000 for µs from ms); blank when it was not measured. */
function formatPerJob(total, count, scale = 1) {
  return Number.isFinite(total) ? formatNumber((total * scale) / count) : '';
}

export async function runThroughputBenchmark(options) {
  const count = options.count;
  const realCount = options.realCount;
  console.log(`\n## Throughput: ${formatNumber(count)} no-op jobs (real processes: ${formatNumber(realCount)})`);
  const results = [];
  for (const config of configurations(count, realCount)) {
    process.stdout.write(`  ${config.system}: ${config.label} … `);
    try {
      const measured = await config.run(options.serverUrl, options);
      const perSecond = config.count / (measured.elapsedMs / 1000);
      console.log(`${formatNumber(perSecond)}/s (create ${formatNumber(measured.createMs)} ms)${measured.note ? ` — ${measured.note}` : ''}`);
      results.push({ ...config, ...measured, perSecond });
    } catch (error) {
      console.log(`FAILED: ${error.message}`);
      results.push({ ...config, error: error.message.split('\n')[0], perSecond: Number.NaN });
    }
  }
  const best = (flag) => results.filter((r) => r[flag] && !r.error).reduce((a, b) => (b.perSecond > (a?.perSecond ?? -1) ? b : a), undefined);
  const gwBest = best('peerBest');
  const pgBossBest = best('pgBossBest');
  const rows = results.map((r) => [
    r.system,
    r.label,
    formatNumber(r.count),
    formatNumber(r.createMs),
    r.error ? `error: ${r.error}` : formatNumber(r.elapsedMs),
    formatNumber(r.perSecond),
    formatPerJob(r.workerCpuMs, r.count, 1000),
    formatPerJob(r.serverCpuMs, r.count, 1000),
    formatPerJob(r.walBytes, r.count),
    gwBest && r.system === 'cronform' ? `${formatNumber(r.perSecond / gwBest.perSecond, 2)}×` : '',
    pgBossBest && r.system === 'cronform' ? `${formatNumber(r.perSecond / pgBossBest.perSecond, 2)}×` : '',
    r.target ? `≥ ${formatNumber(gwBest?.perSecond ?? Number.NaN)}/s` : '',
    r.target ? verdict(gwBest ? r.perSecond >= gwBest.perSecond : null) : '',
    r.note ?? '',
  ]);
  printTable(
    `Throughput (${new Date().toISOString().slice(0, 10)}, ${options.cores} cores; target: graphile-worker's best configuration measured in this run)`,
    ['system', 'configuration', 'jobs', 'create ms', 'execute ms', 'jobs/s', 'workers CPU µs/job', 'PostgreSQL CPU µs/job', 'WAL bytes/job', 'vs gw best', 'vs pg-boss best', 'target', 'result', 'note'],
    rows,
  );
  // Missed targets: cronform rows that failed or were slower than graphile-worker's best.
  return results.filter((r) => r.target && (r.error || !gwBest || r.perSecond < gwBest.perSecond)).map((r) => `throughput: cronform ${r.label}`);
}

/** Real command jobs should cost little beyond their spawn: at least this share of the spawn reference's rate. */
const REAL_TARGET_RATIO = 0.9;

/**
 * Real `command: ["true"]` jobs (one runner process, concurrency 10) against the no-database
 * `spawn('true')` reference, alternated `rounds` times back to back so that both see the same load;
 * the target compares the medians. The only benchmark that needs no peer installed.
 */
export async function runRealProcessBenchmark(options) {
  const count = options.realCount;
  const rounds = options.realRounds;
  const baseline = options.baselineDist;
  console.log(`\n## Real processes: ${formatNumber(count)} \`true\` jobs against spawn('true'), ${rounds} rounds${baseline ? `, and the build in ${baseline}` : ''}`);
  const cronform = [];
  const before = [];
  const reference = [];
  const perSecond = (measured) => ({ ...measured, perSecond: count / (measured.elapsedMs / 1000) });
  const describePhases = ({ phases, elapsedMs }) =>
    `first job started ${formatNumber(phases.firstStartMs)} ms after go, last finished at ${formatNumber(phases.lastFinishMs)} ms, drained seen at ${formatNumber(elapsedMs)} ms`;
  for (let round = 1; round <= rounds; round += 1) {
    if (baseline) before.push(perSecond(await measureCronform(options.serverUrl, options, { processes: 1, concurrency: 10, count, real: true, dist: baseline })));
    const job = await measureCronform(options.serverUrl, options, { processes: 1, concurrency: 10, count, real: true });
    cronform.push(perSecond(job));
    reference.push(perSecond(await measureSpawnBound(count, 10)));
    const ratio = (result) => `${formatNumber(result.perSecond / reference.at(-1).perSecond, 2)}×`;
    console.log(`  round ${round} (load ${describeLoad1()}): spawn('true') ${formatNumber(reference.at(-1).perSecond)}/s`);
    if (baseline) console.log(`    baseline ${formatNumber(before.at(-1).perSecond)}/s, ${ratio(before.at(-1))} (${describePhases(before.at(-1))})${before.at(-1).note ? ` — ${before.at(-1).note}` : ''}`);
    console.log(`    cronform ${formatNumber(cronform.at(-1).perSecond)}/s, ${ratio(cronform.at(-1))} (${describePhases(job)})${job.note ? ` — ${job.note}` : ''}`);
  }
  const referenceRate = median(reference.map((r) => r.perSecond));
  // The reference's CPU is its process's (the loop's), the spawned `true`s left out, as for cronform.
  const cpuPerJob = (results, key) => formatNumber(median(results.map((r) => (r[key] * 1000) / count)));
  const row = (system, results) => {
    const rate = median(results.map((r) => r.perSecond));
    return [system, '1 process × concurrency 10, real `true` processes', formatNumber(count), formatNumber(rate), results.map((r) => formatNumber(r.perSecond)).join(' · '), cpuPerJob(results, 'workerCpuMs'), cpuPerJob(results, 'helperCpuMs'), `${formatNumber(rate / referenceRate, 2)}×`, `≥ ${REAL_TARGET_RATIO}×`, verdict(rate / referenceRate >= REAL_TARGET_RATIO)];
  };
  const ratio = median(cronform.map((r) => r.perSecond)) / referenceRate;
  printTable(
    `Real processes (${new Date().toISOString().slice(0, 10)}, ${options.cores} cores; medians of ${rounds} alternated rounds)`,
    ['system', 'configuration', 'jobs', 'jobs/s (median)', 'jobs/s (each round)', 'runner CPU µs/job (median)', 'its job reaper CPU µs/job', 'vs spawn reference', 'target', 'result'],
    [
      ...(baseline ? [row(`cronform (${baseline})`, before)] : []),
      row('cronform', cronform),
      ['reference', 'node spawn(`true`), 10 at a time, no database', formatNumber(count), formatNumber(referenceRate), reference.map((r) => formatNumber(r.perSecond)).join(' · '), cpuPerJob(reference, 'workerCpuMs'), '', '', '', ''],
    ],
  );
  return ratio >= REAL_TARGET_RATIO ? [] : [`real: cronform real jobs at ${formatNumber(ratio, 2)}× of spawn('true')`];
}

/**
 * How cronform scales with runner processes (issue 20, "runners that add up"): only its no-op rows,
 * at each count of `--processes` (e.g. 1,2,4), alternated `--rounds` times back to back so that every
 * count sees the same load; each count's median against one process's. With `--sample-waits`, also
 * where the runners' database backends spent their time (wait-sampler.js), which costs some CPU.
 * With `--queues N`, the runs are spread over N queues (claims lock per queue), else all in one.
 */
export async function runScalingBenchmark(options) {
  const { count, processCounts, rounds, sampleWaits, warmup, queues } = options;
  console.log(`\n## Scaling: ${formatNumber(count)} no-op runs${queues > 1 ? ` in ${queues} queues` : ''} by ${processCounts.join(', ')} process(es) × concurrency 10, ${rounds} round(s)${warmup > 0 ? `, after ${formatNumber(warmup)} untimed warm-up runs` : ''}${sampleWaits ? ', waits sampled' : ''}`);
  const byCount = new Map(processCounts.map((p) => [p, []]));
  for (let round = 1; round <= rounds; round += 1) {
    for (const processes of processCounts) {
      const measured = await measureCronform(options.serverUrl, options, { processes, concurrency: 10, count, sampleWaits, warmup, queues });
      const perSecond = count / (measured.elapsedMs / 1000);
      const cpu = { workers: (measured.workerCpuMs * 1000) / count, server: (measured.serverCpuMs * 1000) / count };
      byCount.get(processes).push({ ...measured, perSecond, cpu });
      console.log(
        `  round ${round}, ${processes} process(es): ${formatNumber(perSecond)}/s, CPU µs/run workers ${formatNumber(cpu.workers)} + PostgreSQL ${formatNumber(cpu.server)} = ${formatNumber(cpu.workers + cpu.server)}; load ${describeLoad1()}${measured.note ? ` — ${measured.note}` : ''}`,
      );
      if (measured.waits) for (const line of describeWaits(measured.waits)) console.log(`      ${line}`);
    }
  }
  const oneProcess = byCount.has(1) ? median(byCount.get(1).map((r) => r.perSecond)) : Number.NaN;
  printTable(
    `Scaling (${new Date().toISOString().slice(0, 10)}, ${options.cores} cores; medians of ${rounds} alternated round(s))`,
    ['processes', 'runs/s (median)', 'runs/s (each round)', 'vs 1 process', 'workers CPU µs/run', 'PostgreSQL CPU µs/run', 'CPU µs/run total', 'WAL bytes/run'],
    [...byCount].map(([processes, results]) => {
      const rate = median(results.map((r) => r.perSecond));
      const workers = median(results.map((r) => r.cpu.workers));
      const server = median(results.map((r) => r.cpu.server));
      return [
        String(processes),
        formatNumber(rate),
        results.map((r) => formatNumber(r.perSecond)).join(' · '),
        `${formatNumber(rate / oneProcess, 2)}×`,
        formatNumber(workers),
        formatNumber(server),
        formatNumber(median(results.map((r) => r.cpu.workers + r.cpu.server))),
        formatNumber(median(results.map((r) => r.walBytes / count))),
      ];
    }),
  );
  return [];
}

const describeLoad1 = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

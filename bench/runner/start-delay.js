/**
 * Start delay: job start minus its slot, for minute crons (200) and per-second crons (50), one
 * worker process per system, on its own fresh database, one system at a time.
 *  - cronform: `started_at − scheduled_for` of SCHEDULED runs, from schedule_runs.
 *  - graphile-worker: its crontab; the task records start − payload._cron.ts. No per-second cron.
 *  - pg-boss: schedule() per queue (one schedule per queue name); the handler records start −
 *    slot, the slot being the minute of the job's createdOn (pg-boss sends a slot at its first
 *    cron check within that minute, so creation and slot share the minute). No per-second cron.
 * Only slots after the worker started count, so set-up and catch-up are never measured.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, withFreshDatabase } from './databases.js';
import { startChild } from './child-protocol.js';
import { applySources, openMigrated } from './cronform-setup.js';
import { delaySchedules, policyDocument, toSources } from './manifests.js';
import { installGraphileWorker, openPgBossAdmin } from './peers-setup.js';
import { formatNumber, printTable, sleep, summarizeDelays, verdict } from './report.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const MINUTE_MS = 60_000;
const TARGET_P99_MS = 50;

const floorTo = (ms, unit) => Math.floor(ms / unit) * unit;

/**
 * The measuring window: at least `durationMs`, and long enough after the last minute boundary for
 * a system with slow cron checks (`graceMs`) to have started that minute's jobs.
 */
function planWindow(startMs, durationMs, graceMs) {
  const firstSlotMs = floorTo(startMs, 1000) + 2000;
  // A window that starts in the last seconds of a minute would hold no minute boundary (graphile-
  // worker then measured nothing): it is extended to the next one.
  const lastBoundaryMs = Math.max(floorTo(startMs + durationMs, MINUTE_MS), floorTo(firstSlotMs - 1, MINUTE_MS) + MINUTE_MS);
  const endMs = Math.max(startMs + durationMs, lastBoundaryMs + graceMs);
  const boundaries = [];
  for (let b = floorTo(firstSlotMs - 1, MINUTE_MS) + MINUTE_MS; b <= lastBoundaryMs; b += MINUTE_MS) boundaries.push(b);
  return { startMs, firstSlotMs, endMs, boundaries, lastSecondSlotMs: floorTo(startMs + durationMs, 1000) - 2000 };
}

async function measureCronform(serverUrl, options) {
  return withFreshDatabase(serverUrl, 'cronform', options, async ({ url }) => {
    const database = await openMigrated(url);
    try {
      await applySources(database, toSources(policyDocument({ minInterval: '1s', maxRunsPerDay: 100_000 }), delaySchedules({ minute: 200, second: 50 })));
    } finally {
      await database.close();
    }
    const child = await startChild(path.join(here, 'cronform-runner.js'), [url, String(options.delayConcurrency)]);
    const window = planWindow(Date.now(), options.durationMs, 2000);
    child.go();
    await sleep(window.endMs - Date.now());
    await child.stop();
    const client = await connect(url);
    try {
      const { rows } = await client.query(
        `select s.name, r.scheduled_for, r.started_at, r.status
         from schedule_runs r join schedules s on s.id = r.schedule_id
         where r.trigger_type = 'SCHEDULED' and r.scheduled_for >= $1`,
        [new Date(window.firstSlotMs)],
      );
      const minute = rows.filter((r) => r.name.startsWith('minute-') && window.boundaries.includes(r.scheduled_for.getTime()));
      const second = rows.filter((r) => r.name.startsWith('second-') && r.scheduled_for.getTime() <= window.lastSecondSlotMs);
      const seconds = (window.lastSecondSlotMs - window.firstSlotMs) / 1000 + 1;
      return [
        summarize('cronform', 'minute crons (200 × `* * * * *`)', minute, 200 * window.boundaries.length),
        summarize('cronform', 'per-second crons (50 × `* * * * * *`)', second, 50 * seconds),
        summarize('cronform', 'all', [...minute, ...second], 200 * window.boundaries.length + 50 * seconds),
      ];
    } finally {
      await client.end();
    }
  });
}

/** `runs` lacking a slot: for cronform a slot without a run row; for a peer, one not started in the window. */
function summarize(system, label, runs, expected, target = true, missingNote = 'slot(s) without a run') {
  const started = runs.filter((r) => r.started_at);
  const delays = started.map((r) => r.started_at.getTime() - r.scheduled_for.getTime());
  const statuses = {};
  for (const r of runs) if (!r.started_at) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  const notes = [];
  if (runs.length !== expected) notes.push(`${expected - runs.length} ${missingNote}`);
  for (const [status, n] of Object.entries(statuses)) notes.push(`${n} ${status} never started`);
  return { system, label, expected, measured: delays.length, ...summarizeDelays(delays), target, note: notes.join('; ') };
}

async function measureGraphileWorker(serverUrl, options) {
  return withFreshDatabase(serverUrl, 'graphile_worker', options, async ({ url }) => {
    await installGraphileWorker(url);
    const crontab = Array.from({ length: 200 }, (_, i) => `* * * * * noop ?id=minute${i}`).join('\n');
    const child = await startChild(path.join(here, 'graphile-worker-child.js'), [url, JSON.stringify({ concurrency: options.delayConcurrency, crontab })]);
    const window = planWindow(Date.now(), options.durationMs, 5000);
    child.go();
    await sleep(window.endMs - Date.now());
    const { samples } = await child.stop();
    const runs = samples.filter((s) => window.boundaries.includes(s.slotMs)).map((s) => ({ scheduled_for: new Date(s.slotMs), started_at: new Date(s.startMs) }));
    return [
      summarize('graphile-worker', `minute crons (200 crontab lines), concurrency ${options.delayConcurrency}`, runs, 200 * window.boundaries.length, true, 'slot(s) not started by the end of the window (≥ 5 s after the slot)'),
      { system: 'graphile-worker', label: 'per-second crons', unsupported: 'no per-second cron (crontab resolution is 1 minute)' },
    ];
  });
}

async function measurePgBoss(serverUrl, options, { label, boss, pollingIntervalSeconds, graceMs }) {
  return withFreshDatabase(serverUrl, 'pg_boss', options, async ({ url }) => {
    const queues = Array.from({ length: 200 }, (_, i) => `minute-${i}`);
    const admin = await openPgBossAdmin(url);
    try {
      for (const queue of queues) {
        await admin.createQueue(queue);
        await admin.schedule(queue, '* * * * *');
      }
    } finally {
      await admin.stop({ graceful: false, wait: true });
    }
    const child = await startChild(path.join(here, 'pg-boss-child.js'), [url, JSON.stringify({ queues, workers: 1, batchSize: 1, pollingIntervalSeconds, recordCron: true, boss })]);
    const window = planWindow(Date.now(), options.durationMs, graceMs);
    child.go();
    await sleep(window.endMs - Date.now());
    const { samples } = await child.stop();
    const runs = samples
      .map((s) => ({ scheduled_for: new Date(floorTo(s.createdMs, MINUTE_MS)), started_at: new Date(s.startMs) }))
      .filter((r) => window.boundaries.includes(r.scheduled_for.getTime()));
    return [
      summarize('pg-boss', label, runs, 200 * window.boundaries.length, true, `slot(s) not started by the end of the window (≥ ${graceMs / 1000} s after the slot)`),
      { system: 'pg-boss', label: 'per-second crons', unsupported: 'no per-second cron (one send per schedule per minute)' },
    ];
  });
}

export async function runStartDelayBenchmark(options) {
  console.log(`\n## Start delay: ${options.durationMs / 1000} s per system, worker concurrency ${options.delayConcurrency}`);
  const systems = [
    { name: 'cronform', run: () => measureCronform(options.serverUrl, options) },
    { name: 'graphile-worker', run: () => measureGraphileWorker(options.serverUrl, options) },
    {
      name: 'pg-boss (defaults: cron check every 30 s, worker poll 2 s)',
      run: () => measurePgBoss(options.serverUrl, options, { label: 'minute crons (200 schedules), defaults', boss: {}, pollingIntervalSeconds: 2, graceMs: 60_000 }),
    },
  ];
  if (options.full) {
    systems.push({
      name: 'pg-boss (tuned: cron check 1 s, send-it worker 1 s, poll 0.5 s)',
      run: () =>
        measurePgBoss(options.serverUrl, options, {
          label: 'minute crons (200 schedules), cron check 1 s, poll 0.5 s',
          boss: { cronMonitorIntervalSeconds: 1, cronWorkerIntervalSeconds: 1 },
          pollingIntervalSeconds: 0.5,
          graceMs: 5000,
        }),
    });
  }
  const rows = [];
  for (const system of systems) {
    process.stdout.write(`  ${system.name} … `);
    try {
      const results = await system.run();
      const main = results.find((r) => r.target) ?? results[0];
      console.log(`p99 ${formatNumber(main.p99)} ms over ${formatNumber(main.measured)} starts`);
      rows.push(...results);
    } catch (error) {
      console.log(`FAILED: ${error.message}`);
      rows.push({ system: system.name, label: 'error', unsupported: error.message.split('\n')[0] });
    }
  }
  printTable(
    `Start delay, job start − slot, ms (${new Date().toISOString().slice(0, 10)}, ${options.cores} cores; target p99 < ${TARGET_P99_MS} ms)`,
    ['system', 'schedules', 'slots', 'starts', 'p50', 'p95', 'p99', 'max', 'result', 'note'],
    rows.map((r) =>
      r.unsupported
        ? [r.system, r.label, '', '', '', '', '', '', '', r.unsupported]
        : [r.system, r.label, formatNumber(r.expected), formatNumber(r.measured), formatNumber(r.p50), formatNumber(r.p95), formatNumber(r.p99), formatNumber(r.max), r.target && r.measured > 0 ? verdict(r.p99 < TARGET_P99_MS) : '', r.note],
    ),
  );
  return rows.filter((r) => r.system === 'cronform' && (r.unsupported || !(r.p99 < TARGET_P99_MS))).map((r) => `delay: cronform ${r.label}`);
}

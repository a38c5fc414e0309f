/**
 * Scale: many enabled schedules, almost none due. The scheduler tick with nothing due must cost
 * the same for 1,000 and 100,000 schedules (it reads due rows through the next_run_at index, never
 * the table), and a runner idling a minute over 100,000 schedules must stay under 300 MB RSS.
 * The apply of the 100,000 (cronform-apply.js, its own process) is timed and reported too.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runSchedulerTick } from '../../dist/runner/scheduler.js';
import { readStoredPolicy } from '../../dist/db/settings-queries.js';
import { openDatabase } from '../../dist/db/client.js';
import { startChild } from './child-protocol.js';
import { withFreshDatabase } from './databases.js';
import { applySources, openMigrated } from './cronform-setup.js';
import { policyDocument, scaleSchedules, toSources } from './manifests.js';
import { formatNumber, median, printTable, sleep, verdict } from './report.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const TICKS = 20;
const TARGET_RSS_MB = 300;
/** "Does not grow": the 100k median within 1.5× the 1k median, or within 1 ms of it (timer noise). */
const TICK_GROWTH_LIMIT = 1.5;
const TICK_NOISE_MS = 1;

async function measureTicks(database) {
  const policy = (await readStoredPolicy(database.db))?.policy;
  if (!policy) throw new Error('no stored policy');
  for (let i = 0; i < 3; i += 1) await runSchedulerTick(database, { nowMs: Date.now(), policy });
  const times = [];
  for (let i = 0; i < TICKS; i += 1) {
    const t0 = performance.now();
    const result = await runSchedulerTick(database, { nowMs: Date.now(), policy });
    times.push(performance.now() - t0);
    if (result.schedules !== 0) throw new Error(`${result.schedules} schedule(s) were due during the "nothing due" ticks`);
  }
  return { medianMs: median(times), maxMs: Math.max(...times), policy };
}

function runApplyChild(url, count, mode, batch, nowMs) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--max-old-space-size=12288', path.join(here, 'cronform-apply.js'), url, String(count), mode, String(batch), String(nowMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => {
      const line = out.trim().split('\n').at(-1);
      if (code === 0 && line) resolve(JSON.parse(line));
      else reject(new Error(`cronform-apply.js exited ${code}: ${out.slice(-300)}`));
    });
  });
}

function readMemoryKb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { hwmKb: field('VmHWM'), rssKb: field('VmRSS') };
}

export async function runScaleBenchmark(options) {
  const count = options.scaleCount;
  const mode = options.applyAll ? 'all' : 'seed';
  console.log(`\n## Scale: ${formatNumber(count)} schedules (apply mode: ${mode}), runner idle ${options.idleMs / 1000} s`);
  const nowMs = Date.now();

  process.stdout.write('  tick over 1,000 schedules … ');
  const small = await withFreshDatabase(options.serverUrl, 'cronform', options, async ({ url }) => {
    const database = await openMigrated(url);
    try {
      const applied = await applySources(database, toSources(policyDocument(), scaleSchedules(1000, nowMs)));
      return { applied, ...(await measureTicks(database)) };
    } finally {
      await database.close();
    }
  });
  console.log(`median ${formatNumber(small.medianMs, 2)} ms`);

  return withFreshDatabase(options.serverUrl, 'cronform', options, async ({ url }) => {
    process.stdout.write(`  applying ${formatNumber(count)} schedules … `);
    const t0 = performance.now();
    const apply = await runApplyChild(url, count, mode, options.applyBatch, nowMs);
    apply.wallMs = performance.now() - t0;
    console.log(`${formatNumber(apply.wallMs / 1000, 1)} s`);

    const database = await openDatabase({ url, maxConnections: 4 });
    let large;
    let due;
    let memory;
    try {
      process.stdout.write(`  tick over ${formatNumber(count)} schedules … `);
      large = await measureTicks(database);
      console.log(`median ${formatNumber(large.medianMs, 2)} ms`);

      process.stdout.write(`  runner idle ${options.idleMs / 1000} s over ${formatNumber(count)} schedules … `);
      const child = await startChild(path.join(here, 'cronform-runner.js'), [url, '10']);
      child.go();
      await sleep(options.idleMs);
      memory = readMemoryKb(child.pid);
      await child.stop();
      console.log(`VmHWM ${formatNumber(memory.hwmKb / 1024)} MB`);

      // For scale only: one tick with 1,000 daily schedules due (yesterday's slot), i.e. 1,000 runs.
      await database.db.$client.query(
        `update schedules set next_run_at = next_run_at - interval '1 day'
         where id in (select id from schedules where definition->>'cron' like '% * * *' order by id limit 1000)`,
      );
      const t1 = performance.now();
      const result = await runSchedulerTick(database, { nowMs: Date.now(), policy: large.policy });
      due = { ms: performance.now() - t1, schedules: result.schedules, runs: result.runsCreated };
    } finally {
      await database.close();
    }

    const tickPass = large.medianMs <= Math.max(small.medianMs * TICK_GROWTH_LIMIT, small.medianMs + TICK_NOISE_MS);
    const probeNote = apply.probe?.ok
      ? `one plan of ${formatNumber(apply.probe.count)} applied`
      : `one plan of ${formatNumber(apply.probe?.count)} FAILED after ${formatNumber(apply.probe?.ms / 1000, 1)} s (${apply.probe?.error})`;
    const applyRow =
      mode === 'all'
        ? [`apply ${formatNumber(count)} schedules via plan/apply (wall, own process)`, `${formatNumber(apply.wallMs / 1000, 1)} s`, '', '', `${apply.plans} plan(s); compile ${formatNumber(apply.compileMs / 1000, 1)} s, plan ${formatNumber(apply.planMs / 1000, 1)} s, apply ${formatNumber(apply.applyMs / 1000, 1)} s; ${probeNote}`]
        : [`apply ${formatNumber(apply.applied)} schedules in one plan (then ${formatNumber(apply.seeded)} SQL clones, ${formatNumber(apply.seedMs / 1000, 1)} s)`, `${formatNumber((apply.planMs + apply.applyMs) / 1000, 1)} s`, '', '', `plan ${formatNumber(apply.planMs / 1000, 1)} s + apply ${formatNumber(apply.applyMs / 1000, 1)} s, compile ${formatNumber(apply.compileMs / 1000, 1)} s (${formatNumber(apply.compiled)}); ${probeNote}; --full applies all`];
    printTable(
      `Scale (${new Date().toISOString().slice(0, 10)}, ${options.cores} cores; cronform only: the peers have no equivalent of applied schedules)`,
      ['measure', 'value', 'target', 'result', 'note'],
      [
        ['scheduler tick, nothing due, 1,000 schedules (median of 20)', `${formatNumber(small.medianMs, 2)} ms`, '', '', `max ${formatNumber(small.maxMs, 2)} ms`],
        [`scheduler tick, nothing due, ${formatNumber(count)} schedules (median of 20)`, `${formatNumber(large.medianMs, 2)} ms`, `≤ max(1.5× , +1 ms) of 1,000`, verdict(tickPass), `max ${formatNumber(large.maxMs, 2)} ms`],
        [`runner RSS after ${options.idleMs / 1000} s idle (VmHWM)`, `${formatNumber(memory.hwmKb / 1024)} MB`, `< ${TARGET_RSS_MB} MB`, verdict(memory.hwmKb / 1024 < TARGET_RSS_MB), `VmRSS ${formatNumber(memory.rssKb / 1024)} MB`],
        applyRow,
        ['apply process peak RSS', `${formatNumber(apply.peakRssMb)} MB`, '', '', ''],
        [`tick with 1,000 daily schedules due (of ${formatNumber(count)})`, `${formatNumber(due.ms)} ms`, '', '', `${due.schedules} schedules, ${due.runs} runs created`],
      ],
    );
    const missed = [];
    if (!tickPass) missed.push('scale: tick cost grows with schedules not due');
    if (!(memory.hwmKb / 1024 < TARGET_RSS_MB)) missed.push(`scale: runner RSS ≥ ${TARGET_RSS_MB} MB`);
    return missed;
  });
}

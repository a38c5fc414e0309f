/**
 * The runner benchmark (issue: runner performance): cronform against graphile-worker 0.17.3 and
 * pg-boss 10.4.2 on the same PostgreSQL, each system on a fresh database of its own, one at a time.
 *   throughput — 20,000 no-op jobs by 1 and 2 processes (plus real `true` processes for cronform)
 *   delay      — start delay of 200 minute crons + 50 per-second crons
 *   scale      — 100,000 schedules: tick cost with nothing due, runner RSS idle, apply time
 *   real       — real `true` command jobs against a bare spawn('true') loop, alternated (no peers needed)
 *
 *   npm --prefix bench/runner ci && npm run build
 *   npm run bench:runner -- [--only throughput|delay|scale|real[,…]] [--full] [--duration 60] [--keep]
 *     [--count 20000] [--real-count 500] [--real-rounds 3] [--baseline-dist <dir>] [--concurrency 10]
 *     [--scale-count 100000] [--apply-all]
 *     [--apply-batch 5000] [--idle 60] [--server postgres://postgres@127.0.0.1:5432/postgres] [--no-fail]
 *     [--processes 1,2,4 [--rounds 3] [--sample-waits] [--warmup N]]
 * --baseline-dist: `real` also measures the runner of another build (a dist/ directory, e.g. one
 * built from the commit before a change) in every round, so before and after share the rounds' load.
 * --processes: throughput runs only cronform's no-op rows at those process counts, alternated
 * --rounds times (no peers needed); --sample-waits adds where the runners' backends waited;
 * --warmup N times only what follows N untimed runs (the workers' steady state, start-up left out).
 * --full: 180 s of start delay, pg-boss also with 1 s cron checks, and all 100,000 schedules
 * through plan/apply (instead of 5,000 applied + SQL clones); ~20 minutes more. Exits 1 when a
 * cronform target is missed, unless --no-fail; each system runs on a database of its own
 * (bench_<system>_<random>, dropped afterwards unless --keep).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDistStale } from '../shared/built-dist.js';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SERVER_URL } from './databases.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const BENCHMARKS = ['throughput', 'delay', 'scale', 'real'];
/** What runs without a list: `real` is run on its own (throughput has its two rows). */
const DEFAULT_BENCHMARKS = ['throughput', 'delay', 'scale'];
/** The benchmarks that start graphile-worker and pg-boss. */
const NEEDS_PEERS = ['throughput', 'delay'];

function parseOptions(argv) {
  const value = (name, fallback) => {
    const index = argv.indexOf(name);
    return index === -1 ? fallback : argv[index + 1];
  };
  const full = argv.includes('--full');
  const only = value('--only', DEFAULT_BENCHMARKS.join(',')).split(',');
  const unknown = only.filter((name) => !BENCHMARKS.includes(name));
  if (unknown.length > 0) throw new Error(`--only takes ${BENCHMARKS.join('|')}, not ${unknown.join(',')}`);
  return {
    only,
    full,
    keep: argv.includes('--keep'),
    noFail: argv.includes('--no-fail'),
    serverUrl: value('--server', process.env.BENCH_DATABASE_URL ?? DEFAULT_SERVER_URL),
    count: Number(value('--count', 20_000)),
    realCount: Number(value('--real-count', 500)),
    realRounds: Number(value('--real-rounds', 3)),
    // --baseline-dist <dir>: `real` also runs that build's runner in every round (before/after).
    baselineDist: value('--baseline-dist', null) === null ? null : path.resolve(value('--baseline-dist', null)),
    durationMs: Number(value('--duration', full ? 180 : 60)) * 1000,
    delayConcurrency: Number(value('--concurrency', 10)),
    scaleCount: Number(value('--scale-count', 100_000)),
    applyAll: full || argv.includes('--apply-all'),
    applyBatch: Number(value('--apply-batch', 5000)),
    idleMs: Number(value('--idle', 60)) * 1000,
    // --processes 1,2,4: throughput becomes cronform's no-op rows at those process counts only.
    processCounts: value('--processes', null)?.split(',').map(Number) ?? null,
    rounds: Number(value('--rounds', 1)),
    sampleWaits: argv.includes('--sample-waits'),
    // --warmup N: the workers first run N untimed runs (start-up and code warm-up out of the window).
    warmup: Number(value('--warmup', 0)),
    queues: Number(value('--queues', 1)),
    cores: os.cpus().length,
  };
}

/** The benchmark measures dist/: build it when missing or older than src/. */
function ensureBuilt() {
  const entry = path.join(repoRoot, 'dist/runner/runner.js');
  if (existsSync(entry) && !isDistStale(repoRoot, entry)) return;
  console.log(existsSync(entry) ? 'dist/ is older than src/: running npm run build' : 'dist/ is missing: running npm run build');
  spawnSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: 'inherit' });
  if (!existsSync(entry)) throw new Error('build failed: nothing to measure');
}

/**
 * The peer's version where Node resolves it from here (bench/runner/node_modules, else upwards:
 * the project's dev dependencies); throws when missing and `required` (a benchmark that runs it is selected).
 */
function peerVersion(name, required) {
  for (let dir = here; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'node_modules', name, 'package.json');
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')).version;
    if (path.dirname(dir) === dir) {
      if (required) throw new Error(`${name} is not installed: run \`npm --prefix bench/runner ci\` first`);
      return 'not installed (`npm --prefix bench/runner ci`)';
    }
  }
}

function describeSetup(options) {
  const git = spawnSync('git', ['describe', '--always', '--dirty'], { cwd: repoRoot, encoding: 'utf8' }).stdout.trim();
  const pgVersion = spawnSync('psql', [options.serverUrl, '-Atc', 'show server_version'], { encoding: 'utf8' }).stdout.trim() || 'unknown';
  console.log(`# Runner benchmark — ${new Date().toISOString()}`);
  console.log(`cronform ${git} (dist/), Node ${process.version}, PostgreSQL ${pgVersion}, ${options.cores} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`);
  const required = options.only.some((name) => NEEDS_PEERS.includes(name) && !(name === 'throughput' && options.processCounts));
  console.log(`graphile-worker ${peerVersion('graphile-worker', required)}, pg-boss ${peerVersion('pg-boss', required)}; benchmarks: ${options.only.join(', ')}${options.full ? ' (--full)' : ''}`);
  console.log(`dist fingerprint ${fingerprintDist()}; ${describeLoad()}`);
}

/** dist/ changes whenever anyone builds: a hash of its files says which build was measured. */
function fingerprintDist() {
  const hash = createHash('sha256');
  const dist = path.join(repoRoot, 'dist');
  for (const file of readdirSync(dist, { recursive: true }).map(String).filter((f) => f.endsWith('.js')).sort()) {
    hash.update(file);
    hash.update(readFileSync(path.join(dist, file)));
  }
  return hash.digest('hex').slice(0, 12);
}

/** pg_postmaster_start_time(): a change means the server restarted under the benchmark. */
function readServerStart(serverUrl) {
  return spawnSync('psql', [serverUrl, '-Atc', 'select pg_postmaster_start_time()'], { encoding: 'utf8' }).stdout.trim();
}

/** Other work on the machine skews every figure: say how busy it was. */
function describeLoad() {
  return `load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} (1/5/15 min)`;
}

const options = parseOptions(process.argv.slice(2));
ensureBuilt();
describeSetup(options);
if (os.loadavg()[0] > options.cores / 2) console.log('note: the machine is busy (1-min load above half the cores): figures are not representative');
const startedMs = performance.now();
const missed = [];
for (const name of options.only) {
  const serverStartedAt = readServerStart(options.serverUrl);
  try {
    if (name === 'throughput' && options.processCounts) missed.push(...(await (await import('./throughput.js')).runScalingBenchmark(options)));
    else if (name === 'throughput') missed.push(...(await (await import('./throughput.js')).runThroughputBenchmark(options)));
    if (name === 'delay') missed.push(...(await (await import('./start-delay.js')).runStartDelayBenchmark(options)));
    if (name === 'scale') missed.push(...(await (await import('./scale.js')).runScaleBenchmark(options)));
    if (name === 'real') missed.push(...(await (await import('./throughput.js')).runRealProcessBenchmark(options)));
  } catch (error) {
    missed.push(`${name}: benchmark failed`);
    console.error(`\n${name} benchmark failed: ${error.stack ?? error.message}`);
  }
  if (readServerStart(options.serverUrl) !== serverStartedAt) {
    console.log(`WARNING: PostgreSQL restarted during the ${name} benchmark (another client?): its figures are not valid`);
    missed.push(`${name}: PostgreSQL restarted meanwhile`);
  }
}
console.log(`total ${Math.round((performance.now() - startedMs) / 1000)} s; ${describeLoad()}`);
if (missed.length > 0) console.log(`\nmissed targets:\n${missed.map((m) => `  - ${m}`).join('\n')}`);
process.exit(missed.length > 0 && !options.noFail ? 1 : 0);

#!/usr/bin/env node
/**
 * Crash suite (bench/chaos/README.md): a fresh PostgreSQL database, N `cronform runner`
 * processes, a few hundred schedules; then, for the chaos duration, a random runner is killed
 * (SIGKILL, sometimes SIGTERM, sometimes two at once) every few seconds and restarted; once, the
 * schedules are changed by `cronform apply` while the runners execute them; with --outage, the
 * PostgreSQL cluster itself is stopped for 20 s. Then the verdicts are computed with SQL and
 * printed as a table; the exit code is 0 only when every verdict passes.
 *
 *   npm run build && node bench/chaos/run.js [--schedules 300] [--runners 3] [--duration 3m] [--outage]
 */
import { execFile } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { Fleet } from './fleet.js';
import { changeSchedules, generateSchedules, writeManifests } from './manifests.js';
import { createRandom } from '../shared/seeded-random.js';
import { ensureClusterStarted, findCluster, isClusterOnline, runOutage } from './postgres-outage.js';
import { computeVerdicts, loadFacts, readJobLog } from './verdicts.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(repoRoot, 'bin', 'run.js');
const execFileAsync = promisify(execFile);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const now = () => Date.now();

/** Fixed in the runner (RunnerOptions.reconcileIntervalMs default); the verdict allows for it. */
const RECONCILE_INTERVAL_MS = 10_000;
/**
 * src/runner/policy/lease.ts STOP_MARGIN_MS: an expired lease is resolved only once its owner's
 * kill grace and this margin have passed too (the job may still be dying until then).
 */
const STOP_MARGIN_MS = 1_000;
/** A runnable run unclaimed for this long while every runner is up is stuck. */
const STUCK_GAP_MS = 15_000;

const { values: flags } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    schedules: { type: 'string', default: '300' },
    runners: { type: 'string', default: '3' },
    duration: { type: 'string', default: '3m' },
    calm: { type: 'string' },
    settle: { type: 'string', default: '30s' },
    'kill-every': { type: 'string', default: '2s-5s' },
    'sigterm-share': { type: 'string', default: '0.2' },
    'double-kill-share': { type: 'string', default: '0.15' },
    concurrency: { type: 'string', default: '40' },
    lease: { type: 'string', default: '4s' },
    'kill-grace': { type: 'string', default: '1s' },
    'drain-timeout': { type: 'string', default: '8s' },
    'misfire-threshold': { type: 'string', default: '5s' },
    'max-start-p99': { type: 'string', default: '1000ms' },
    'no-apply': { type: 'boolean', default: false },
    outage: { type: 'boolean', default: false },
    'outage-length': { type: 'string', default: '20s' },
    'outage-cluster': { type: 'string' },
    seed: { type: 'string' },
    json: { type: 'string' },
    keep: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

if (flags.help) {
  console.log(readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'README.md'), 'utf8'));
  process.exit(0);
}

function durationMs(text) {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(text);
  if (!match) throw new Error(`invalid duration ${JSON.stringify(text)} (use 500ms, 20s, 3m)`);
  return Math.round(Number(match[1]) * { ms: 1, s: 1000, m: 60_000 }[match[2]]);
}

const settings = {
  schedules: Number(flags.schedules),
  runners: Number(flags.runners),
  chaosMs: durationMs(flags.duration),
  settleMs: durationMs(flags.settle),
  killEveryMs: flags['kill-every'].split('-').map(durationMs),
  sigtermShare: Number(flags['sigterm-share']),
  doubleKillShare: Number(flags['double-kill-share']),
  concurrency: Number(flags.concurrency),
  leaseMs: durationMs(flags.lease),
  killGraceMs: durationMs(flags['kill-grace']),
  drainTimeoutMs: durationMs(flags['drain-timeout']),
  misfireThresholdMs: durationMs(flags['misfire-threshold']),
  maxStartP99Ms: durationMs(flags['max-start-p99']),
  outageMs: durationMs(flags['outage-length']),
  seed: flags.seed === undefined ? randomInt(2 ** 31) : Number(flags.seed),
};
/** How long after expiry a lease is resolved at the earliest (policy/lease.ts stallResolvableAtMs). */
const stallGraceMs = settings.killGraceMs + STOP_MARGIN_MS;
settings.calmMs = flags.calm ? durationMs(flags.calm) : Math.max(15_000, Math.round(settings.chaosMs * 0.15));
const random = createRandom(settings.seed ^ 0x5eed);

const serverUrl = flags['database-url'] ?? process.env.CRONFORM_TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseName = `cronform_chaos_${randomBytes(5).toString('hex')}`;
const databaseUrl = (() => {
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  return url.toString();
})();
const host = new URL(serverUrl).hostname;
if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) throw new Error(`the chaos suite only runs against a loopback server (got ${host})`);

const workDir = mkdtempSync(path.join(tmpdir(), 'cronform-chaos-'));
const manifestDir = path.join(workDir, 'schedules');
const logDir = path.join(workDir, 'logs');
for (const dir of [manifestDir, logDir, path.join(workDir, 'locks')]) mkdirSync(dir, { recursive: true });

const cluster = flags.outage ? findCluster(flags['outage-cluster']) : null;
const events = [];
const note = (what, extra = {}) => {
  events.push({ atMs: now(), what, ...extra });
  if (process.env.CHAOS_VERBOSE) console.error(`${new Date().toISOString()} ${what} ${JSON.stringify(extra)}`);
};
const log = (line) => console.error(`[chaos] ${line}`);

const fleet = new Fleet({
  cli,
  databaseUrl,
  workDir,
  logDir,
  runnerArgs: ['--concurrency', String(settings.concurrency), '--lease', flags.lease, '--kill-grace', flags['kill-grace'], '--drain-timeout', flags['drain-timeout']],
});

// Whatever happens, runners are stopped and PostgreSQL is running when this process ends.
let cleanedUp = false;
function emergencyCleanup() {
  if (cleanedUp) return;
  cleanedUp = true;
  for (const entry of fleet.seats) entry?.child.kill('SIGKILL');
  if (cluster && !isClusterOnline(cluster)) ensureClusterStarted(cluster);
}
process.on('exit', emergencyCleanup);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    emergencyCleanup();
    process.exit(130);
  });
}

async function admin(query) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await client.query(query);
  } finally {
    await client.end();
  }
}

async function cronform(args) {
  return execFileAsync(process.execPath, [cli, ...args, '--database-url', databaseUrl], { cwd: workDir, timeout: 120_000, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, CRONFORM_LOG_LEVEL: 'warn' } });
}

/** A connection for the monitor that survives the outage: reopened on demand. */
class Probe {
  client = null;
  async query(text) {
    if (!this.client) {
      const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 2000 });
      client.on('error', () => undefined);
      await client.connect();
      this.client = client;
    }
    try {
      return await this.client.query(text);
    } catch (error) {
      this.client.end().catch(() => undefined);
      this.client = null;
      throw error;
    }
  }
  async close() {
    await this.client?.end().catch(() => undefined);
  }
}

const probe = new Probe();
const leaseSamples = [];
const longTransactions = [];
let monitoring = true;
let outageActive = false;
async function monitor() {
  while (monitoring) {
    if (!outageActive) {
      try {
        const { rows } = await probe.query(
          `select coalesce(max(extract(epoch from (clock_timestamp() - lease_expires_at)) * 1000), 0)::float8 as expired_ms
           from schedule_runs where status = 'RUNNING' and lease_expires_at < clock_timestamp()`,
        );
        leaseSamples.push({ atMs: now(), expiredMs: Math.round(rows[0].expired_ms) });
        // Runner transactions are short; one left open holds its row locks and hides its writes.
        const open = await probe.query(
          `select pid, state, (extract(epoch from (clock_timestamp() - xact_start)) * 1000)::float8 as open_ms, left(query, 300) as query
           from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'
             and xact_start < clock_timestamp() - interval '5 seconds'`,
        );
        for (const row of open.rows) longTransactions.push({ atMs: now(), pid: row.pid, state: row.state, openMs: Math.round(row.open_ms), query: row.query.replace(/\s+/g, ' ') });
      } catch {
        // The outage, or a restart of the server: the samples simply pause.
      }
    }
    await sleep(1000);
  }
}

async function waitForRunning(names, minimum, timeoutMs) {
  const deadline = now() + timeoutMs;
  for (;;) {
    const { rows } = await probe.query(
      `select count(*)::int as n from schedule_runs r join schedules s on s.id = r.schedule_id where r.status = 'RUNNING' and s.name = any('{${names.join(',')}}'::text[])`,
    );
    if (rows[0].n >= minimum || now() > deadline) return rows[0].n;
    await sleep(200);
  }
}

/**
 * Runs that make no progress while every runner is up: runnable (QUEUED, due RETRY_PENDING)
 * or PENDING with nothing active of their schedule, unchanged across two snapshots `gapMs` apart,
 * and RUNNING attempts past their timeout plus the kill grace.
 */
async function findStuckRuns(gapMs) {
  const snapshot = async () => {
    const { rows } = await probe.query(
      `select r.id, r.status, r.attempts from schedule_runs r
       where (r.status in ('QUEUED', 'RETRY_PENDING') and r.run_after <= clock_timestamp())
          or (r.status = 'PENDING' and not exists (select 1 from schedule_runs a where a.schedule_id = r.schedule_id and a.status in ('QUEUED', 'RUNNING', 'RETRY_PENDING')))`,
    );
    return new Map(rows.map((r) => [Number(r.id), `${r.status} with ${r.attempts} attempts`]));
  };
  const before = await snapshot();
  await sleep(gapMs);
  const after = await snapshot();
  const stuck = [...after].filter(([id, state]) => before.get(id) === state).map(([id, state]) => `run ${id} ${state} for ${gapMs / 1000} s`);
  const { rows } = await probe.query(
    `select r.id from schedule_runs r
     join schedule_versions v on v.schedule_id = r.schedule_id and v.version = r.schedule_version
     left join run_attempts a on a.run_id = r.id and a.attempt = r.attempts and a.scheduled_for = r.scheduled_for
     -- An attempt has no row until it ends: its run row has the start (src/db/open-attempts.ts).
     where r.status = 'RUNNING' and coalesce(a.started_at, r.attempt_started_at) < clock_timestamp() - ((v.definition->>'timeoutMs')::bigint + ${settings.killGraceMs + gapMs}) * interval '1 millisecond'`,
  );
  return [...stuck, ...rows.map((r) => `run ${r.id} RUNNING past its timeout`)];
}

function refill() {
  for (let seat = 0; seat < settings.runners; seat += 1) {
    const entry = fleet.seats[seat];
    if (!entry || entry.record.exitedMs !== null) {
      fleet.start(seat);
      note('start', { seat });
    }
  }
}

async function killSome() {
  const alive = fleet.alive();
  if (alive.length < 2) return;
  const count = alive.length >= 3 && random.next() < settings.doubleKillShare ? 2 : 1;
  const victims = [];
  for (let i = 0; i < count; i += 1) {
    const candidates = alive.filter((a) => !victims.includes(a.seat));
    victims.push(random.pick(candidates).seat);
  }
  await Promise.all(
    victims.map(async (seat) => {
      const signal = random.next() < settings.sigtermShare ? 'SIGTERM' : 'SIGKILL';
      note('kill', { seat, signal, pid: fleet.seats[seat].record.pid });
      await fleet.stop(seat, signal, settings.drainTimeoutMs + 30_000);
      await sleep(random.between(300, 2000));
      fleet.start(seat);
      note('restart', { seat });
    }),
  );
}

async function applyUnderFire(schedules) {
  const chosen = new Set(schedules.filter((s) => s.underFire).map((s) => s.name));
  const changed = changeSchedules(schedules, chosen);
  writeManifests(manifestDir, changed, workDir, { queueConcurrency: settings.runners * settings.concurrency, misfireThreshold: flags['misfire-threshold'] });
  // Plan first, so that the apply itself is quick and lands while the jobs still run.
  const planFile = path.join(workDir, 'under-fire.plan.json');
  await cronform(['plan', '--dir', manifestDir, '--out', planFile]);
  const inFlight = await waitForRunning([...chosen], Math.min(3, chosen.size), 30_000);
  const startedMs = now();
  const result = await cronform(['apply', planFile, '--reason', 'chaos: apply under fire', '--actor', 'chaos']);
  const { rows } = await probe.query(`select min(created_at) as at from schedule_versions where version = 2`);
  const applyMs = new Date(rows[0].at).getTime();
  note('apply', { changed: chosen.size, runningBefore: inFlight, tookMs: now() - startedMs });
  if (!/Applied plan/.test(result.stdout)) throw new Error(`apply under fire did not apply:\n${result.stdout}\n${result.stderr}`);
  return { changedNames: [...chosen], applyMs, schedules: changed };
}

async function outage() {
  const pidsBefore = fleet.alive().map((a) => a.record);
  outageActive = true;
  await probe.close();
  probe.client = null;
  let window;
  try {
    window = await runOutage(cluster, settings.outageMs, sleep, now);
  } finally {
    outageActive = false;
  }
  note('outage', window);
  // Every runner that lived through it must come back by itself: a heartbeat after the restart.
  let reconnectMs = null;
  const deadline = now() + 90_000;
  while (now() < deadline) {
    try {
      const { rows } = await probe.query(`select pid from runners where heartbeat_at > to_timestamp(${window.upMs / 1000})`);
      const back = new Set(rows.map((r) => r.pid));
      if (pidsBefore.every((p) => back.has(p.pid) || p.exitedMs !== null)) {
        reconnectMs = now() - window.upMs;
        break;
      }
    } catch {
      // not accepting connections yet
    }
    await sleep(250);
  }
  const survived = pidsBefore.filter((p) => p.exitedMs === null).length;
  return { window, reconnectMs, survivors: { before: pidsBefore.length, survived } };
}

function readRunnerLogs(outageWindows) {
  const stderrNoise = [];
  const loopErrorsOutside = [];
  let loopErrorsDuring = 0;
  /** `${runId}:${attempt}` → when its runner stopped the job at its lease fence (Worker.armFence). */
  const fencedAttempts = new Map();
  for (const file of new Set(fleet.processes.map((p) => p.logFile))) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      let entry;
      try {
        entry = JSON.parse(line);
      } catch {
        stderrNoise.push(`${path.basename(file)}: ${line.slice(0, 160)}`);
        continue;
      }
      if (entry.msg?.startsWith('lease could not be renewed')) fencedAttempts.set(`${entry.runId}:${entry.attempt}`, Date.parse(entry.time));
      if (entry.level !== 'error') continue;
      const atMs = Date.parse(entry.time);
      if (outageWindows.some(([from, to]) => atMs >= from && atMs < to)) loopErrorsDuring += 1;
      // The cause first: the error of a failed query is its SQL, which says what but not why.
      else loopErrorsOutside.push(`${entry.msg}: ${entry.cause ? `[${entry.cause}] ` : ''}${entry.error ?? ''}`.slice(0, 300));
    }
  }
  return { stderrNoise, loopErrorsOutside, loopErrorsDuring, fencedAttempts };
}

function printTable(verdicts) {
  const rows = verdicts.map((v) => [v.pass ? 'PASS' : 'FAIL', v.name, String(v.value), String(v.expected)]);
  const widths = [4, 0, 0, 0].map((w, i) => Math.max(w, ...rows.map((r) => r[i].length), ['', 'verdict', 'measured', 'expected'][i].length));
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(line(['', 'verdict', 'measured', 'expected']));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
  for (const v of verdicts) if (v.detail) console.log(`  ${v.pass ? ' ' : '!'} ${v.name}: ${v.detail}`);
}

async function main() {
  log(`seed ${settings.seed}; ${settings.schedules} schedules, ${settings.runners} runners, calm ${settings.calmMs / 1000} s, chaos ${settings.chaosMs / 1000} s${flags.outage ? `, outage ${settings.outageMs / 1000} s` : ''}; database ${databaseName}; work dir ${workDir}`);
  if (cluster && !isClusterOnline(cluster)) throw new Error(`PostgreSQL ${cluster.version}/${cluster.name} is not running`);
  await admin(`create database ${databaseName}`);
  let verdicts;
  try {
    await cronform(['migrate']);
    let schedules = generateSchedules({ count: settings.schedules, seed: settings.seed });
    writeManifests(manifestDir, schedules, workDir, { queueConcurrency: settings.runners * settings.concurrency, misfireThreshold: flags['misfire-threshold'] });
    await cronform(['apply', '--dir', manifestDir, '--auto-approve', '--reason', 'chaos: initial', '--actor', 'chaos']);
    const firstApplyMs = new Date((await probe.query(`select min(created_at) as at from schedule_versions`)).rows[0].at).getTime();
    note('applied', { schedules: schedules.length });

    refill();
    const monitorDone = monitor();
    const calmStartMs = now();
    await sleep(settings.calmMs);
    const chaosStartMs = now();
    const chaosEndMs = chaosStartMs + settings.chaosMs;
    const applyAtMs = flags['no-apply'] ? Infinity : chaosStartMs + settings.chaosMs * 0.3;
    const outageAtMs = flags.outage ? chaosStartMs + settings.chaosMs * 0.55 : Infinity;
    let applied = null;
    let outageResult = null;
    const [killMinMs, killMaxMs] = [settings.killEveryMs[0], settings.killEveryMs[1] ?? settings.killEveryMs[0]];
    for (let round = 0; now() < chaosEndMs && round < 100_000; round += 1) {
      if (!applied && now() >= applyAtMs) {
        refill();
        applied = await applyUnderFire(schedules);
        schedules = applied.schedules;
        log(`applied under fire: ${applied.changedNames.length} schedules changed`);
      } else if (!outageResult && now() >= outageAtMs) {
        refill();
        log(`stopping PostgreSQL ${cluster.version}/${cluster.name} for ${settings.outageMs / 1000} s`);
        outageResult = await outage();
        log(`PostgreSQL back; runners reconnected ${outageResult.reconnectMs === null ? 'never' : `after ${outageResult.reconnectMs} ms`}`);
      } else {
        await killSome();
      }
      refill();
      await sleep(random.between(killMinMs, killMaxMs));
    }
    refill();
    const settleStartMs = now();
    note('settle');
    await sleep(Math.max(0, settings.settleMs - STUCK_GAP_MS));
    const stuckRuns = await findStuckRuns(STUCK_GAP_MS);
    const stuckCheckMs = now();
    const { rows: expiredRows } = await probe.query(
      `select count(*)::int as n from schedule_runs where status = 'RUNNING' and lease_expires_at < clock_timestamp() - interval '${RECONCILE_INTERVAL_MS + stallGraceMs} milliseconds'`,
    );
    const windowEndMs = stuckCheckMs - 5000;
    fleet.finalStop = true;
    await fleet.stopAll('SIGTERM', settings.drainTimeoutMs + 30_000);
    monitoring = false;
    await monitorDone;
    const stoppedMs = now();

    const facts = await loadFacts(probe);
    const jobLog = readJobLog(path.join(workDir, 'jobs.log'));
    // The outage, and its recovery: runners back within their backoff cap, then one lease of
    // hold-off before expired leases are resolved (Runner.tick).
    const maxBackoffMs = Math.min(30_000, Math.max(1000, settings.leaseMs / 3));
    const outageWindows = outageResult ? [[outageResult.window.stopRequestedMs, outageResult.window.upMs + maxBackoffMs + settings.leaseMs + 3000]] : [];
    const kills = events.filter((e) => e.what === 'kill' || e.what === 'restart');
    // Calm: before the first kill, and the settle phase once a reconcile interval has passed.
    const calmWindows = [
      [calmStartMs + 3000, chaosStartMs],
      [settleStartMs + settings.leaseMs + stallGraceMs + RECONCILE_INTERVAL_MS, stuckCheckMs - 3000],
    ];
    const logs = readRunnerLogs(outageWindows);
    verdicts = computeVerdicts(facts, jobLog, {
      windowEndMs,
      stuckRuns,
      misfireThresholdMs: settings.misfireThresholdMs,
      reconcileIntervalMs: RECONCILE_INTERVAL_MS,
      stallGraceMs,
      leaseSampleSlackMs: 2000,
      leaseSamples,
      longTransactions,
      expiredAtEnd: expiredRows[0].n,
      excusedWindows: outageWindows,
      calmWindows,
      chaosWindows: [[chaosStartMs, settleStartMs]],
      maxStartP99Ms: settings.maxStartP99Ms,
      processes: fleet.processes,
      allStopped: true,
      requireStalls: kills.some((e) => e.signal === 'SIGKILL'),
      requireMisfires: Boolean(outageResult),
      applyUnderFire: applied && { changedNames: applied.changedNames, applyMs: applied.applyMs },
      unexpectedExits: fleet.unexpectedExits(),
      killedStarting: fleet.killedStarting(),
      stderrNoise: logs.stderrNoise,
      loopErrorsOutside: logs.loopErrorsOutside,
      loopErrorsDuring: logs.loopErrorsDuring,
      fencedAttempts: logs.fencedAttempts,
      outage: outageResult,
      maxReconnectMs: maxBackoffMs + 3000,
    });
    const killCount = events.filter((e) => e.what === 'kill');
    const summary = {
      seed: settings.seed,
      settings,
      firstApplyMs,
      windowEndMs,
      durationMs: stoppedMs - calmStartMs,
      kills: { SIGKILL: killCount.filter((e) => e.signal === 'SIGKILL').length, SIGTERM: killCount.filter((e) => e.signal === 'SIGTERM').length },
      runs: facts.runs.length,
      attempts: facts.attempts.length,
      jobStarts: jobLog.starts.length,
      verdicts,
      events,
    };
    console.log(
      `\ncronform chaos: ${settings.schedules} schedules, ${settings.runners} runners, ${(summary.durationMs / 1000).toFixed(0)} s, seed ${settings.seed}; ${summary.kills.SIGKILL} SIGKILL + ${summary.kills.SIGTERM} SIGTERM; ${summary.runs} runs, ${summary.attempts} attempts, ${summary.jobStarts} job starts${outageResult ? `; PostgreSQL down ${((outageResult.window.upMs - outageResult.window.downMs) / 1000).toFixed(1)} s` : ''}\n`,
    );
    printTable(verdicts);
    if (flags.json) writeFileSync(flags.json, `${JSON.stringify(summary, null, 2)}\n`);
  } finally {
    monitoring = false;
    for (const entry of fleet.seats) entry?.child.kill('SIGKILL');
    await probe.close();
    if (cluster) ensureClusterStarted(cluster);
    if (!flags.keep) {
      await admin(`drop database if exists ${databaseName} with (force)`).catch((error) => log(`could not drop ${databaseName}: ${error.message}`));
      rmSync(workDir, { recursive: true, force: true });
    } else {
      log(`kept database ${databaseUrl} and ${workDir}`);
    }
  }
  return verdicts.every((v) => v.pass) ? 0 : 1;
}

// Exit explicitly: nothing the suite started may keep it waiting once the verdicts are out.
main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(2);
  },
);

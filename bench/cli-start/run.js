/**
 * CLI start-up: each command as a cold process, interleaved round by round with `node -e 0` (node's
 * bare start) so that both see the same machine load, against the targets of issue 18 as ratios of
 * medians: `--version` and `--help` ≤ 1.6× node, `validate` of one manifest ≤ 3×, `status` on
 * PostgreSQL ≤ 4×. Wall time is the target; CPU time (user + sys, from /usr/bin/time when the machine
 * has it) is printed beside it because it moves far less when other processes share the cores.
 * `status` runs on a scratch database on DATABASE_URL's server (created, migrated, applied, dropped).
 * Exits 1 when a wall target is missed, unless --no-fail.
 *
 *   npm run build && npm run bench:cli-start -- [--runs 10] [--no-fail]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { isDistStale } from '../shared/built-dist.js';
import { median } from '../shared/figures.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const runsIndex = args.indexOf('--runs');
const runs = runsIndex === -1 ? 10 : Number(args[runsIndex + 1]);
const serverUrl = process.env.CRONFORM_TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const timeBinary = ['/usr/bin/time', '/bin/time'].find((candidate) => existsSync(candidate));

const entry = path.join(repoRoot, 'dist/commands/table.js');
if (!existsSync(entry) || isDistStale(repoRoot, entry)) {
  console.log('dist/ is missing or older than src/: running npm run build');
  spawnSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: 'inherit' });
}

/** One cold process: wall ms, and CPU ms when /usr/bin/time is there. */
function measure(argv, env) {
  const timeFile = path.join(scratch, 'time');
  const command = timeBinary ? [timeBinary, '-o', timeFile, '-f', '%U %S', ...argv] : argv;
  const started = process.hrtime.bigint();
  const result = spawnSync(command[0], command.slice(1), { cwd: repoRoot, env: { ...process.env, ...env }, encoding: 'utf8' });
  const wall = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${argv.join(' ')} exited ${result.status}:\n${result.stdout}${result.stderr}`);
  const cpu = timeBinary ? readFileSync(timeFile, 'utf8').trim().split(/\s+/).slice(-2).reduce((sum, value) => sum + Number(value) * 1000, 0) : Number.NaN;
  return { wall, cpu };
}

const scratch = mkdtempSync(path.join(os.tmpdir(), 'cronform-cli-start-'));
const databaseName = `cronform_bench_start_${process.pid}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
const databaseUrl = new URL(serverUrl);
databaseUrl.pathname = `/${databaseName}`;
const cli = (...rest) => [process.execPath, 'bin/run.js', ...rest];

try {
  await admin.query(`CREATE DATABASE ${databaseName}`);
  const env = { DATABASE_URL: databaseUrl.href, NO_COLOR: '1' };
  measure(cli('migrate'), env);
  measure(cli('apply', '--auto-approve', '--dir', 'schedules', '--reason', 'cli-start benchmark'), env);

  const cases = [
    { name: 'node -e 0', argv: [process.execPath, '-e', '0'] },
    { name: 'cronform --version', argv: cli('--version'), target: 1.6 },
    { name: 'cronform --help', argv: cli('--help'), target: 1.6 },
    { name: 'cronform validate <one manifest>', argv: cli('validate', 'schedules/health-check.yaml'), target: 3 },
    { name: 'cronform status (PostgreSQL)', argv: cli('status'), env, target: 4 },
  ];
  const samples = new Map(cases.map((c) => [c.name, []]));
  for (const c of cases) measure(c.argv, c.env); // warm the file cache
  for (let round = 0; round < runs; round += 1) {
    for (const c of cases) samples.get(c.name).push(measure(c.argv, c.env));
  }

  const base = samples.get('node -e 0');
  const baseWall = median(base.map((s) => s.wall));
  const baseCpu = median(base.map((s) => s.cpu));
  console.log(`\ncold starts, median of ${runs} interleaved rounds (node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)})\n`);
  const rows = [['command', 'wall ms', '× node', 'CPU ms', '× node', 'target (wall)', '']];
  let failed = false;
  for (const c of cases) {
    const wall = median(samples.get(c.name).map((s) => s.wall));
    const cpu = median(samples.get(c.name).map((s) => s.cpu));
    const ratio = wall / baseWall;
    const ok = c.target === undefined || ratio <= c.target;
    if (!ok) failed = true;
    rows.push([c.name, wall.toFixed(0), ratio.toFixed(2), Number.isNaN(cpu) ? 'n/a' : cpu.toFixed(0), Number.isNaN(cpu) ? '' : (cpu / baseCpu).toFixed(2), c.target ? `≤ ${c.target}×` : '', c.target ? (ok ? 'ok' : 'MISSED') : '']);
  }
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  for (const row of rows) console.log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  '));
  if (failed && !args.includes('--no-fail')) process.exitCode = 1;
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  await admin.end();
  rmSync(scratch, { recursive: true, force: true });
}

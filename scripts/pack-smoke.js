#!/usr/bin/env node
/**
 * Installable anywhere (issue 18): packs cronform with `npm pack`, installs the tarball into a
 * scratch repository (`npm i -D ./cronform-x.y.z.tgz`, from npm's cache when it can) and uses it
 * there as a new user would: `init`, `validate`, `plan`, `apply`, `trigger`, `runs` on the embedded
 * database, then, when PostgreSQL is reachable (DATABASE_URL), `migrate` and a `runner` until the
 * triggered example run succeeds. Slow (a real install), so it runs from .ci/run, not `npm test`.
 *
 *   node scripts/pack-smoke.js [--keep]
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(path.join(os.tmpdir(), 'cronform-pack-smoke-'));
const userRepo = path.join(scratch, 'user-repo');
const started = Date.now();
const step = (text) => console.log(`[pack-smoke +${((Date.now() - started) / 1000).toFixed(1)}s] ${text}`);

/** Runs a command; exits the script with its output when the status is not the expected one. */
function run(command, args, { cwd = userRepo, env = {}, status = 0 } = {}) {
  const result = spawnSync(command, args, { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, encoding: 'utf8' });
  if (result.status !== status) {
    console.error(`${command} ${args.join(' ')} exited ${result.status ?? result.signal} (expected ${status}) in ${cwd}\n${result.stdout}${result.stderr}`);
    process.exit(1);
  }
  return result.stdout;
}

function expectIn(output, pattern, what) {
  if (!pattern.test(output)) {
    console.error(`expected ${what} (${pattern}), got:\n${output}`);
    process.exit(1);
  }
}

const cronform = (args, options) => run(path.join(userRepo, 'node_modules', '.bin', 'cronform'), args, options);
const embedded = { DATABASE_URL: '' };

try {
  step('npm pack');
  run('npm', ['pack', '--pack-destination', scratch, '--silent'], { cwd: repoRoot });
  const tarball = readdirSync(scratch).find((name) => /^cronform-.*\.tgz$/.test(name));
  if (!tarball) throw new Error('npm pack wrote no cronform-*.tgz');

  step(`npm i -D ./${tarball} into a scratch repository`);
  run('mkdir', ['-p', userRepo], { cwd: scratch });
  writeFileSync(path.join(userRepo, 'package.json'), `${JSON.stringify({ name: 'user-repo', private: true, type: 'commonjs' }, null, 2)}\n`);
  run('git', ['init', '-q'], { cwd: userRepo });
  run('npm', ['i', '-D', path.join('..', tarball), '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error']);

  step('cronform --version, init, validate, plan, apply, trigger, runs (embedded database)');
  expectIn(cronform(['--version']), /^cronform\/\d+\.\d+\.\d+ /, 'the version line');
  cronform(['init']);
  for (const file of ['.github/workflows/cronform-plan.yml', '.github/workflows/cronform-apply.yml']) {
    if (!existsSync(path.join(userRepo, file))) throw new Error(`init wrote no ${file}`);
  }
  expectIn(readFileSync(path.join(userRepo, 'schedules', 'hello.yaml'), 'utf8'), /^# yaml-language-server: \$schema=\.\.\/node_modules\/cronform\/schema\/cronform\.schema\.json$/m, 'a modeline into node_modules/cronform');
  expectIn(cronform(['validate']), /no problems in 2 files · 1 schedule compiled/, 'a clean validate of the scaffold');
  expectIn(cronform(['plan'], { env: embedded, status: 0 }), /hello/, 'a plan creating hello');
  expectIn(cronform(['apply', '--auto-approve', '--reason', 'pack smoke'], { env: embedded }), /Applied plan .*create hello/, 'the apply');
  expectIn(cronform(['trigger', 'hello'], { env: embedded }), /QUEUED/, 'a queued manual run');
  expectIn(cronform(['runs', 'hello'], { env: embedded }), /hello/, 'the run listed');

  step("import { reportTo } from 'cronform/worker' (the package export for a queue's worker)");
  expectIn(run(process.execPath, ['--input-type=module', '-e', "import { reportTo, runReports } from 'cronform/worker'; console.log(typeof reportTo, typeof runReports);"]), /^function function$/m, 'the worker helper exported');
  if (!existsSync(path.join(userRepo, 'node_modules', 'cronform', 'dist', 'worker', 'index.d.ts'))) throw new Error('the tarball has no types for cronform/worker');

  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) step('no DATABASE_URL: the runner part is skipped');
  else await runnerOnPostgres(databaseUrl);
  step('ok');
} finally {
  if (process.argv.includes('--keep')) console.log(`kept ${scratch}`);
  else rmSync(scratch, { recursive: true, force: true });
}

/** migrate, apply, trigger, then a runner until the example's manual run is SUCCESS (60 s at most). */
async function runnerOnPostgres(serverUrl) {
  const { default: pg } = await import('pg');
  const name = `cronform_pack_smoke_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const env = { DATABASE_URL: url.href };
  await admin.query(`CREATE DATABASE ${name}`);
  let runner;
  try {
    step('PostgreSQL: migrate, apply, trigger, runner');
    cronform(['migrate'], { env });
    cronform(['apply', '--auto-approve', '--reason', 'pack smoke'], { env });
    cronform(['trigger', 'hello'], { env });
    runner = spawn(path.join(userRepo, 'node_modules', '.bin', 'cronform'), ['runner'], { cwd: userRepo, env: { ...process.env, ...env }, stdio: 'ignore' });
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (JSON.parse(cronform(['runs', 'hello', '--json', '--status', 'SUCCESS'], { env })).length > 0) break;
      if (Date.now() > deadline) throw new Error(`no SUCCESS run of hello within 60 s:\n${cronform(['runs', 'hello'], { env })}`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    step('the example run succeeded');
  } finally {
    if (runner && runner.exitCode === null) {
      const exited = new Promise((resolve) => runner.once('exit', resolve));
      runner.kill('SIGTERM');
      await exited;
    }
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

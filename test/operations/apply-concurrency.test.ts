/**
 * Concurrent applies on real PostgreSQL (SPEC §6): the built CLI in real child processes, started
 * at the same moment, serialized by the advisory lock; and a held lock making apply give up cleanly.
 * The only waiting is on child processes and on the database, never a sleep. What only sets the
 * scene (the plans, a first apply, the apply after the lock is released) runs in-process.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { asc, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import ApplyCommand from '../../src/commands/apply.js';
import PlanCommand from '../../src/commands/plan.js';
import type { Database } from '../../src/db/client.js';
import { migrateDatabase } from '../../src/db/migrate.js';
import { auditLog, scheduleVersions, schedules } from '../../src/db/schema.js';
import { ApplyLockTimeoutError, applyPlan } from '../../src/operations/apply.js';
import type { Plan } from '../../src/plan/plan-types.js';
import { parsePlanJson } from '../../src/plan/render-json.js';
import { ManualClock } from '../../src/shared/clock.js';
import { createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../support/databases.js';
import { inWorkingDirectory, runCommand, type Runnable } from '../support/run-command.js';
import { dumpDatabase } from './database-dump.js';
import { PLAN_NOW_MS, scheduleSource } from './plan-apply-manifests.js';
import { ALICE, PlanApplyDriver } from './plan-apply.suite.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = path.join(ROOT, 'bin', 'run.js');
/** The key apply takes with pg_advisory_xact_lock (APPLY_LOCK_KEY in src/operations/apply.ts). */
const APPLY_LOCK_KEY = 0x63666d02;

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  elapsedMs: number;
}

/** Runs the built CLI; resolves when the process exits. */
function runCli(args: string[], cwd: string): Promise<CliResult> {
  const startedMs = performance.now();
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
    delete env.DATABASE_URL;
    delete env.GITHUB_ACTOR;
    delete env.GITHUB_SHA;
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, elapsedMs: performance.now() - startedMs }));
  });
}

/** oclif wraps error messages to the terminal width and prefixes them with `›`. */
const oneLine = (text: string) => text.replace(/\s*›\s*/g, ' ').replace(/\s+/g, ' ').trim();

async function versionsBySchedule(database: Database): Promise<Record<string, number[]>> {
  const rows = await database.db
    .select({ name: schedules.name, version: scheduleVersions.version })
    .from(scheduleVersions)
    .innerJoin(schedules, sql`${schedules.id} = ${scheduleVersions.scheduleId}`)
    .orderBy(asc(schedules.name), asc(scheduleVersions.version));
  const result: Record<string, number[]> = {};
  for (const row of rows) (result[row.name] ??= []).push(row.version);
  return result;
}

/** Every schedule's versions are exactly 1..n and n is the schedule's current version. */
async function expectContiguousVersions(database: Database): Promise<void> {
  const versions = await versionsBySchedule(database);
  const current = await database.db.select({ name: schedules.name, version: schedules.version }).from(schedules).orderBy(asc(schedules.name));
  expect(Object.keys(versions)).toEqual(current.map((s) => s.name));
  for (const { name, version } of current) expect(versions[name]).toEqual(Array.from({ length: version }, (_, i) => i + 1));
}

async function auditActionsByPlan(database: Database): Promise<Record<string, string[]>> {
  const rows = await database.db.select().from(auditLog).orderBy(asc(auditLog.id));
  const result: Record<string, string[]> = {};
  for (const row of rows) (result[row.planId ?? 'none'] ??= []).push(`${row.action} ${row.scheduleName ?? '-'} ${row.actor}`);
  return result;
}

/** What a plan's apply writes to the audit log: one row per change, plus one for a Policy change. */
function expectedAudit(plan: Plan, actor: string): string[] {
  const actions = { create: 'SCHEDULE_CREATED', update: 'SCHEDULE_UPDATED', archive: 'SCHEDULE_ARCHIVED', restore: 'SCHEDULE_RESTORED', rename: 'SCHEDULE_RENAMED' } as const;
  return [...plan.changes.map((c) => `${actions[c.action]} ${c.name} ${actor}`), ...(plan.policyChange ? [`POLICY_UPDATED - ${actor}`] : [])];
}

describe.runIf(postgresServerUrl)('concurrent apply on PostgreSQL', () => {
  let server: TestPostgres;
  let database: Database;
  let workDir: string;

  beforeAll(() => {
    if (!existsSync(path.join(ROOT, 'dist', 'commands', 'index.js'))) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
  }, 120_000);

  beforeEach(async () => {
    server = await createPostgresDatabase();
    database = await server.open();
    await migrateDatabase(database);
    workDir = mkdtempSync(path.join(tmpdir(), 'cronform-apply-'));
    cpSync(path.join(ROOT, 'schedules'), path.join(workDir, 'schedules'), { recursive: true });
  });

  afterEach(async () => {
    rmSync(workDir, { recursive: true, force: true });
    await server.drop();
  });

  const cli = (...args: string[]) => runCli([...args, '--database-url', server.url], workDir);
  /** The same command in-process, where its process is not what the test is about. */
  const inProcess = async (command: Runnable, ...args: string[]) => {
    const result = await inWorkingDirectory(workDir, () => runCommand(command, [...args, '--database-url', server.url]));
    return { code: result.exitCode, message: result.message };
  };
  const readPlan = (file: string) => parsePlanJson(readFileSync(path.join(workDir, file), 'utf8'));

  it('two applies of one plan started together: one applies it, the other is refused as already applied (exit 4)', async () => {
    const planned = await inProcess(PlanCommand, '--out', 'plan.json');
    expect(planned.code).toBe(0);
    const plan = readPlan('plan.json');
    expect(plan.changes.map((c) => c.action)).toEqual(Array(plan.changes.length).fill('create'));
    expect(plan.changes.length).toBeGreaterThan(1);

    const [first, second] = await Promise.all([
      cli('apply', 'plan.json', '--auto-approve', '--lock-timeout', '10s', '--actor', 'first'),
      cli('apply', 'plan.json', '--auto-approve', '--lock-timeout', '10s', '--actor', 'second'),
    ]);
    const results = [first, second].map((r, i) => ({ actor: i === 0 ? 'first' : 'second', ...r }));
    expect(results.map((r) => r.code).sort()).toEqual([0, 4]);
    const winner = results.find((r) => r.code === 0)!;
    const loser = results.find((r) => r.code === 4)!;
    expect(oneLine(winner.stdout)).toContain(`Applied plan ${plan.planId}: `);
    expect(oneLine(loser.stderr)).toContain(`Error: plan ${plan.planId} was already applied; run plan again to see what is left to change`);

    await expectContiguousVersions(database);
    expect(Object.values(await versionsBySchedule(database))).toEqual(plan.changes.map(() => [1]));
    expect(await auditActionsByPlan(database)).toEqual({ [plan.planId]: expectedAudit(plan, winner.actor) });
  });

  it('two different plans applied together: one applies, the other is refused as stale naming the schedule and the winner (exit 4)', async () => {
    expect((await inProcess(ApplyCommand, '--auto-approve', '--actor', 'bootstrap')).code).toBe(0);
    const report = readFileSync(path.join(workDir, 'schedules', 'daily-report.yaml'), 'utf8');
    const weekly = readFileSync(path.join(workDir, 'schedules', 'weekly-report.yaml'), 'utf8');
    expect(report).toContain('cron: "30 19 * * *"');
    for (const [dir, reportCron] of [['schedules-a', '0 20 * * *'], ['schedules-b', '0 21 * * *']] as const) {
      cpSync(path.join(workDir, 'schedules'), path.join(workDir, dir), { recursive: true });
      writeFileSync(path.join(workDir, dir, 'daily-report.yaml'), report.replace('cron: "30 19 * * *"', `cron: "${reportCron}"`));
    }
    // B also touches weekly-report, so the two plans differ in more than one value.
    writeFileSync(path.join(workDir, 'schedules-b', 'weekly-report.yaml'), weekly.replace(/timeout: \S+/, 'timeout: 25m'));
    expect((await inProcess(PlanCommand, '--dir', 'schedules-a', '--out', 'a.json')).code).toBe(0);
    expect((await inProcess(PlanCommand, '--dir', 'schedules-b', '--out', 'b.json')).code).toBe(0);
    const plans = { a: readPlan('a.json'), b: readPlan('b.json') };
    expect(plans.a.changes.map((c) => `${c.action} ${c.name}`)).toEqual(['update daily-report']);
    expect(plans.b.changes.map((c) => `${c.action} ${c.name}`).sort()).toEqual(['update daily-report', 'update weekly-report']);

    const [a, b] = await Promise.all([
      cli('apply', 'a.json', '--auto-approve', '--lock-timeout', '10s', '--actor', 'a'),
      cli('apply', 'b.json', '--auto-approve', '--lock-timeout', '10s', '--actor', 'b'),
    ]);
    expect([a.code, b.code].sort()).toEqual([0, 4]);
    const [winner, loser] = a.code === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const);
    const loserResult = loser === 'a' ? a : b;
    expect(oneLine(loserResult.stderr)).toMatch(
      new RegExp(`Error: the plan is stale: daily-report moved from version 1 to 2 \\(SCHEDULE_UPDATED by ${winner} at \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z\\)\\. Run plan again\\.`),
    );

    await expectContiguousVersions(database);
    const versions = await versionsBySchedule(database);
    expect(versions['daily-report']).toEqual([1, 2]);
    expect(versions['weekly-report']).toEqual(winner === 'b' ? [1, 2] : [1]);
    const [stored] = await database.db.select().from(schedules).where(sql`${schedules.name} = 'daily-report'`);
    expect(stored!.digest).toBe(plans[winner].changes.find((c) => c.name === 'daily-report')!.afterDigest);
    const audit = await auditActionsByPlan(database);
    expect(audit[plans[winner].planId]).toEqual(expectedAudit(plans[winner], winner));
    expect(audit[plans[loser].planId]).toBeUndefined();
  });

  it('gives up after --lock-timeout while another transaction holds the apply lock (exit 5), writing nothing', async () => {
    expect((await inProcess(PlanCommand, '--out', 'plan.json')).code).toBe(0);
    const holder = new pg.Client({ connectionString: server.url });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select pg_advisory_xact_lock($1)', [APPLY_LOCK_KEY]);
      const before = await dumpDatabase(database);

      const blocked = await cli('apply', 'plan.json', '--auto-approve', '--lock-timeout', '1s');
      expect(blocked.code).toBe(5);
      expect(oneLine(blocked.stderr)).toContain('Error: another apply holds the lock; gave up after 1s (--lock-timeout)');
      // At least the timeout itself; the rest is process start-up, far below a second timeout.
      expect(blocked.elapsedMs).toBeGreaterThanOrEqual(1_000);
      expect(blocked.elapsedMs).toBeLessThan(15_000);
      expect(await dumpDatabase(database)).toEqual(before);
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
    // The lock was the only obstacle: released, the same plan applies.
    expect((await inProcess(ApplyCommand, 'plan.json', '--auto-approve', '--lock-timeout', '1s')).code).toBe(0);
    await expectContiguousVersions(database);
  });

  it('polls the lock until its timeout on the apply clock, then fails without writing (in-process)', async () => {
    const driver = new PlanApplyDriver(database);
    const plan = await driver.plan([scheduleSource('nightly')]);
    const holder = new pg.Client({ connectionString: server.url });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select pg_advisory_xact_lock($1)', [APPLY_LOCK_KEY]);
      const clock = new ManualClock(PLAN_NOW_MS);
      const waits: number[] = [];
      const sleep = async (ms: number) => {
        waits.push(ms);
        clock.advance(ms);
      };
      const error = await applyPlan(database, plan, { author: ALICE, clock, lockTimeoutMs: 1_000, sleep }).catch((e: unknown) => e);
      expect(error).toEqual(new ApplyLockTimeoutError(1_000));
      expect((error as ApplyLockTimeoutError).message).toBe('another apply holds the lock; gave up after 1s (--lock-timeout)');
      expect(waits).toEqual(Array(10).fill(100));
      expect(clock.nowMs()).toBe(PLAN_NOW_MS + 1_000);
      expect((await database.db.select().from(schedules)).length).toBe(0);
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
  });
});

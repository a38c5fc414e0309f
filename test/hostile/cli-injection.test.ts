/**
 * Property 4 through the CLI, in-process: SQL in arguments and flags (schedule names, --actor,
 * --reason) of apply, history, pause, trigger and runs is a value, never a statement. On PGlite
 * the commands use the embedded database of the working directory; on PostgreSQL, --database-url.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { stringify } from 'yaml';
import Apply from '../../src/commands/apply.js';
import History from '../../src/commands/history.js';
import Pause from '../../src/commands/pause.js';
import Plan from '../../src/commands/plan.js';
import Runs from '../../src/commands/runs.js';
import Trigger from '../../src/commands/trigger.js';
import type { Database } from '../../src/db/client.js';
import { auditLog, schedules } from '../../src/db/schema.js';
import type { VersionEntry } from '../../src/operations/history.js';
import { countRows, dumpDatabase } from '../operations/database-dump.js';
import { describeOnBothEngines } from '../support/command-engines.js';
import { runCommand as run } from '../support/run-command.js';
import { SQL_INJECTIONS } from './injection-strings.js';

const NAME = "x'; drop table schedules;--";
const ACTOR = "'); delete from audit_log;--";
const REASON = "'); delete from audit_log;--\n$$; drop table schedule_versions; $$";
const DESCRIPTION = SQL_INJECTIONS.join(' | ');

function writeManifests(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const manifest = { apiVersion: 'cronform/v1', kind: 'Schedule', metadata: { name: 'report', description: DESCRIPTION, labels: { sql: ACTOR } }, spec: { cron: '0 3 * * *', timezone: 'UTC', job: { type: 'command', command: ['node', 'jobs/report.js', NAME] } } };
  writeFileSync(path.join(dir, 'report.yaml'), stringify(manifest));
}

/**
 * The same scenario on both engines; `databaseArgs` selects the database the commands use. Each
 * command opens the embedded PGlite from disk (seconds), so there only apply, history of an unknown
 * name and pause run; trigger, runs, plan and history --json are left to PostgreSQL (`everyCommand`).
 */
async function runScenario(databaseArgs: string[], openForChecks: () => Promise<Database>, manifestDir: string, everyCommand: boolean): Promise<void> {
  const applied = await run(Apply, ['--dir', manifestDir, '--auto-approve', '--actor', ACTOR, '--reason', REASON, ...databaseArgs]);
  expect(applied.exitCode, applied.stdout + applied.message).toBe(0);

  const unknown = await run(History, [NAME, ...databaseArgs]);
  expect(unknown.exitCode).toBe(1);
  expect(unknown.message).toBe(`no schedule named ${JSON.stringify(NAME)}`);
  for (const name of everyCommand ? [NAME, "' OR '1'='1", '$$; drop table schedules; $$'] : []) {
    const trigger = await run(Trigger, [name, '--actor', ACTOR, ...databaseArgs]);
    expect(trigger.exitCode, `${name}: ${trigger.message}`).toBe(1);
    const runs = await run(Runs, [name, '--json', ...databaseArgs]);
    if (runs.exitCode === 0) expect(JSON.parse(runs.stdout)).toEqual([]);
    else expect(runs.exitCode, `${name}: ${runs.message}`).toBe(1);
  }

  if (everyCommand) {
    const history = await run(History, ['report', '--json', ...databaseArgs]);
    expect(history.exitCode).toBe(0);
    expect((JSON.parse(history.stdout) as VersionEntry[]).map(({ actor, reason, version }) => ({ actor, reason, version }))).toEqual([{ actor: ACTOR, reason: REASON, version: 1 }]);
  }

  const paused = await run(Pause, ['report', '--reason', REASON, '--actor', ACTOR, ...databaseArgs]);
  expect(paused.exitCode, paused.message).toBe(0);
  if (everyCommand) {
    const planned = await run(Plan, ['--dir', manifestDir, ...databaseArgs]);
    expect(planned.exitCode, planned.message).toBe(0);
    expect(planned.stdout).toContain(REASON.split('\n')[0]);
  }

  const database = await openForChecks();
  try {
    const [row] = await database.db.select().from(schedules).where(eq(schedules.name, 'report'));
    expect(row!.definition.description).toBe(DESCRIPTION);
    expect(row!.definition.labels).toEqual({ sql: ACTOR });
    expect(row!.definition.job).toMatchObject({ command: ['node', 'jobs/report.js', NAME] });
    expect(row!.pausedReason).toBe(REASON);
    expect(row!.pausedBy).toBe(ACTOR);
    const audit = await database.db.select().from(auditLog).where(eq(auditLog.scheduleName, 'report'));
    expect(audit.map((a) => [a.action, a.actor, a.reason])).toEqual([
      ['SCHEDULE_CREATED', ACTOR, REASON],
      ['SCHEDULE_PAUSED', ACTOR, REASON],
    ]);
    const counts = countRows(await dumpDatabase(database));
    // The created schedule, its version, three audit rows (create, Policy, pause) and no run: nothing else was written or dropped.
    expect(counts).toMatchObject({ 'public.schedules': 1, 'public.schedule_versions': 1, 'public.audit_log': 3, 'public.schedule_runs': 0, 'public.run_attempts': 0 });
  } finally {
    await database.close();
  }
}

describeOnBothEngines('SQL injection through CLI arguments', async ({ scratch, databaseArgs, openForChecks, embedded }) => {
  writeManifests(path.join(scratch, 'schedules'));
  // On the embedded engine --dir is relative, resolved against the working directory as a user's would be.
  await runScenario(databaseArgs, openForChecks, embedded ? 'schedules' : path.join(scratch, 'schedules'), !embedded);
});

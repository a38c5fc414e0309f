/**
 * Issue #4's "invalid cron refused at apply", through the apply command itself: a manifest set with
 * one invalid cron next to a valid change is refused as a whole, with the error located at
 * file:line:column and exit code 1, and the database is left byte for byte as it was (the valid
 * change is not applied either). On the embedded PGlite of the working directory, and on PostgreSQL.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import Apply from '../../src/commands/apply.js';
import type { Database } from '../../src/db/client.js';
import { ExitCodes } from '../../src/shared/exit-codes.js';
import { countRows, dumpDatabase } from '../operations/database-dump.js';
import { describeOnBothEngines } from '../support/command-engines.js';
import { runCommand } from '../support/run-command.js';

const manifest = (name: string, cron: string) =>
  `apiVersion: cronform/v1\nkind: Schedule\nmetadata:\n  name: ${name}\nspec:\n  cron: "${cron}"\n  timezone: UTC\n  job: { type: command, command: ["true"] }\n`;

const apply = (argv: string[]) => runCommand(Apply, ['--auto-approve', '--actor', 'test', ...argv]);

async function scenario(manifestDir: string, databaseArgs: string[], openForChecks: () => Promise<Database>): Promise<void> {
  mkdirSync(manifestDir, { recursive: true });
  writeFileSync(path.join(manifestDir, 'report.yaml'), manifest('report', '0 3 * * *'));
  const first = await apply(['--dir', manifestDir, ...databaseArgs]);
  expect(first.exitCode, first.stdout + first.message).toBe(0);
  const check = await openForChecks();
  const before = await dumpDatabase(check);
  await check.close();
  expect(countRows(before)).toMatchObject({ 'public.schedules': 1, 'public.schedule_versions': 1 });

  // A valid change (03:00 → 04:00) and a new manifest with a minute out of range, in one apply.
  writeFileSync(path.join(manifestDir, 'report.yaml'), manifest('report', '0 4 * * *'));
  writeFileSync(path.join(manifestDir, 'cleanup.yaml'), manifest('cleanup', '61 * * * *'));
  const refused = await apply(['--dir', manifestDir, ...databaseArgs]);
  expect(refused.exitCode).toBe(ExitCodes.ERROR);
  // Line 6 is `  cron: "61 * * * *"`; column 10 is the first character of the expression.
  expect(refused.stdout).toMatch(/cleanup\.yaml:6:10 error CF020 invalid cron "61 \* \* \* \*": minute 61 is out of range 0-59/);
  expect(refused.stdout).not.toMatch(/Applied plan/);

  const after = await openForChecks();
  try {
    expect(await dumpDatabase(after)).toEqual(before);
  } finally {
    await after.close();
  }
}

describeOnBothEngines('apply refuses an invalid cron and writes nothing', ({ scratch, databaseArgs, openForChecks }) =>
  scenario(path.join(scratch, 'schedules'), databaseArgs, openForChecks),
);

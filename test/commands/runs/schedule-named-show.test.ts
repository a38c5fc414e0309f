/**
 * A schedule may be named `show`, but argv `runs show` is `runs show <id>` (one run's details). Its
 * runs are listed with `runs --schedule show`; `runs show show` says so instead of only refusing
 * the id. In-process, on a real PostgreSQL (set CRONFORM_TEST_DATABASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Runs from '../../../src/commands/runs.js';
import RunsShow from '../../../src/commands/runs/show.js';
import Trigger from '../../../src/commands/trigger.js';
import type { Database } from '../../../src/db/client.js';
import { migrateDatabase } from '../../../src/db/migrate.js';
import type { RunEntry } from '../../../src/operations/runs/list-runs.js';
import { createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../../support/databases.js';
import { runCommand, type Runnable } from '../../support/run-command.js';
import { applySources, scheduleSource } from '../../operations/runs/run-fixtures.js';

describe.runIf(postgresServerUrl)('a schedule named show', () => {
  let server: TestPostgres;
  let database: Database;
  const run = (command: Runnable, argv: string[]) => runCommand(command, [...argv, '--database-url', server.url]);

  beforeAll(async () => {
    server = await createPostgresDatabase();
    database = await server.open();
    await migrateDatabase(database);
    await applySources(database, [scheduleSource('show'), scheduleSource('other')], Date.now());
    for (const name of ['show', 'other']) expect((await run(Trigger, [name, '--actor', 'tester'])).exitCode).toBe(0);
  });
  afterAll(async () => {
    await database?.close();
    await server?.drop();
  });

  it('is listed with runs --schedule show, and only its runs', async () => {
    const listed = await run(Runs, ['--schedule', 'show', '--json']);
    expect(listed.exitCode).toBe(0);
    const runs = JSON.parse(listed.stdout) as RunEntry[];
    expect(runs.map((r) => r.schedule)).toEqual(['show']);
    expect((await run(Runs, ['--schedule', 'show'])).stdout).toMatch(/^\d+ +show +/m);
  });

  it('takes the name as argument or flag, not two different names', async () => {
    expect((await run(Runs, ['other', '--schedule', 'other', '--json'])).exitCode).toBe(0);
    const both = await run(Runs, ['other', '--schedule', 'show']);
    expect([both.exitCode, both.message]).toEqual([1, 'two schedule names: "other" and --schedule "show"; give one']);
  });

  it('runs show <name> points to runs --schedule <name>', async () => {
    const shown = await run(RunsShow, ['show']);
    expect(shown.exitCode).not.toBe(0);
    expect(shown.message).toContain('Expected an integer but received: show. For the runs of a schedule named "show": cronform runs --schedule show');
    expect((await run(RunsShow, ['0'])).message).toContain('Expected an integer greater than or equal to 1 but received: 0');
  });
});

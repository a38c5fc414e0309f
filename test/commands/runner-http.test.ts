/**
 * `runner --http` and `dev --http`, in-process: a wrong address or log level exits 1 with its
 * reason before anything starts; a port in use exits 1 before the runner takes any run.
 */
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import Dev from '../../src/commands/dev.js';
import RunnerCommand from '../../src/commands/runner.js';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.js';
import { createPostgresDatabase } from '../support/databases.js';
import { inWorkingDirectory, runCommand } from '../support/run-command.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'cronform-http-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('--http and --log-level', () => {
  it.each([
    ['runner', 'localhost', RunnerCommand, 'the port is missing'],
    ['runner', '127.0.0.1:99999', RunnerCommand, 'port 99999 is above 65535'],
    ['dev', '::1:9464', Dev, 'an IPv6 host must be in brackets'],
    ['dev', '127.0.0.1:metrics', Dev, 'port "metrics" is not a number'],
  ])('%s --http %s exits 1', async (_name, address, command, why) => {
    const result = await inWorkingDirectory(scratch, () => runCommand(command, ['--http', address]));
    expect(result.exitCode).toBe(1);
    expect(result.message).toBe(`--http ${JSON.stringify(address)}: ${why} (expected HOST:PORT, e.g. 127.0.0.1:9464, [::1]:9464 or :9464)`);
  });

  it.each([
    ['unset', undefined, 'set CRONFORM_DASHBOARD_TOKEN in the environment'],
    ['too short', 'short-token', 'CRONFORM_DASHBOARD_TOKEN is too short (11 characters)'],
  ])('--allow-actions with a token %s exits 1 before anything starts', async (_case, token, why) => {
    const saved = process.env.CRONFORM_DASHBOARD_TOKEN;
    if (token === undefined) delete process.env.CRONFORM_DASHBOARD_TOKEN;
    else process.env.CRONFORM_DASHBOARD_TOKEN = token;
    try {
      for (const command of [RunnerCommand, Dev]) {
        const result = await inWorkingDirectory(scratch, () => runCommand(command, ['--http', '127.0.0.1:0', '--allow-actions']));
        expect(result.exitCode).toBe(1);
        expect(result.message).toContain(why);
      }
    } finally {
      if (saved === undefined) delete process.env.CRONFORM_DASHBOARD_TOKEN;
      else process.env.CRONFORM_DASHBOARD_TOKEN = saved;
    }
  });

  it('refuses an allowed host that is not a host name, before anything starts', async () => {
    for (const command of [RunnerCommand, Dev]) {
      const result = await inWorkingDirectory(scratch, () => runCommand(command, ['--http', '127.0.0.1:0', '--http-allowed-hosts', 'cronform.internal,evil.example:80']));
      expect(result.exitCode).toBe(1);
      expect(result.message).toContain('--http-allowed-hosts: "evil.example:80" is not a host name');
    }
  });

  it('refuses --allow-actions without --http', async () => {
    const result = await inWorkingDirectory(scratch, () => runCommand(RunnerCommand, ['--allow-actions']));
    expect(result.exitCode).toBe(1);
    // oclif's dependsOn (the flag has no default: with one, it would count as given on every start).
    expect(result.message).toContain('All of the following must be provided when using --allow-actions: --http');
  });

  it('refuses a log level that is not one', async () => {
    const result = await inWorkingDirectory(scratch, () => runCommand(RunnerCommand, ['--log-level', 'loud']));
    expect(result.exitCode).toBe(1);
    expect(result.message).toContain('Expected --log-level=loud to be one of: debug, info, warn, error');
  });

  it('a port in use exits 1 with the reason, before the runner starts', async () => {
    const postgres = await createPostgresDatabase();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const result = await runCommand(RunnerCommand, ['--http', `127.0.0.1:${port}`, '--log-level', 'error', '--database-url', postgres.url]);
      expect(result.exitCode).toBe(1);
      expect(result.message).toBe(`cannot listen on 127.0.0.1:${port} (--http): the port is already in use (another runner or program listens there)`);
      // Nothing started: no runner registered itself.
      const database = await postgres.open({ maxConnections: 1 });
      expect(await queryRows(database.db, sql`select id from runners`)).toEqual([]);
    } finally {
      blocker.close();
      await postgres.drop();
    }
  });
});

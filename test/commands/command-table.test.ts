/**
 * bin/run.js gives oclif a table of only the command named in argv (src/commands/selected-table.ts);
 * help, topics and unknown names must still see every command. bin/run.js answers --help and
 * --version itself (dist/cli-help.txt, rendered at build): it must print what oclif prints.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Config, Help } from '@oclif/core';
import { describe, expect, it } from 'vitest';
import { commands } from '../../src/commands/index.js';
import { commandIdFromArgv, commandLoaders, type CommandId } from '../../src/commands/table.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

const cli = async (...args: string[]) => {
  const result = await promisify(execFile)(process.execPath, ['bin/run.js', ...args]).catch((error: { stdout: string; stderr: string; code: number }) => error);
  return { out: `${result.stdout}${result.stderr}`, code: 'code' in result ? result.code : 0 };
};

describe('command table by argv', () => {
  it('lists every command in the root help', async () => {
    const { out } = await cli('--help');
    for (const name of ['apply', 'backfill', 'dev', 'github', 'plan', 'runner', 'status', 'validate']) expect(out).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
  });

  it('runs a command of a topic and a single command with its own help', async () => {
    expect((await cli('github', 'comment', '--help')).out).toContain('$ cronform github comment');
    expect((await cli('plan', '--help')).out).toContain('$ cronform plan');
  });

  it('loads runs and runs show together: `runs show <id>` next to `runs [name]`', async () => {
    expect((await cli('runs', 'show', '--help')).out).toContain('$ cronform runs show RUNID');
    expect((await cli('runs', '--help')).out).toContain('$ cronform runs [NAME]');
  });

  it('refuses an unknown command', async () => {
    const result = await cli('valdate');
    expect(result.code).not.toBe(0);
    expect(result.out).toContain('command valdate not found');
  });
});

describe('one command table (src/commands/table.ts)', () => {
  const commandsDir = fileURLToPath(new URL('../../src/commands', import.meta.url));

  it('registers every command module, and the full table holds the same commands', async () => {
    const files = readdirSync(commandsDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    const commandFiles = files.filter((file) => /^export default class \w+ extends CronformCommand\b/m.test(readFileSync(path.join(commandsDir, file), 'utf8')));
    const ids = commandFiles.map((file) => file.replace(/\.ts$/, '').split(path.sep).join(':')).sort();
    expect(ids.length).toBeGreaterThan(20);
    expect(Object.keys(commandLoaders).sort()).toEqual(ids);
    expect(Object.keys(commands).sort()).toEqual(ids);
    for (const id of ids) expect((await commandLoaders[id as CommandId]()).default, id).toBe(commands[id as CommandId]);
  });

  it('answers --help and --version without oclif exactly as oclif does', async () => {
    const config = await Config.load({ root: repoRoot });
    let rendered = '';
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string) => {
      rendered += chunk;
      return true;
    }) as typeof process.stdout.write;
    try {
      await new Help(config, { maxWidth: 80 }).showHelp([]);
    } finally {
      process.stdout.write = write;
    }
    expect((await cli('--help')).out).toBe(rendered);
    expect((await cli()).out).toBe(rendered);
    expect((await cli('--version')).out).toBe(`${config.userAgent}\n`);
  });

  it('picks the command argv names, longest id first', () => {
    expect(commandIdFromArgv(['validate', 'schedules/'])).toBe('validate');
    expect(commandIdFromArgv(['github', 'comment', '--plan', 'plan.json'])).toBe('github:comment');
    expect(commandIdFromArgv(['github'])).toBeUndefined();
    expect(commandIdFromArgv(['--help'])).toBeUndefined();
    expect(commandIdFromArgv(['valdate'])).toBeUndefined();
    expect(commandIdFromArgv(['constructor'])).toBeUndefined();
  });
});

describe('start-up of a command on PostgreSQL (bench/cli-start)', () => {
  it("loads pg without Node's fetch (undici), and the same pg that `import('pg')` gives drizzle", async () => {
    // pg's Cloudflare probe builds a Response where there is no navigator (Node 20): src/db/client.ts.
    const probe = [
      "const { loadPg } = await import('./dist/db/client.js');",
      'const pg = loadPg();',
      "const undici = process.moduleLoadList.some((name) => name.includes('undici'));",
      "const same = (await import('pg')).default === pg;",
      'console.log(JSON.stringify({ undici, same, navigator: typeof globalThis.navigator, pool: typeof pg.Pool }));',
    ].join('\n');
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', probe], { cwd: repoRoot });
    expect(JSON.parse(stdout)).toEqual({ undici: false, same: true, navigator: Number(process.versions.node.split('.')[0]) >= 21 ? 'object' : 'undefined', pool: 'function' });
  });

  it("status runs its statements without drizzle's root, session and query builders, and loads no queue hand-off code", async () => {
    // Every module the CLI loads, recorded by a resolve hook; the URL refuses connections, so the
    // command fails after loading all it loads on PostgreSQL (src/operations/database.ts withStatementDatabase).
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'cronform-status-modules-'));
    const log = path.join(scratch, 'modules.log');
    const hooks = `import { appendFileSync } from 'node:fs'; export async function resolve(specifier, context, next) { const resolved = await next(specifier, context); appendFileSync(${JSON.stringify(log)}, resolved.url + '\\n'); return resolved; }`;
    const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
    try {
      const result = await promisify(execFile)(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, 'bin/run.js', 'status', '--database-url', 'postgres://cronform@127.0.0.1:1/none'], { cwd: repoRoot }).catch((error: { stderr: string; code: number }) => error);
      expect('code' in result && result.code).toBe(1);
      const loaded = readFileSync(log, 'utf8').split('\n').map((url) => url.replace(/^.*\/node_modules\//, '').replace(/^file:.*\/dist\//, 'dist/'));
      expect(loaded).toContain('dist/db/run-report-queries.js');
      expect(loaded).toContain('drizzle-orm/sql/sql.js');
      expect(loaded.filter((url) => /^drizzle-orm\/(index\.js|node-postgres\/|pg-core\/(db|dialect|session|query-builders\/))/.test(url))).toEqual([]);
      expect(loaded).not.toContain('dist/db/queue-handoff-queries.js');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

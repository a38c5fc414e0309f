/**
 * bin/run.js gives oclif a table of only the command named in argv (src/commands/selected-table.ts);
 * help, topics and unknown names must still see every command.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

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

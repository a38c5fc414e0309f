/**
 * The flags of `runner` and `dev` as oclif parses them: the README's quick start is `npx cronform dev`
 * with no flag at all, which must parse. (A boolean with `default: false` counts as given, so its
 * `dependsOn: ['http']` refused every start without --http.)
 */
import { Parser, type Interfaces } from '@oclif/core';
import { describe, expect, it } from 'vitest';
import Dev from '../../src/commands/dev.js';
import RunnerCommand from '../../src/commands/runner.js';

/** The two commands' flag sets differ (dev has --dir, runner --database-url): parsed through one signature. */
const parse = (argv: string[], flags: object) => Parser.parse(argv, { flags: flags as Interfaces.FlagInput });

describe.each([
  ['dev', Dev],
  ['runner', RunnerCommand],
])('%s flags', (_name, command) => {
  it('parse with none given', async () => {
    const { flags } = await parse([], command.flags);
    expect(flags['allow-actions']).toBeUndefined();
  });

  it('refuse --allow-actions without --http', async () => {
    await expect(parse(['--allow-actions'], command.flags)).rejects.toThrow(/--http/);
  });

  it('accept --allow-actions with --http', async () => {
    const { flags } = await parse(['--http', '127.0.0.1:0', '--allow-actions'], command.flags);
    expect(flags['allow-actions']).toBe(true);
  });
});

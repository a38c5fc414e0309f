/**
 * CronformCommand.catch, in-process: usage errors exit 1, and the errors users can act on exit
 * with their code from src/shared/exit-codes.ts and print only their message.
 */
import { Args } from '@oclif/core';
import { describe, expect, it } from 'vitest';
import PlanCommand from '../../src/commands/plan.js';
import Trigger from '../../src/commands/trigger.js';
import { CronformCommand } from '../../src/commands/cronform-command.js';
import { exitCodeForError } from '../../src/commands/error-exit-codes.js';
import { GitHubApiError } from '../../src/github/github-client.js';
import { ApplyLockTimeoutError, InvalidPlanError, PlanAlreadyAppliedError, StalePlanError } from '../../src/operations/apply.js';
import { RunOperationError } from '../../src/operations/runs/run-operation-error.js';
import { VersionNotFoundError } from '../../src/operations/version-not-found-error.js';
import { ExitCodes } from '../../src/shared/exit-codes.js';
import { runCommand } from '../support/run-command.js';

const refusals = {
  stale: new StalePlanError([{ name: 'x', detail: 'moved from version 1 to 2' }]),
  applied: new PlanAlreadyAppliedError('plan-1'),
  locked: new ApplyLockTimeoutError(30_000),
  invalid: new InvalidPlanError('the plan has 1 error(s); fix them and plan again'),
  refused: new RunOperationError('no schedule named "x"'),
  version: new VersionNotFoundError('x has no version 9'),
  github: new GitHubApiError('GitHub API 403: Resource not accessible by integration', 403),
  bug: new TypeError('cannot read properties of undefined'),
};

/** Throws the error its argument names, after parsing, as an operation would. */
class Throws extends CronformCommand {
  static override args = { error: Args.string({ required: true, options: Object.keys(refusals) }) };
  async run(): Promise<never> {
    const { args } = await this.parse(Throws);
    throw refusals[args.error as keyof typeof refusals];
  }
}

describe('exitCodeForError', () => {
  it.each([
    ['stale', ExitCodes.STALE_PLAN],
    ['applied', ExitCodes.STALE_PLAN],
    ['locked', ExitCodes.LOCK_TIMEOUT],
    ['invalid', ExitCodes.ERROR],
    ['refused', ExitCodes.ERROR],
    ['version', ExitCodes.ERROR],
    ['github', ExitCodes.ERROR],
    ['bug', undefined],
  ] as const)('%s → %s', (name, code) => {
    expect(exitCodeForError(refusals[name])).toBe(code);
  });
});

describe('CronformCommand.catch', () => {
  it.each([
    ['stale', 4],
    ['applied', 4],
    ['locked', 5],
    ['invalid', 1],
    ['refused', 1],
    ['version', 1],
    ['github', 1],
  ] as const)('%s exits %s with the message alone', async (name, code) => {
    const result = await runCommand(Throws, [name]);
    expect(result.exitCode).toBe(code);
    expect(result.message).toBe(refusals[name].message);
    expect(result.error?.name).toBe('Error');
  });

  it('leaves a bug as it is (oclif prints it and exits 1)', async () => {
    const result = await runCommand(Throws, ['bug']);
    expect(result.error).toBe(refusals.bug);
    expect(result.exitCode).toBe(-1);
  });

  it.each([
    { name: 'a value not among the options', command: PlanCommand, argv: ['--fail-on', 'hihg', '--detailed-exitcode'], message: 'Expected --fail-on=hihg to be one of: medium, high' },
    { name: 'an unknown flag', command: PlanCommand, argv: ['--nope'], message: 'Nonexistent flag: --nope' },
    { name: 'a missing argument', command: Trigger, argv: [], message: 'Missing 1 required arg' },
    { name: 'a flag without its value', command: Trigger, argv: ['x', '--actor'], message: 'Flag --actor expects a value' },
    { name: 'an argument not among the options', command: Throws, argv: ['nonsense'], message: 'Expected nonsense to be one of' },
  ])('usage error, $name: exit 1 with oclif\'s message', async ({ command, argv, message }) => {
    const result = await runCommand(command, argv);
    expect(result.message).toContain(message);
    expect(result.exitCode).toBe(1);
  });
});

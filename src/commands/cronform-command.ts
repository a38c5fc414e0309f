/**
 * What every cronform command shares: oclif's --json (print the value run() returns instead of the
 * text), and one catch that gives each error its exit code from src/shared/exit-codes.ts.
 */
import { Command, Errors, ux } from '@oclif/core';
import { ExitCodes } from '../shared/exit-codes.js';
import { exitCodeForError } from './error-exit-codes.js';

export abstract class CronformCommand extends Command {
  static override enableJsonFlag = true;

  /**
   * Usage errors (an unknown flag, a value not among a flag's options, a missing argument) are thrown
   * while argv is parsed, and oclif gives them exit 2, which `plan --detailed-exitcode` reserves for
   * "changes present": they exit 1. Errors the user can act on get their code from the mapping and
   * print only their message; anything else is a bug or infrastructure and reaches oclif as it is
   * (exit 1). Under --json an error is still a message on stderr, never JSON on stdout.
   */
  protected override async catch(error: Error): Promise<never> {
    if (!this.parsed) {
      if (error instanceof Errors.CLIError) error.oclif.exit = ExitCodes.ERROR;
      throw error;
    }
    const exitCode = exitCodeForError(error);
    if (exitCode !== undefined) throw new Errors.CLIError(error.message, { exit: exitCode });
    throw error;
  }

  /** A refusal found by the command itself (a bad flag value, a missing file): its message, exit 1. */
  protected fail(message: string): never {
    this.error(message, { exit: ExitCodes.ERROR });
  }

  /**
   * Returns `result`, or ends the run with a non-zero `exitCode` once the output is written (plan's
   * 2 and 3, validate's 1); under --json the result is printed first, as it is for a run that returns.
   */
  protected finish<T>(result: T, exitCode: number): T {
    if (exitCode === ExitCodes.SUCCESS) return result;
    if (this.jsonEnabled()) this.logJson(this.toSuccessJson(result));
    this.exit(exitCode);
  }

  /**
   * Plain JSON.stringify, the bytes `--format json` prints. oclif's own logJson re-reads the text token
   * by token to colour it, which is slow for the large outputs of validate and runs (bench/validate).
   */
  protected override logJson(json: unknown): void {
    ux.stdout(JSON.stringify(json, null, 2));
  }
}

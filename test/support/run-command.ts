/**
 * Runs a cronform command in-process, the way `bin/run.js` would, and captures what it printed.
 * The exit code is the one the command chose; an error it did not map to one is -1, so a test
 * never mistakes a crash for success.
 */
import { fileURLToPath } from 'node:url';
import { captureOutput } from '@oclif/test';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface Runnable {
  run(argv: string[], root: string): Promise<unknown>;
}

/** `options.stripAnsi` (oclif's default: true) removes escape sequences from what was captured. */
export async function runCommand(command: Runnable, argv: string[], options: { stripAnsi?: boolean } = {}) {
  const output = await captureOutput(() => command.run(argv, repoRoot), options);
  const exitCode = (output.error as { oclif?: { exit?: number } } | undefined)?.oclif?.exit ?? (output.error ? -1 : 0);
  return { ...output, exitCode, message: output.error?.message ?? '' };
}

/**
 * Runs `work` with `directory` as the working directory and without DATABASE_URL, so commands use
 * the embedded PGlite of that directory (`.cronform/db`); both are restored afterwards.
 */
export async function inWorkingDirectory<T>(directory: string, work: () => Promise<T>): Promise<T> {
  const cwd = process.cwd();
  const databaseUrl = process.env.DATABASE_URL;
  delete process.env.DATABASE_URL;
  process.chdir(directory);
  try {
    return await work();
  } finally {
    process.chdir(cwd);
    if (databaseUrl !== undefined) process.env.DATABASE_URL = databaseUrl;
  }
}

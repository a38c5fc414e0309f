/**
 * The command table bin/run.js gives oclif: only the command being run, when argv names one.
 * oclif imports its explicit table whole before running anything, and index.ts imports every
 * command module with the database, runner and plan code behind them (~200 ms of start-up that
 * `validate` or `plan` alone never use; validate runs on every push and plan on every pull
 * request, both with latency targets). Anything else (help, a topic alone such as `github`,
 * a mistyped name) gets the full table, so oclif's help and suggestions are unchanged.
 * Commands are registered in table.ts only.
 */
import { commandIdFromArgv, commandLoaders } from './table.js';

async function selectTable(argv: readonly string[]): Promise<Record<string, unknown>> {
  const id = commandIdFromArgv(argv);
  if (id === undefined) return (await import('./index.js')).commands;
  return { [id]: (await commandLoaders[id]()).default };
}

export const commands: Record<string, unknown> = await selectTable(process.argv.slice(2));

#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { listenForShutdownSignal } from '../dist/shared/shutdown-signal.js';

// The long-running commands stop gracefully on SIGTERM/SIGINT: listen before loading oclif and the
// command, which can take seconds on a loaded machine (src/shared/shutdown-signal.ts).
if (['runner', 'dev'].includes(process.argv[2])) listenForShutdownSignal();
const { execute } = await import('@oclif/core');
const { ExitCodes } = await import('../dist/shared/exit-codes.js');

// oclif imports its explicit command table whole before any command runs; this table
// (dist/commands/selected-table.js) holds only the command named in argv, so start-up skips the
// other commands' imports. Help, topics and unknown names get the full table (src/commands/index.ts).
const root = fileURLToPath(new URL('..', import.meta.url));
const pjson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
pjson.oclif.commands = { ...pjson.oclif.commands, target: './dist/commands/selected-table.js' };
// An error that names no exit code gets oclif's default, 2, which `plan --detailed-exitcode`
// reserves for "changes present". Inside a command CronformCommand.catch gives every error its
// code; this covers what fails before any command runs, such as an unknown command name.
pjson.oclif.exitCodes = { default: ExitCodes.ERROR };
await execute({ loadOptions: { root, pjson } });

#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { execute } from '@oclif/core';

// oclif imports its explicit command table whole before any command runs; this table
// (dist/commands/selected-table.js) holds only the command named in argv, so start-up skips the
// other commands' imports. Help, topics and unknown names get the full table (src/commands/index.ts).
const root = fileURLToPath(new URL('..', import.meta.url));
const pjson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
pjson.oclif.commands = { ...pjson.oclif.commands, target: './dist/commands/selected-table.js' };
await execute({ loadOptions: { root, pjson } });

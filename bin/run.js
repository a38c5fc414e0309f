#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { execute } from '@oclif/core';

// oclif's explicit command table is imported whole before any command runs. For `validate` the
// table holds only validate (dist/commands/validate-table.js), so start-up skips the other
// commands' imports; help, flags and errors go through oclif exactly as with the full table.
if (process.argv[2] === 'validate') {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const pjson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  pjson.oclif.commands = { ...pjson.oclif.commands, target: './dist/commands/validate-table.js' };
  await execute({ loadOptions: { root, pjson } });
} else {
  await execute({ dir: import.meta.url });
}

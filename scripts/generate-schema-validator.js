#!/usr/bin/env node
/**
 * Writes src/manifest/schema-validator.generated.ts: ajv's standalone code for
 * schema/cronform.schema.json, so `cronform validate` loads a compiled validator instead of loading
 * ajv and compiling the schema at every start-up (~100 ms). `npm run build` runs it; with `--stdout`
 * it prints the module instead (the drift test compares that with the committed file).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import standaloneCode from 'ajv/dist/standalone/index.js';

const schemaUrl = new URL('../schema/cronform.schema.json', import.meta.url);
const outputUrl = new URL('../src/manifest/schema-validator.generated.ts', import.meta.url);

const BANNER = `// Generated from schema/cronform.schema.json by \`npm run gen:validator\`: edit the schema, never this file.
// @ts-nocheck: this is ajv's JavaScript; validate-schema.ts gives it its type.
`;

// `discriminator` makes ajv pick the kind/type branch itself, so a Schedule with a typo gets the
// Schedule's errors only, never the union of what every branch of a oneOf disliked. `verbose` puts
// the failing schema and data on each error: the messages read allowed fields and values from them.
// `lines` keeps the module diffable when the schema changes.
// The formats the schema uses; src/manifest/schema-formats.ts provides each to the generated code.
const FORMATS = ['date', 'uri'];
const ajv = new Ajv2020({
  allErrors: true,
  strict: true,
  discriminator: true,
  verbose: true,
  code: { source: true, esm: true, lines: true },
});
formatsPlugin.default(ajv, FORMATS);
const code = standaloneCode.default(ajv, ajv.compile(JSON.parse(readFileSync(schemaUrl, 'utf8'))));

// Even in ESM mode ajv refers to its runtime helpers and ajv-formats' formats with `require(…)`
// (ajv-formats issue #68); a module-scoped `require` makes those calls work unchanged. The formats
// are schema-formats.ts's instead: ajv-formats' own, loaded on first need, the usual URL checked
// without compiling ajv-formats' URI expression (~10 ms of validate's start-up).
const formatsCode = code.replace(/require\("ajv-formats\/dist\/formats"\)\.fullFormats\.([\w-]+)/g, (_, name) => {
  if (!FORMATS.includes(name)) throw new Error(`the schema uses format ${name}: add it to src/manifest/schema-formats.ts`);
  return `schemaFormats.${name}`;
});
if (formatsCode.includes('ajv-formats')) throw new Error('the generated code refers to ajv-formats in a way this script does not rewrite');
const moduleText = `${BANNER}import { createRequire } from 'node:module';\nimport * as schemaFormats from './schema-formats.js';\n\nconst require = createRequire(import.meta.url);\n${formatsCode.replace(/^"use strict";\n?/, '').trimEnd()}\n`;

if (process.argv.includes('--stdout')) process.stdout.write(moduleText);
else writeFileSync(outputUrl, moduleText);

#!/usr/bin/env node
/**
 * Renders `cronform --help` with oclif and the full command table into dist/cli-help.txt, which
 * bin/run.js prints without loading oclif. Run by `npm run build` after tsc; the user agent line
 * (platform and node version vary) is left as {{userAgent}} for bin/run.js to fill in.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Config, Help } from '@oclif/core';

const root = fileURLToPath(new URL('..', import.meta.url));
const pjson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const config = await Config.load({ root, pjson });

let text = '';
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk) => {
  text += String(chunk);
  return true;
};
try {
  // oclif wraps to the terminal's width, and to 80 columns in a pipe: what is stored.
  await new Help(config, { maxWidth: 80 }).showHelp([]);
} finally {
  process.stdout.write = write;
}
if (!text.includes(config.userAgent)) throw new Error(`root help does not show the user agent ${config.userAgent}`);
writeFileSync(new URL('../dist/cli-help.txt', import.meta.url), text.replaceAll(config.userAgent, '{{userAgent}}'));

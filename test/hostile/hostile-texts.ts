/**
 * Manifest text nobody should write: random code points (lone surrogates and NUL included), random
 * bytes decoded as UTF-8 or Latin-1, YAML-token soup, and a fixed list of pathological inputs
 * (deep nesting, alias and merge-key bombs, tags, very long lines, many documents). Everything
 * stays under the 1 MiB file limit that `load` enforces before parsing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The valid example manifests shipped in `schedules/`, by file name. */
export const exampleSources: ReadonlyArray<{ file: string; text: string }> = readdirSync(path.join(repoRoot, 'schedules'))
  .filter((name) => name.endsWith('.yaml'))
  .sort()
  .map((name) => ({ file: `schedules/${name}`, text: readFileSync(path.join(repoRoot, 'schedules', name), 'utf8') }));

export const exampleSchedules = exampleSources.filter((source) => /\nkind: Schedule\n/.test(source.text));

const NESTING = 10_000;

const aliasBomb = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]', ...'bcdefghi'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`)].join('\n');

const mergeBomb = ['base: &m0 { a: 1, b: 2 }', ...Array.from({ length: 30 }, (_, i) => `m${i + 1}: &m${i + 1} { <<: [*m${i}, *m${i}, *m${i}], k${i}: ${i} }`), 'apiVersion: cronform/v1'].join('\n');

const scheduleHead = 'apiVersion: cronform/v1\nkind: Schedule\nmetadata:\n  name: hostile\nspec:\n  cron: "0 0 * * *"\n  timezone: UTC\n  job: { type: command, command: ["true"] }\n';

/** Inputs that have broken parsers before; each is a single manifest file's text. */
export const pathologicalTexts: ReadonlyArray<{ name: string; text: string }> = [
  { name: 'empty', text: '' },
  { name: 'only a BOM', text: '\uFEFF' },
  { name: 'BOM then a manifest', text: `\uFEFF${scheduleHead}` },
  { name: 'NUL bytes', text: `${scheduleHead.slice(0, 40)}\0\0\0${scheduleHead.slice(40)}` },
  { name: 'CRLF line ends', text: scheduleHead.replace(/\n/g, '\r\n') },
  { name: 'lone CR line ends', text: scheduleHead.replace(/\n/g, '\r') },
  { name: 'tabs as indentation', text: scheduleHead.replace(/\n {2}/g, '\n\t') },
  { name: `${NESTING} nested flow sequences`, text: `${'['.repeat(NESTING)}${']'.repeat(NESTING)}` },
  { name: `${NESTING} unclosed flow sequences`, text: '['.repeat(NESTING) },
  { name: `${NESTING} nested flow mappings`, text: `${'{a: '.repeat(NESTING)}1${'}'.repeat(NESTING)}` },
  { name: `${NESTING} nested flow mappings in the payload`, text: `${scheduleHead}  payload: ${'{a: '.repeat(NESTING)}1${'}'.repeat(NESTING)}\n` },
  { name: `${NESTING} nested flow sequences in the payload`, text: `${scheduleHead}  payload: { a: ${'['.repeat(NESTING)}1${']'.repeat(NESTING)} }\n` },
  { name: 'block mappings nested 1,400 deep in the payload', text: `${scheduleHead}  payload:\n${Array.from({ length: 1_400 }, (_, i) => `${' '.repeat(4 + i)}a:`).join('\n')} 1\n` },
  { name: 'block sequences nested 2,000 deep', text: Array.from({ length: 2_000 }, (_, i) => `${' '.repeat(i * 2)}-`).join('\n') + ' x\n' },
  { name: 'a billion laughs', text: aliasBomb },
  { name: 'a merge-key bomb', text: mergeBomb },
  { name: 'an alias to an undefined anchor', text: `${scheduleHead}  payload: *nowhere\n` },
  { name: 'a self-referencing anchor', text: `${scheduleHead}  payload: &p { self: *p }\n` },
  { name: 'a !!js/function tag', text: `${scheduleHead}  payload: !!js/function "function () { return process.exit(1) }"\n` },
  { name: 'a !!binary tag', text: `${scheduleHead}  payload: { blob: !!binary "AAECAwQF" }\n` },
  { name: 'unknown local tags', text: `${scheduleHead}  payload: !<tag:evil.example,2024:x> { a: !shell "rm -rf /" }\n` },
  { name: 'a %YAML 1.1 directive', text: `%YAML 1.1\n---\n${scheduleHead}  enabled: yes\n` },
  { name: 'a merge key in spec', text: `defaults: &d { timeout: 1m }\n---\n${scheduleHead}  <<: *d\n` },
  { name: 'a 900 KB line', text: `${scheduleHead}  payload: { a: "${'x'.repeat(900_000)}" }\n` },
  { name: 'a 900 KB plain key', text: `${'k'.repeat(900_000)}: 1\n` },
  { name: '10,001 documents', text: 'a: 1\n---\n'.repeat(10_001) },
  { name: '10,001 empty documents', text: '---\n'.repeat(10_001) },
  { name: '20,000 keys', text: Array.from({ length: 20_000 }, (_, i) => `k${i}: ${i}`).join('\n') },
  { name: 'a complex key', text: `? [a, b]\n: 1\n${scheduleHead}` },
  { name: 'a __proto__ key', text: `${scheduleHead}  payload: { __proto__: { polluted: true } }\n` },
  { name: 'constructor and prototype keys', text: `${scheduleHead}  payload:\n    constructor: { prototype: { polluted: true } }\n` },
  { name: 'line and paragraph separators', text: scheduleHead.replace(/\n/g, '\u2028\n').replace('hostile', 'hos\u2029tile') },
  { name: 'lone surrogates', text: `${scheduleHead}  payload: { a: "\uD800", "\uDC00": 1 }\n` },
  { name: 'escaped NUL and lone surrogate', text: `${scheduleHead}  payload: { a: "x\\0y", b: "\\uD800" }\n` },
  { name: 'a document end marker mid-mapping', text: `${scheduleHead.slice(0, 60)}\n...\n${scheduleHead.slice(60)}` },
  { name: 'huge numbers', text: `${scheduleHead}  maxCatchUp: ${'9'.repeat(400)}\n  retry: { maxAttempts: 1e308 }\n  timeout: ${'9'.repeat(400)}d\n` },
];

/** Pieces of YAML syntax, combined at random into "almost YAML". */
const YAML_TOKENS = [
  '\n', '\r\n', '\r', '\t', ' ', '  ', '    ', ': ', ':', '- ', '-', '? ', ',', '[', ']', '{', '}', '"', "'", '\\', '#', '|', '>', '|-', '>+',
  '&a ', '*a', '&b ', '*b', '<<: ', '!!js/function ', '!!binary ', '!!str ', '!!map ', '!!seq ', '!!int ', '!!float ', '!custom ', '!<tag:x> ',
  '%YAML 1.2\n', '%TAG ! tag:x:\n', '---\n', '...\n', '\uFEFF', '\0', '\u2028', '\u00A0', '\uD800', '\uDFFF', '\uFFFE', '\u200B', '😀',
  'apiVersion: cronform/v1\n', 'kind: Schedule\n', 'kind: Policy\n', 'metadata:\n', '  name: x\n', 'spec:\n', '  cron: "0 0 * * *"\n',
  '  timezone: UTC\n', '  job: { type: command, command: [a] }\n', '__proto__', 'constructor', 'null', '~', 'true', '0x1F', '1e309', '.nan',
  '-.inf', '0o17', '"\\x00"', '"\\uD800"', '"\\U0010FFFF"', "'it''s'", 'key', 'value', '0', '-1', '9'.repeat(40),
];

const tokenSoup = fc.array(fc.constantFrom(...YAML_TOKENS), { maxLength: 80 }).map((tokens) => tokens.join(''));

/** A valid example with random tokens spliced in at random places. */
const splicedExample = fc
  .tuple(fc.constantFrom(...exampleSources), fc.array(fc.tuple(fc.nat(), fc.constantFrom(...YAML_TOKENS), fc.nat({ max: 8 })), { minLength: 1, maxLength: 6 }))
  .map(([source, edits]) => {
    let text = source.text;
    for (const [position, token, deleteCount] of edits) {
      const at = position % (text.length + 1);
      text = text.slice(0, at) + token + text.slice(at + deleteCount);
    }
    return text;
  });

const bytesAs = (encoding: BufferEncoding) => fc.uint8Array({ maxLength: 400 }).map((bytes) => Buffer.from(bytes).toString(encoding));

/** Arbitrary manifest text for property 1. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ unit: 'binary', maxLength: 300 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 300 }), weight: 1 },
  { arbitrary: bytesAs('utf8'), weight: 1 },
  { arbitrary: bytesAs('latin1'), weight: 1 },
  { arbitrary: tokenSoup, weight: 4 },
  { arbitrary: splicedExample, weight: 4 },
  { arbitrary: fc.constantFrom(...pathologicalTexts.map((p) => p.text)), weight: 1 },
);

/**
 * Differential check of the manifest parser's fast path against yaml: for every input the fast path
 * accepts, values (types, key order, -0), document indexes and every position `locate` and
 * `locateInScalar` can give must equal what the yaml path gives. Inputs: the benchmark corpus, the
 * repository's manifests and fixtures, and seeded mutations of them aimed at YAML's corner cases.
 *
 *   npm run build && node bench/validate/check-parse-equivalence.js [--mutations N]
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRandom } from '../shared/seeded-random.js';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { generateManifests } from './generate.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { parseManifestWithYaml, parseSimpleManifest } = await import(path.join(repoRoot, 'dist/manifest/parse.js'));

const mutationsArg = process.argv.indexOf('--mutations');
const MUTATIONS_PER_FILE = mutationsArg === -1 ? 30 : Number(process.argv[mutationsArg + 1]);

function listYaml(directory) {
  return readdirSync(directory).flatMap((name) => {
    const full = path.join(directory, name);
    if (statSync(full).isDirectory()) return listYaml(full);
    return /\.ya?ml$/.test(name) ? [full] : [];
  });
}

// Values that sit on the edges of plain-scalar resolution, quoting, comments and flow syntax.
const VALUES = [
  '~', 'null', 'Null', 'NULL', 'nUll', 'true', 'True', 'TRUE', 'tRue', 'false', 'yes', 'no', 'on', 'y', 'n',
  '0', '-0', '+3', '007', '0o17', '0x1F', '1.5', '.5', '1.', '1e3', '-1E-2', '.inf', '-.Inf', '.nan', '12345678901234567890',
  '"a\'b"', "'a\\b'", "'it''s'", '"x" #c', '"x"#c', '"a\\tb"', '"unterminated', "'x' y", '""', "''",
  'a#b', 'a #b', 'a:b', 'a: b', 'a:', 'http://x.example/y?z=1', '[a, b]', '[a,b]', '[ a , b ]', '{a: b}', '{a:b}', '{ a: b, c: [d, {e: f}] }',
  '[]', '{}', '[ ]', '{ }', '[a, ]', '[a,, b]', '{a: b, a: c}', '[a: b]', '[-1, +2, 0x3]', '{ "q": 1 }', '[a #b]', '[a', '{a: b',
  '-1', '- x', '-x', '--', '---', '...', '?x', ':x', '@x', '`x`', '&a x', '*a', '!!str 1', '|', '>', '%x', ',x', '#', ' ',
  'caf\u00e9', '\u00a0x', 'x\u00a0', '\u2028', '\ud83d\ude00', 'a\tb', '{{businessDate}}', 'node {{x}}', '$HOME', '<x>', '(x)', '=x',
  '2026-12-15', '12:30', '1:2:3', 'a b  c  ', 'a  # comment', 'x" y', "x' y", 'toString', '__proto__', '{__proto__: 1}', '{constructor: 1}',
];
// Hand-picked documents around the edges of what the fast path reads.
const CASES = [
  'a:\n- x\n- y\nb: 1\n', 'a:\n  - k: v\n    j: w\n  - x\n', 'a:\n  - k:\n    - v\n  - j\n', 'a:\n  - k:\n      - v\n', 'a:\n  -   k: v\n      j: w\n',
  'a: b # c\n', 'a: "b" # c\n', 'a: [b, c] # c\n', 'a: {b: c}\n', 'a: -1\n', 'a: - 1\n', 'a: b:c\n', 'a: http://x\n', "a: 'b\\c'\n", 'a: "it\'s"\n',
  '# c\n---\na: 1\n---\nb: 2\n', 'a: 1\n---\n# only comment\n', 'a: 1\n# c\n---\nb: 1\n', 'a:\n  b: 1\n # c\n  d: 2\n', 'a: x\n  # c\nb: 1\n',
  'a: 1 #c\n', 'a: 1#c\n', 'a: [1, 2]\n', 'a: [ ]\n', 'a: {}\n', 'a: caf\u00e9\n', 'a: \u65e5\u672c\n', 'a: "\ud83d\ude00"\n', 'a: ~\n', 'a: nUll\n',
  'a: 0x1F\n', 'a: 1_000\n', 'a: +1\n', 'a: -0\n', 'a: 007\n', 'a: 12345678901234567890\n', '1: a\n', 'a.b: 1\na/b: 2\na-b: 3\n_: 4\n', 'a:  b\n', 'a:b\n',
  'a: b  \n', 'a: [b, [c, d], {e: f}]\n', 'a: {b: [c]}\n', 'a: "x", b\n', 'a: x y z\n', "a: '#x'\n", 'a: "#x"\n', 'a: x #\n', ' a: 1\n',
  'a:\n    b: 1\n    c:\n      - 1\n    d: 2\n', 'a: b\n\n\nc: d\n', 'a: -x\n', 'a: --x\n', 'a: -.5\n', 'a: -\n', 'a: .\n', 'a: ~x\n', 'a: /path\n', 'a: +x\n',
  'toString: 1\nvalueOf: 2\nhasOwnProperty: 3\n', 'a: {b: 1, b: 2}\n', 'a:\n- b\nc:\n- d\n', '- a\n', 'a: b\n- c\n', 'a:\n  -   x\n', 'a:\n  - x\n   - y\n',
  '---\na: 1\n', 'a: 1', 'a: "x"y\n', "a: 'x' \n", 'a: [a b, c]\n', 'a: [a , b ]\n', 'a: { b: c }\n', 'a: {b: }\n', 'a: [b, {c: d, e: [f]}]\n', 'a: x\n  y\n',
  'a: |\n  x\n', 'a:\n  b:\n  c: 1\n', 'a: {b: c}  # x\nd: [e]#x\n', 'a: [b]x\n', 'a: 2026-12-15\n', 'a: 12:30\n', 'a: 1:2\n', 'a: x\u00a0\n', 'a: x\ty\n',
  'a: b\r\n', '\ufeffa: b\n', 'a: b\n...\n', 'a: b\n--- \nc: d\n', 'a: b\n---\n', 'a:\n  b: 1\nc:\n  - d: 1\n    e:\n      f: [1]\n  - 2\n',
  'spec:\n  cron: 30 19 * * *\n', 'spec:\n  cron: "30 19 * * *"\n', "spec:\n  cron: '30 19 * * *'\n", 'spec: { cron: 0 * * * * }\n', 'spec: { cron: "0 * * * *" }\n',
  'a: [x, -y, +z, .w, /v, ~u]\n', 'a: {x: -1, y: +1, z: 0}\n', 'a: [true, False, null, ~, 1, -2]\n', 'a: [1.5]\n', 'a: {b.c: 1, d/e: 2}\n', 'a: {1: x}\n',
];
const KEYS = ['a', 'toString', 'valueOf', '__proto__', 'constructor', 'prototype', '1', '0x1', 'null', 'true', '1.5', 'a.b/c-d', '-a', '.a', 'a b', '"q"', "'q'", '<<', 'x'.repeat(1030), '_', 'A_1'];

function mutate(text, random) {
  const lines = text.split('\n');
  const pick = (items) => items[Math.floor(random() * items.length)];
  const index = Math.floor(random() * lines.length);
  const line = lines[index] ?? '';
  const indent = line.length - line.trimStart().length;
  const colon = line.indexOf(': ');
  switch (Math.floor(random() * 14)) {
    case 0: lines.splice(index, 0, `${' '.repeat(pick([0, 1, 2, 4, indent, indent + 2]))}# note`); break;
    case 1: lines[index] = `${line}${pick([' ', '  ', ' # trailing', '#x', '\t'])}`; break;
    case 2: lines[index] = `${' '.repeat(Math.max(0, indent + pick([-2, -1, 1, 2])))}${line.trimStart()}`; break;
    case 3: if (colon !== -1) lines[index] = `${line.slice(0, colon + 2)}${pick(VALUES)}`; break;
    case 4: lines.splice(index, 0, line); break;
    case 5: lines.splice(index, 1); break;
    case 6: lines.splice(index, 0, pick(['---', '--- ', '...', '', '   ', '%YAML 1.2', '--- # c', '---x'])); break;
    case 7: if (colon !== -1) lines[index] = `${' '.repeat(indent)}${pick(KEYS)}${line.slice(colon)}`; break;
    case 8: if (colon !== -1) lines.splice(index + 1, 0, `${' '.repeat(indent)}${pick(KEYS)}: ${pick(VALUES)}`); break;
    case 9: if (colon !== -1) lines.splice(index, 1, `${line.slice(0, colon + 1)}`, ...pick([[`${' '.repeat(indent + 2)}- ${pick(VALUES)}`, `${' '.repeat(indent + 2)}- ${pick(VALUES)}`], [`${' '.repeat(indent)}- ${pick(VALUES)}`], [`${' '.repeat(indent + 2)}- k: ${pick(VALUES)}`, `${' '.repeat(indent + 4)}j: ${pick(VALUES)}`], [`${' '.repeat(indent + 2)}-   k: v`, `${' '.repeat(indent + 6)}j: w`], [`${' '.repeat(indent + 2)}- k:`, `${' '.repeat(indent + 4)}- v`], [`${' '.repeat(indent)}- k:`, `${' '.repeat(indent + 2)}- v`], [`${' '.repeat(indent + 2)}-`, `${' '.repeat(indent + 4)}v`], [`${' '.repeat(indent + 2)}x: 1`, `${' '.repeat(indent + 3)}y: 2`], [`${' '.repeat(indent + 2)}# only a comment`]])); break;
    case 10: lines[index] = line.replace(/ /g, pick(['  ', '\t'])); break;
    case 11: lines[index] = `${line.slice(0, Math.floor(random() * line.length))}`; break;
    case 12: return pick(['\ufeff', '\r\n', '']) + (random() < 0.5 ? lines.join('\r\n') : lines.join('\n'));
    default: lines.push(pick(['', '---', '---\n', '# end', '  # end', 'extra: 1', '- x']));
  }
  return lines.join('\n');
}

/** Every path to a node of `value`, in document order. */
function collectPaths(value, prefix = [], paths = [prefix]) {
  if (Array.isArray(value)) value.forEach((item, i) => { paths.push([...prefix, i]); collectPaths(item, [...prefix, i], paths); });
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) { paths.push([...prefix, key]); collectPaths(item, [...prefix, key], paths); }
  return paths;
}

function sameShape(a, b) {
  if (!isDeepStrictEqual(a, b)) return false;
  if (a === null || typeof a !== 'object') return true;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return keysA.join('\u0000') === keysB.join('\u0000') && keysA.every((key) => sameShape(a[key], b[key]));
}

function compare(source) {
  const fast = parseSimpleManifest(source);
  if (fast === undefined) return { fast: false };
  const slow = parseManifestWithYaml(source);
  const problems = [];
  if (!isDeepStrictEqual(fast.diagnostics, slow.diagnostics)) problems.push(`diagnostics ${JSON.stringify(slow.diagnostics)}`);
  if (fast.documents.length !== slow.documents.length) problems.push(`documents ${fast.documents.length} vs ${slow.documents.length}`);
  fast.documents.forEach((doc, n) => {
    const reference = slow.documents[n];
    if (!reference) return;
    if (doc.index !== reference.index || doc.file !== reference.file) problems.push(`index ${doc.index} vs ${reference.index}`);
    if (!sameShape(doc.value, reference.value)) problems.push(`value ${JSON.stringify(doc.value)} vs ${JSON.stringify(reference.value)}`);
    for (const p of collectPaths(reference.value)) {
      const last = p[p.length - 1];
      const variants = [p, [...p, 'missing'], [...p, 0], [...p, 99], [...p, '0']];
      if (typeof last === 'number') variants.push([...p.slice(0, -1), String(last)]);
      if (typeof last === 'string' && /^\d+$/.test(last)) variants.push([...p.slice(0, -1), Number(last)]);
      for (const v of variants) {
        for (const target of ['key', 'value']) {
          const a = doc.locate(v, target);
          const b = reference.locate(v, target);
          if (!isDeepStrictEqual(a, b)) problems.push(`locate ${JSON.stringify(v)} ${target}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
        }
        for (const offset of [-1, 0, 1, 3, 10, 100]) {
          const a = doc.locateInScalar(v, offset);
          const b = reference.locateInScalar(v, offset);
          if (!isDeepStrictEqual(a, b)) problems.push(`locateInScalar ${JSON.stringify(v)} ${offset}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
        }
      }
    }
  });
  return { fast: true, problems };
}

const corpus = mkdtempSync(path.join(os.tmpdir(), 'cronform-equivalence-'));
try {
  generateManifests(corpus, { scheduleCount: 2000, seed: 7 });
  const files = [...listYaml(corpus), ...listYaml(path.join(repoRoot, 'schedules')), ...listYaml(path.join(repoRoot, 'test'))];
  const random = createRandom(20261129).next;
  let inputs = 0;
  let accepted = 0;
  let failures = 0;
  const check = (file, text) => {
    inputs += 1;
    const result = compare({ file, text });
    if (!result.fast) return;
    accepted += 1;
    if (result.problems.length > 0) {
      failures += 1;
      if (failures <= 10) console.log(`MISMATCH ${file}\n${JSON.stringify(text)}\n  ${result.problems.slice(0, 5).join('\n  ')}`);
    }
  };
  CASES.forEach((text, i) => check(`case ${i}`, text));
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    check(file, text);
    for (let i = 0; i < MUTATIONS_PER_FILE; i += 1) {
      let mutated = text;
      for (let n = 1 + Math.floor(random() * 3); n > 0; n -= 1) mutated = mutate(mutated, random);
      check(`${file}#${i}`, mutated);
    }
  }
  console.log(`${inputs} inputs, ${accepted} read by the fast path, ${inputs - accepted} left to yaml, ${failures} mismatches`);
  process.exitCode = failures > 0 ? 1 : 0;
} finally {
  rmSync(corpus, { recursive: true, force: true });
}

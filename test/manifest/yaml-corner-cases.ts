/**
 * Inputs on the edges of what the manifest parser's fast path reads: plain-scalar resolution under
 * the YAML 1.2 core schema (where 1.1 differed), quoting and escapes, comments, flow and block
 * collections, anchors, document markers, line ends, BOM, tabs, unicode, duplicate and forbidden
 * keys; and line-level mutations of real manifests aimed at the same edges.
 */

// Values that sit on the edges of plain-scalar resolution, quoting, comments and flow syntax.
export const CORNER_VALUES = [
  '~', 'null', 'Null', 'NULL', 'nUll', 'true', 'True', 'TRUE', 'tRue', 'false', 'yes', 'no', 'on', 'y', 'n',
  '0', '-0', '+3', '007', '0o17', '0x1F', '1.5', '.5', '1.', '1e3', '-1E-2', '.inf', '-.Inf', '.nan', '12345678901234567890',
  '"a\'b"', "'a\\b'", "'it''s'", '"x" #c', '"x"#c', '"a\\tb"', '"unterminated', "'x' y", '""', "''",
  'a#b', 'a #b', 'a:b', 'a: b', 'a:', 'http://x.example/y?z=1', '[a, b]', '[a,b]', '[ a , b ]', '{a: b}', '{a:b}', '{ a: b, c: [d, {e: f}] }',
  '[]', '{}', '[ ]', '{ }', '[a, ]', '[a,, b]', '{a: b, a: c}', '[a: b]', '[-1, +2, 0x3]', '{ "q": 1 }', '[a #b]', '[a', '{a: b',
  '-1', '- x', '-x', '--', '---', '...', '?x', ':x', '@x', '`x`', '&a x', '*a', '!!str 1', '|', '>', '%x', ',x', '#', ' ',
  'caf\u00e9', '\u00a0x', 'x\u00a0', '\u2028', '\ud83d\ude00', 'a\tb', '{{businessDate}}', 'node {{x}}', '$HOME', '<x>', '(x)', '=x',
  '2026-12-15', '12:30', '1:2:3', 'a b  c  ', 'a  # comment', 'x" y', "x' y", 'toString', '__proto__', '{__proto__: 1}', '{constructor: 1}',
];

// Keys the fast path must refuse or read as yaml does: object prototype names, non-string scalars, long.
export const CORNER_KEYS = ['a', 'toString', 'valueOf', '__proto__', 'constructor', 'prototype', '1', '0x1', 'null', 'true', '1.5', 'a.b/c-d', '-a', '.a', 'a b', '"q"', "'q'", '<<', 'x'.repeat(1030), '_', 'A_1'];

// Hand-picked documents around the edges of what the fast path reads.
const SCRIPT_CASES = [
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

// What the script did not cover by name: YAML 1.1 readings the 1.2 core schema drops, escapes, anchors,
// block scalars, markers, line ends, tabs and unicode in keys and values.
const MORE_CASES = [
  'a: yes\nb: No\nc: ON\nd: off\ne: Y\n', 'a: 0o17\nb: 0O17\nc: 0b101\nd: 0777\ne: 00\nf: +0\ng: 0x_1\n', 'a: 1_000\nb: 1,000\nc: 1__0\n',
  'a: .inf\nb: -.inf\nc: +.INF\nd: .NaN\ne: .nan\nf: inf\ng: nan\n', 'a: 1e3\nb: 1.0\nc: +.5\nd: 6.8523015e+5\ne: 1E+2\nf: 1e\n',
  'a: 2001-12-14t21:59:43.10-05:00\nb: 2002-12-14\nc: 2001-12-14 21:59:43.10 -5\n', 'a: 9007199254740993\nb: -9007199254740993\nc: 1e400\n',
  'a: "\\u00e9"\nb: "\\x41"\nc: "\\n"\nd: "\\\\"\ne: "\\""\n', "a: 'it''s'\nb: 'a\\nb'\n", 'a: "a\\\n  b"\n', 'a: "x\n  y"\n', "a: 'x\n  y'\n",
  'a: &x 1\nb: *x\n', 'a: &x {b: 1}\nc: *x\n', 'a: &x\n  b: 1\nc:\n  <<: *x\n  d: 2\n', 'a: *x\n', '&x a: 1\n', 'a: !!str 1\nb: !!int "2"\n', 'a: !custom x\n',
  'a: |\n  x\n  y\n', 'a: |-\n  x\n', 'a: >\n  x\n  y\n', 'a: >-\n  x\n\n  y\n', 'a: |2\n   x\n', 'a: |\n', 'a: >+\n  x\n\n',
  '---\na: 1\n...\n---\nb: 2\n', 'a: 1\n...\n', '...\n', '--- a: 1\n', '---\n---\na: 1\n', 'a: 1\n--- \nb: 2\n', 'a: 1\n---\t\nb: 2\n', '--- |\n  x\n',
  'a: 1\r\nb: 2\r\n', 'a: 1\rb: 2\r', 'a: "x\r\n  y"\r\n', '\ufeffa: 1\n', 'a: 1\n\ufeffb: 2\n', '\ufeff\ufeffa: 1\n', '\ufeff---\na: 1\n',
  '\ta: 1\n', 'a:\t1\n', 'a: 1\t\n', 'a:\n\t- x\n', 'a:\n  -\tx\n', 'a: [1,\t2]\n', 'a: "\t"\n', 'a: 1\t# c\n', '#\tc\na: 1\n',
  '\u00e9: 1\n', 'a: \u00e9\n', 'a: "\u00e9"\n', 'a: \u65e5\u672c\u8a9e\n', 'a: \ud83d\ude00 x\n', 'a: \u2028\n', 'a: x\u0085y\n', 'a: \u00a0\n', 'a: x\u200by\n', 'a: \ufffd\n', 'a: "\ud800"\n',
  'a: 1\na: 2\n', 'a: 1\nb:\n  c: 1\n  c: 2\n', 'a:\n  - b: 1\n    b: 2\n', 'a: {b: 1, b: 2}\n', 'a: 1\n"a": 2\n', '1: a\n"1": b\n', 'a: 1\nA: 2\n',
  '__proto__: 1\n', 'constructor: 1\n', 'prototype: 1\n', 'a:\n  __proto__:\n    polluted: 1\n', 'a: {constructor: 1}\n', 'a:\n  - prototype: 1\n', '"__proto__": 1\n',
  'a: [b, c]\nd: {e: [f, {g: h}]}\n', 'a: [\n  b,\n  c\n]\n', 'a: {b: c,\n  d: e}\n', 'a: [b, c, ]\n', 'a: {b: c, }\n', 'a: [b: c]\n', 'a: {b}\n', 'a: {"b": c}\n', "a: ['b', \"c\"]\n",
  'a: b # c # d\n', 'a: b #c\n  # d\nc: 1\n', '# a\n# b\na: 1 # c\n# d\n', 'a:\n  # c\n  b: 1\n', 'a:\n# c\n  b: 1\n', 'a:\n   # c\n  b: 1\n', 'a: 1\n  # c\n',
  '? a\n: 1\n', 'a: 1\n? b\n', 'a: - b\n', '- a: 1\n', '[a, b]\n', '{a: 1}\n', 'a\n', '"a": 1\n', "'a': 1\n", 'a b: 1\n', 'a : 1\n', 'a:1\n',
  '%YAML 1.1\n---\na: yes\nb: 0777\n', '%YAML 1.2\n---\na: 1\n', '%TAG ! tag:x:\n---\na: 1\n',
];

/** Hand-picked documents; each must be read as yaml reads it, or declined. */
export const CORNER_CASES: readonly string[] = [
  ...SCRIPT_CASES,
  ...MORE_CASES,
  ...CORNER_VALUES.map((value) => `a: ${value}\n`),
  ...CORNER_VALUES.map((value) => `a:\n  - ${value}\n  - x\n`),
  ...CORNER_KEYS.map((key) => `${key}: 1\nb: 2\n`),
];

/**
 * One line-level edit of `text`, chosen by `random`: comments, trailing text, indentation, values and
 * keys from the lists above, duplicated or deleted lines, document markers, nested collections,
 * tabs, truncation, BOM and CRLF.
 */
export function mutateManifest(text: string, random: () => number): string {
  const lines = text.split('\n');
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const index = Math.floor(random() * lines.length);
  const line = lines[index] ?? '';
  const indent = line.length - line.trimStart().length;
  const colon = line.indexOf(': ');
  switch (Math.floor(random() * 14)) {
    case 0: lines.splice(index, 0, `${' '.repeat(pick([0, 1, 2, 4, indent, indent + 2]))}# note`); break;
    case 1: lines[index] = `${line}${pick([' ', '  ', ' # trailing', '#x', '\t'])}`; break;
    case 2: lines[index] = `${' '.repeat(Math.max(0, indent + pick([-2, -1, 1, 2])))}${line.trimStart()}`; break;
    case 3: if (colon !== -1) lines[index] = `${line.slice(0, colon + 2)}${pick(CORNER_VALUES)}`; break;
    case 4: lines.splice(index, 0, line); break;
    case 5: lines.splice(index, 1); break;
    case 6: lines.splice(index, 0, pick(['---', '--- ', '...', '', '   ', '%YAML 1.2', '--- # c', '---x'])); break;
    case 7: if (colon !== -1) lines[index] = `${' '.repeat(indent)}${pick(CORNER_KEYS)}${line.slice(colon)}`; break;
    case 8: if (colon !== -1) lines.splice(index + 1, 0, `${' '.repeat(indent)}${pick(CORNER_KEYS)}: ${pick(CORNER_VALUES)}`); break;
    case 9: if (colon !== -1) lines.splice(index, 1, `${line.slice(0, colon + 1)}`, ...pick<string[]>([[`${' '.repeat(indent + 2)}- ${pick(CORNER_VALUES)}`, `${' '.repeat(indent + 2)}- ${pick(CORNER_VALUES)}`], [`${' '.repeat(indent)}- ${pick(CORNER_VALUES)}`], [`${' '.repeat(indent + 2)}- k: ${pick(CORNER_VALUES)}`, `${' '.repeat(indent + 4)}j: ${pick(CORNER_VALUES)}`], [`${' '.repeat(indent + 2)}-   k: v`, `${' '.repeat(indent + 6)}j: w`], [`${' '.repeat(indent + 2)}- k:`, `${' '.repeat(indent + 4)}- v`], [`${' '.repeat(indent)}- k:`, `${' '.repeat(indent + 2)}- v`], [`${' '.repeat(indent + 2)}-`, `${' '.repeat(indent + 4)}v`], [`${' '.repeat(indent + 2)}x: 1`, `${' '.repeat(indent + 3)}y: 2`], [`${' '.repeat(indent + 2)}# only a comment`]])); break;
    case 10: lines[index] = line.replace(/ /g, pick(['  ', '\t'])); break;
    case 11: lines[index] = `${line.slice(0, Math.floor(random() * line.length))}`; break;
    case 12: return pick(['\ufeff', '\r\n', '']) + (random() < 0.5 ? lines.join('\r\n') : lines.join('\n'));
    default: lines.push(pick(['', '---', '---\n', '# end', '  # end', 'extra: 1', '- x']));
  }
  return lines.join('\n');
}

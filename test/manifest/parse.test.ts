import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_DOCUMENTS } from '../../src/manifest/limits.js';
import { parseManifestSource, type ParsedDocument } from '../../src/manifest/parse.js';
import { checkRepositoryRules } from '../../src/manifest/repo-rules.js';
import { findLiteralSecrets } from '../../src/manifest/secrets.js';
import { validateDocumentSchema } from '../../src/manifest/validate-schema.js';
import { parseOne, repoRoot } from './check-manifests.js';

const parse = (text: string) => parseManifestSource({ file: 'm.yaml', text });
const summarize = (text: string) => parse(text).diagnostics.map((d) => [d.code, d.line, d.column, d.message]);

describe('parseManifestSource', () => {
  it('returns plain values per document with their index in the stream', () => {
    const { documents, diagnostics } = parse('a: 1\n---\n# only a comment\n---\nb: [x, "y"]\n---\n');
    expect(diagnostics).toEqual([]);
    expect(documents.map((d) => [d.file, d.index, d.value])).toEqual([
      ['m.yaml', 0, { a: 1 }],
      ['m.yaml', 2, { b: ['x', 'y'] }],
    ]);
  });

  it('ignores empty files and empty documents silently', () => {
    for (const text of ['', '\n\n', '# comments only\n', '---\n', '---\n---\n...\n']) {
      expect(parse(text)).toEqual({ documents: [], diagnostics: [] });
    }
  });

  it('reads YAML 1.2 core schema, so yes/on/no and dates stay strings', () => {
    expect(parseOne('a: yes\nb: on\nc: 2025-01-31\nd: 012\ne: 0o17\nf: ~\ng: .inf\n').value).toEqual({
      a: 'yes',
      b: 'on',
      c: '2025-01-31',
      d: 12,
      e: 15,
      f: null,
      g: Number.POSITIVE_INFINITY,
    });
  });

  it.each([
    ['tab indentation', 'spec:\n  cron: x\n\ttimezone: UTC\n', [['CF003', 3, 1, 'tab used for indentation; YAML indentation must use spaces']]],
    ['unclosed quote', 'a: "x\n', [['CF003', 2, 1, 'YAML syntax error: Missing closing "quote']]],
    ['unresolved alias', 'a: &x 1\nb: *x\nc: *nowhere\n', [['CF003', 3, 4, 'YAML error: Unresolved alias (the anchor must be set before the alias): nowhere']]],
    ['collection as key', '? [a, b]\n: c\n', [['CF003', 1, 3, 'mapping keys must be plain scalars, not collections or aliases']]],
    ['duplicate nested key', 'spec:\n  job:\n    type: a\n    type: b\n', [['CF004', 4, 5, 'duplicate key "type"']]],
    ['duplicate key in flow mapping', 'x: {a: 1, a: 2}\n', [['CF004', 1, 11, 'duplicate key "a"']]],
    ['list document', '- a\n- b\n', [['CF007', 1, 1, 'a manifest document must be a mapping (got a list)']]],
    ['scalar document', 'just text\n', [['CF007', 1, 1, 'a manifest document must be a mapping (got a string)']]],
    ['explicit null document', '---\n~\n', [['CF007', 2, 1, 'a manifest document must be a mapping (got null)']]],
    ['constructor key', 'a:\n  - constructor: 1\n', [['CF008', 2, 5, 'key "constructor" is not allowed']]],
    ['prototype key', 'prototype: 1\n', [['CF008', 1, 1, 'key "prototype" is not allowed']]],
  ])('%s', (_name, text, expected) => {
    expect(summarize(text)).toEqual(expected);
    expect(parse(text).documents).toEqual([]);
  });

  it('keeps a document with warnings only, reporting them as warnings', () => {
    const { documents, diagnostics } = parse('a: !custom value\n');
    expect(documents.map((d) => d.value)).toEqual([{ a: 'value' }]);
    expect(diagnostics.map((d) => [d.severity, d.code, d.line, d.column, d.message])).toEqual([
      ['warning', 'CF003', 1, 4, 'YAML warning: Unresolved tag: !custom'],
    ]);
  });

  it('drops only the broken document of a stream', () => {
    const { documents, diagnostics } = parse('a: 1\n---\nb: 1\nb: 2\n---\nc: 1\n');
    expect(documents.map((d) => d.value)).toEqual([{ a: 1 }, { c: 1 }]);
    expect(diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([['CF004', 4, 1]]);
  });

  it('CF006: alias expansion over the limit ("billion laughs")', () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (const [prev, next] of [['a', 'b'], ['b', 'c'], ['c', 'd']]) levels.push(`${next}: &${next} [${Array(9).fill(`*${prev}`).join(', ')}]`);
    expect(summarize(`${levels.join('\n')}\n`)).toEqual([['CF006', 2, 8, 'YAML aliases expand beyond the limit of 50']]);
    // A few ordinary aliases are fine.
    expect(parseOne('base: &base { queue: reports }\none: *base\ntwo: *base\n').value).toEqual({
      base: { queue: 'reports' },
      one: { queue: 'reports' },
      two: { queue: 'reports' },
    });
  });

  it('CF005: more documents than the limit, reported at the first one too many', () => {
    const text = Array.from({ length: MAX_DOCUMENTS + 1 }, (_, i) => `n: ${i}\n`).join('---\n');
    const { documents, diagnostics } = parse(text);
    expect(documents).toEqual([]);
    expect(diagnostics.map((d) => [d.code, d.line, d.column, d.message])).toEqual([
      ['CF005', 2 * MAX_DOCUMENTS, 1, 'more than 10000 documents in one file'],
    ]);
    expect(parse(Array.from({ length: MAX_DOCUMENTS }, () => 'n: 1\n').join('---\n')).documents).toHaveLength(MAX_DOCUMENTS);
  });
});

describe('locate', () => {
  const doc = parseManifestSource({
    file: 'm.yaml',
    text: [
      'first: 1',
      '---',
      'apiVersion: cronform/v1',
      'spec:',
      '  cron: "30 19 * * *"',
      '  job:',
      '    command: ["node", "jobs/x.js"]',
      '    env: { MODE: full }',
      '  retry:',
      '  list:',
      '    - name: a',
      '    - b',
      '  anchored: &anchor { deep: 1 }',
      '  aliased: *anchor',
      '',
    ].join('\n'),
  }).documents[1]!;

  it.each([
    [[], 'value', 3, 1],
    [['apiVersion'], 'key', 3, 1],
    [['apiVersion'], 'value', 3, 13],
    [['spec'], 'key', 4, 1],
    [['spec'], 'value', 5, 3],
    [['spec', 'cron'], 'value', 5, 9],
    [['spec', 'job', 'command'], 'key', 7, 5],
    [['spec', 'job', 'command', 1], 'value', 7, 23],
    [['spec', 'job', 'command', 1], 'key', 7, 23],
    [['spec', 'job', 'env', 'MODE'], 'key', 8, 12],
    [['spec', 'job', 'env', 'MODE'], 'value', 8, 18],
    // `retry:` with nothing after it: the key is the only place to point at.
    [['spec', 'retry'], 'value', 9, 3],
    [['spec', 'list', 0, 'name'], 'value', 11, 13],
    [['spec', 'list', 1], 'value', 12, 7],
    // Missing segments fall back to the nearest existing ancestor's key.
    [['spec', 'timezone'], 'value', 4, 1],
    [['spec', 'job', 'env', 'TOKEN', 'fromEnv'], 'value', 8, 5],
    [['spec', 'list', 7], 'value', 10, 3],
    [['nope'], 'key', 3, 1],
    // Through an alias, positions point into the anchored node.
    [['spec', 'aliased', 'deep'], 'value', 13, 29],
  ] as const)('%j (%s) → %i:%i', (path, target, line, column) => {
    expect(doc.locate(path, target)).toEqual({ line, column });
  });

  it('locateInScalar points at a character inside plain and quoted strings', () => {
    expect(doc.locateInScalar(['spec', 'cron'], 3)).toEqual({ line: 5, column: 13 });
    const plain = parseOne('spec:\n  cron: 30 19 * * *\n');
    expect(plain.locateInScalar(['spec', 'cron'], 3)).toEqual({ line: 2, column: 12 });
    // Escapes break the character-for-character mapping: fall back to the scalar's start.
    const escaped = parseOne('cron: "30\\t19 * * *"\n');
    expect(escaped.locateInScalar(['cron'], 4)).toEqual({ line: 1, column: 7 });
  });
});

describe('robustness', () => {
  // Every prefix of a real manifest (and the same with a tab spliced in) through every pure check.
  const example = readFileSync(path.join(repoRoot, 'schedules/daily-report.yaml'), 'utf8');
  const inputs = [
    '\u0000\u0001\u0002',
    ']]]: [',
    '{{{{',
    '%YAML 9.9\n---\na: 1\n',
    '&a [*a]',
    '!!binary aGk=',
    'a: !!int x\n',
    '? ? ? a\n',
    '- - - - -',
    'a:\n  b:\n    c: &x\n      - *x\n',
    '\uFEFF\uFFFE',
    '"\\uD800"',
    'apiVersion: cronform/v1\nkind: Schedule\nspec: { job: [], payload: [[{ token: [1] }]] }\n',
    ...Array.from({ length: example.length }, (_, i) => example.slice(0, i)),
    ...Array.from({ length: example.length / 7 }, (_, i) => `${example.slice(0, i * 7)}\t${example.slice(i * 7)}`),
  ];

  it('never throws, whatever the input', () => {
    const documents: ParsedDocument[] = [];
    for (const text of inputs) {
      const parsed = parse(text);
      for (const doc of parsed.documents) {
        expect(() => [validateDocumentSchema(doc), findLiteralSecrets(doc), doc.locate(['spec', 'job', 'x'], 'key')]).not.toThrow();
        documents.push(doc);
      }
    }
    expect(() => checkRepositoryRules(documents)).not.toThrow();
    expect(documents.length).toBeGreaterThan(100);
  });
});

import type { Alias, Document, LineCounter, Node, YAMLError } from 'yaml';
import { DiagnosticCodes } from '../shared/diagnostic-codes.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import { FORBIDDEN_KEYS, MAX_ALIAS_COUNT, MAX_DOCUMENTS } from './limits.js';
import { createLocator } from './locate.js';
import { parseSimpleManifest } from './parse-simple.js';
import { yamlLibrary } from './yaml-library.js';
import type { DocumentPath } from './locate.js';
import type { ManifestSource, ParsedDocument, ParseResult } from './parsed-document.js';

export type { DocumentPath, SourcePosition } from './locate.js';
export type { ManifestSource, ParsedDocument, ParseResult } from './parsed-document.js';

// Core schema of YAML 1.2: `yes`, `on`, `0123` stay what they look like, unlike YAML 1.1.
const YAML_OPTIONS = { version: '1.2', schema: 'core', uniqueKeys: true, prettyErrors: false } as const;

type Report = (code: string, offset: number, message: string, extra?: Partial<Diagnostic>) => void;

interface Reporter {
  diagnostics: Diagnostic[];
  report: Report;
}

/**
 * Parses every document of a manifest file. Documents with any error are left out of `documents`
 * (validating a half-parsed document only adds noise); their problems are in `diagnostics`.
 * Never throws: a parser failure becomes a CF003 diagnostic.
 *
 * Manifests as people write them (block and one-line flow collections, plain and simple quoted
 * scalars, comments, `---`) take a fast path that yields the same values and positions as yaml;
 * anything else, and every file with a problem, goes through yaml (`parseManifestWithYaml`).
 */
export function parseManifestSource(source: ManifestSource): ParseResult {
  return parseSimpleManifest(source, parseManifestWithYaml) ?? parseManifestWithYaml(source);
}

/** The general parser, and the reference the fast path must agree with. */
export function parseManifestWithYaml(source: ManifestSource): ParseResult {
  const { Composer, LineCounter, Parser } = yamlLibrary();
  const lineCounter = new LineCounter();
  const reporter = createReporter(source.file, lineCounter);
  const { diagnostics, report } = reporter;
  try {
    const composer = new Composer(YAML_OPTIONS);
    const stream = composer.compose(new Parser(lineCounter.addNewLine).parse(source.text), false, source.text.length);
    const docs: Document.Parsed[] = [];
    // Composition is lazy: stop past the limit instead of building every document of a huge stream.
    for (const doc of stream) {
      if (docs.length === MAX_DOCUMENTS) {
        report(DiagnosticCodes.TOO_MANY_DOCUMENTS, doc.range[0], `more than ${MAX_DOCUMENTS} documents in one file`);
        return { documents: [], diagnostics };
      }
      docs.push(doc);
    }
    const leftover = composer.streamInfo();
    reportYamlProblems(leftover.errors, leftover.warnings, report);
    const documents: ParsedDocument[] = [];
    docs.forEach((doc, index) => {
      const parsed = convertDocument(doc, index, source, reporter, lineCounter);
      if (parsed) documents.push(parsed);
    });
    return { documents, diagnostics };
  } catch (error) {
    report(DiagnosticCodes.YAML_SYNTAX, 0, `could not parse YAML: ${describeError(error)}`);
    return { documents: [], diagnostics };
  }
}

function convertDocument(
  doc: Document.Parsed,
  index: number,
  source: ManifestSource,
  reporter: Reporter,
  lineCounter: LineCounter,
): ParsedDocument | undefined {
  const { isMap, isScalar } = yamlLibrary();
  const { report } = reporter;
  const contents = doc.contents;
  // A trailing `---` or a comment-only document is empty, not a mistake.
  if (contents === null || (isScalar(contents) && contents.value === null && contents.source === '')) {
    if (doc.errors.length === 0) return undefined;
  }
  const before = countErrors(reporter.diagnostics);
  const keys = checkKeys(contents, [], report);
  reportYamlProblems(doc.errors, doc.warnings, report, keys);
  if (contents !== null && !isMap(contents) && doc.errors.length === 0) {
    report(DiagnosticCodes.NOT_A_MAPPING, contents.range[0], `a manifest document must be a mapping (got ${describeNode(contents)})`, {
      hint: 'start the document with `apiVersion: cronform/v1`',
    });
  }
  if (countErrors(reporter.diagnostics) > before) return undefined;
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // toJS fails on aliases only: too many expansions, or an alias whose anchor is not defined before it.
    const excessive = describeError(error).startsWith('Excessive alias count');
    const alias = findAlias(contents, (node) => excessive || node.resolve(doc) === undefined);
    const offset = alias?.range?.[0] ?? contents?.range?.[0] ?? 0;
    if (excessive) {
      report(DiagnosticCodes.ALIAS_LIMIT, offset, `YAML aliases expand beyond the limit of ${MAX_ALIAS_COUNT}`, {
        hint: 'write the values out instead of nesting aliases',
      });
    } else {
      report(DiagnosticCodes.YAML_SYNTAX, offset, `YAML error: ${describeError(error)}`);
    }
    return undefined;
  }
  return { file: source.file, index, value, ...createLocator(doc, lineCounter, source.text) };
}

/** Walks the node tree (not following aliases: they point at nodes already walked) checking keys. */
function checkKeys(node: unknown, path: DocumentPath, report: Report, keys = new Map<number, DocumentPath>()) {
  const { isMap, isScalar, isSeq } = yamlLibrary();
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = pair.key;
      const offset = isScalar(key) || isMap(key) || isSeq(key) ? (key.range?.[0] ?? 0) : 0;
      if (!isScalar(key)) {
        report(DiagnosticCodes.YAML_SYNTAX, offset, 'mapping keys must be plain scalars, not collections or aliases', {
          path: path.join('.'),
        });
        continue;
      }
      const name = String(key.value);
      const keyPath = [...path, name];
      keys.set(offset, keyPath);
      if (FORBIDDEN_KEYS.has(name)) {
        report(DiagnosticCodes.FORBIDDEN_KEY, offset, `key "${name}" is not allowed`, {
          path: keyPath.join('.'),
          hint: '__proto__, constructor and prototype are refused because they can alter JavaScript objects',
        });
      }
      checkKeys(pair.value, keyPath, report, keys);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => checkKeys(item, [...path, i], report, keys));
  }
  return keys;
}

function reportYamlProblems(
  errors: readonly YAMLError[],
  warnings: readonly YAMLError[],
  report: Report,
  keys = new Map<number, DocumentPath>(),
): void {
  for (const error of errors) {
    const offset = error.pos[0];
    if (error.code === 'DUPLICATE_KEY') {
      const path = keys.get(offset);
      const name = path?.[path.length - 1];
      report(DiagnosticCodes.DUPLICATE_KEY, offset, name === undefined ? 'duplicate key' : `duplicate key "${name}"`, {
        ...(path ? { path: path.join('.') } : {}),
        hint: 'YAML keys must be unique in a mapping; remove or merge one of them',
      });
    } else if (error.code === 'TAB_AS_INDENT') {
      report(DiagnosticCodes.YAML_SYNTAX, offset, 'tab used for indentation; YAML indentation must use spaces');
    } else {
      report(DiagnosticCodes.YAML_SYNTAX, offset, `YAML syntax error: ${firstLine(error.message)}`);
    }
  }
  for (const warning of warnings) {
    report(DiagnosticCodes.YAML_SYNTAX, warning.pos[0], `YAML warning: ${firstLine(warning.message)}`, {
      severity: 'warning',
    });
  }
}

function createReporter(file: string, lineCounter: LineCounter): Reporter {
  const diagnostics: Diagnostic[] = [];
  const report: Report = (code, offset, message, extra = {}) => {
    const { line, col } = lineCounter.linePos(offset);
    diagnostics.push({ severity: 'error', code, message, file, line, column: col, ...extra });
  };
  return { diagnostics, report };
}

function countErrors(diagnostics: readonly Diagnostic[]): number {
  return diagnostics.filter((d) => d.severity === 'error').length;
}

/** The first alias, in document order, that `matches`. */
function findAlias(node: unknown, matches: (alias: Alias) => boolean): Alias | undefined {
  const { isAlias, isMap, isPair, isSeq } = yamlLibrary();
  if (isAlias(node)) return matches(node) ? node : undefined;
  if (isPair(node)) return findAlias(node.key, matches) ?? findAlias(node.value, matches);
  if (isMap(node) || isSeq(node)) {
    for (const item of node.items as unknown[]) {
      const found = findAlias(item, matches);
      if (found) return found;
    }
  }
  return undefined;
}

function describeNode(node: Node): string {
  const { isAlias, isScalar, isSeq } = yamlLibrary();
  if (isSeq(node)) return 'a list';
  if (isAlias(node)) return 'an alias';
  if (isScalar(node)) return node.value === null ? 'null' : `a ${typeof node.value}`;
  return 'a mapping';
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}

/**
 * The manifest parser's fast path against its reference, yaml: for a text the fast path reads, the
 * diagnostics, documents (index, file), values (types, key order, prototypes, -0) and every answer
 * `locate` and `locateInScalar` give must be yaml's. A text the fast path declines goes to yaml
 * whole, so it cannot disagree.
 */
import { isDeepStrictEqual } from 'node:util';
import type { DocumentPath } from '../../src/manifest/locate.js';
import { parseManifestWithYaml } from '../../src/manifest/parse.js';
import { parseSimpleManifest } from '../../src/manifest/parse-simple.js';
import type { ManifestSource } from '../../src/manifest/parsed-document.js';

export interface Comparison {
  /** False when the fast path declined the text (yaml reads it). */
  accepted: boolean;
  /** Each difference from yaml, described; empty when they agree. */
  problems: string[];
}

/** Offsets into a scalar around its edges: before it, its first characters, past short strings. */
const SCALAR_OFFSETS = [-1, 0, 1, 3, 10, 100];

export function compareWithYaml(source: ManifestSource): Comparison {
  const fast = parseSimpleManifest(source, parseManifestWithYaml);
  if (fast === undefined) return { accepted: false, problems: [] };
  const slow = parseManifestWithYaml(source);
  const problems: string[] = [];
  if (!isDeepStrictEqual(fast.diagnostics, slow.diagnostics)) problems.push(`diagnostics ${JSON.stringify(fast.diagnostics)} vs ${JSON.stringify(slow.diagnostics)}`);
  if (fast.documents.length !== slow.documents.length) problems.push(`documents ${fast.documents.length} vs ${slow.documents.length}`);
  fast.documents.forEach((doc, n) => {
    const reference = slow.documents[n];
    if (!reference) return;
    if (doc.index !== reference.index || doc.file !== reference.file) problems.push(`document ${doc.file}#${doc.index} vs ${reference.file}#${reference.index}`);
    if (!hasSameShape(doc.value, reference.value)) problems.push(`value ${JSON.stringify(doc.value)} vs ${JSON.stringify(reference.value)}`);
    for (const path of listPathVariants(reference.value)) {
      for (const target of ['key', 'value'] as const) {
        const a = doc.locate(path, target);
        const b = reference.locate(path, target);
        if (!isDeepStrictEqual(a, b)) problems.push(`locate ${JSON.stringify(path)} ${target}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
      }
      for (const offset of SCALAR_OFFSETS) {
        const a = doc.locateInScalar(path, offset);
        const b = reference.locateInScalar(path, offset);
        if (!isDeepStrictEqual(a, b)) problems.push(`locateInScalar ${JSON.stringify(path)} ${offset}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
      }
    }
  });
  return { accepted: true, problems };
}

/**
 * Every path to a node of `value`, and next to each the near misses diagnostics ask about: a missing
 * child, an index on a scalar or mapping, an index out of range, an index written as a string and a
 * numeric key written as a number.
 */
function listPathVariants(value: unknown): DocumentPath[] {
  return collectPaths(value).flatMap((path) => {
    const last = path[path.length - 1];
    const variants: DocumentPath[] = [path, [...path, 'missing'], [...path, 0], [...path, 99], [...path, '0']];
    if (typeof last === 'number') variants.push([...path.slice(0, -1), String(last)]);
    if (typeof last === 'string' && /^\d+$/.test(last)) variants.push([...path.slice(0, -1), Number(last)]);
    return variants;
  });
}

/** The root and every path below it, in document order. */
function collectPaths(value: unknown, prefix: DocumentPath = [], paths: DocumentPath[] = [prefix]): DocumentPath[] {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      paths.push([...prefix, i]);
      collectPaths(item, [...prefix, i], paths);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      paths.push([...prefix, key]);
      collectPaths(item, [...prefix, key], paths);
    }
  }
  return paths;
}

/** Deep equality that also tells key order and prototypes apart (`isDeepStrictEqual` does not). */
function hasSameShape(a: unknown, b: unknown): boolean {
  if (!isDeepStrictEqual(a, b)) return false;
  if (a === null || typeof a !== 'object' || b === null || typeof b !== 'object') return true;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return keysA.join('\u0000') === keysB.join('\u0000') && keysA.every((key) => hasSameShape((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

import type { Document, LineCounter } from 'yaml';
import { yamlLibrary } from './yaml-library.js';

/** Keys and indexes from a document's root to a value, e.g. `['spec', 'job', 'command', 0]`. */
export type DocumentPath = ReadonlyArray<string | number>;

/** 1-based, as editors and `file:line:col` expect. */
export interface SourcePosition {
  line: number;
  column: number;
}

export interface Locator {
  locate(path: DocumentPath, target?: 'key' | 'value'): SourcePosition;
  /** Position of character `offset` of the string at `path`, skipping an opening quote. */
  locateInScalar(path: DocumentPath, offset: number): SourcePosition;
}

/**
 * What the simple parser (`parse.ts`) keeps of a document for locating: offsets of keys and nodes,
 * a scalar being just its offset (its value is in the document's value, its style is its first
 * character). There are no empty scalars, aliases or non-string keys: those take the yaml path.
 */
export type PositionNode = number | PositionMap | PositionSeq;

export interface PositionMap {
  kind: 'map';
  start: number;
  keys: string[];
  keyStarts: number[];
  values: PositionNode[];
}

export interface PositionSeq {
  kind: 'seq';
  start: number;
  items: PositionNode[];
}

/**
 * Maps document paths to source positions. Positions are looked up lazily in the YAML node tree, so
 * the cost is paid only for the few paths that end up in a diagnostic.
 */
export function createLocator(doc: Document.Parsed, lineCounter: LineCounter, text: string): Locator {
  const toPosition = (offset: number): SourcePosition => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  return {
    locate: (path, target = 'value') => toPosition(findOffset(doc, path, target)),
    locateInScalar: (path, offset) => toPosition(findOffsetInScalar(doc, text, path, offset)),
  };
}

/** The same answers as `createLocator` gives for the yaml Document of the same text. */
export function createTreeLocator(root: PositionMap, value: unknown, lineStarts: readonly number[], text: string): Locator {
  const toPosition = (offset: number): SourcePosition => positionAt(lineStarts, offset);
  return {
    locate: (path, target = 'value') => toPosition(findTreeOffset(root, path, target)),
    locateInScalar: (path, offset) => {
      const start = findTreeOffset(root, path, 'value');
      const found = getTreeNode(root, value, path);
      if (found === undefined || found.node !== start) return toPosition(start);
      // Fast-path scalars are one line without escapes: a plain string is its own source text.
      const first = text.charCodeAt(start);
      const style = first === 34 ? 'QUOTE_DOUBLE' : first === 39 ? 'QUOTE_SINGLE' : 'PLAIN';
      const length = style === 'PLAIN' ? String(found.value).length : text.indexOf(text.charAt(start), start + 1) + 1 - start;
      return toPosition(offsetInScalar(text, { start, end: start + length, style, value: found.value }, offset));
    },
  };
}

/**
 * yaml's `LineCounter.linePos` for the parser's fast path, which does not load yaml: a binary search
 * for the line of `offset` among ascending line starts.
 */
export function positionAt(lineStarts: readonly number[], offset: number): SourcePosition {
  let low = 0;
  let high = lineStarts.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((lineStarts[middle] as number) < offset) low = middle + 1;
    else high = middle;
  }
  if (lineStarts[low] === offset) return { line: low + 1, column: 1 };
  if (low === 0) return { line: 0, column: offset };
  return { line: low, column: offset - (lineStarts[low - 1] as number) + 1 };
}

/**
 * Exact for one-line plain and quoted scalars without escapes, the way cron expressions are written;
 * otherwise (escapes, block or folded scalars) the scalar's start, which is still the right line.
 */
function findOffsetInScalar(doc: Document.Parsed, text: string, path: DocumentPath, offset: number): number {
  const { isScalar } = yamlLibrary();
  const start = findOffset(doc, path, 'value');
  const node = doc.getIn(path, true);
  if (!isScalar(node) || !node.range || node.range[0] !== start) return start;
  return offsetInScalar(text, { start, end: node.range[1], style: node.type, value: node.value }, offset);
}

function offsetInScalar(text: string, node: { start: number; end: number; style?: string | undefined; value: unknown }, offset: number): number {
  const { start, style, value } = node;
  if (typeof value !== 'string') return start;
  const raw = text.slice(start, node.end);
  const quoted = style === 'QUOTE_DOUBLE' || style === 'QUOTE_SINGLE';
  const literal = style === 'PLAIN' || (quoted && !/[\\']/.test(raw.slice(1, -1)));
  if (!literal || raw.includes('\n') || offset < 0 || offset > value.length) return start;
  return start + (quoted ? 1 : 0) + offset;
}

/**
 * Walks the path as far as it exists. A missing segment stops the walk at the nearest existing
 * ancestor and points at its key, so "missing field spec.cron" lands on `spec:`.
 */
function findOffset(doc: Document.Parsed, path: DocumentPath, target: 'key' | 'value'): number {
  const { isAlias, isMap, isScalar, isSeq } = yamlLibrary();
  let node: unknown = doc.contents;
  let keyOffset: number | undefined;
  let complete = true;
  for (const segment of path) {
    // An alias stands for its anchored node; positions then point into the anchor's text.
    if (isAlias(node)) node = node.resolve(doc) ?? node;
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
      if (!pair) {
        complete = false;
        break;
      }
      keyOffset = offsetOf(pair.key);
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number' && node.items[segment] !== undefined) {
      keyOffset = undefined;
      node = node.items[segment];
    } else {
      complete = false;
      break;
    }
  }
  const nodeOffset = isEmptyScalar(node) ? undefined : offsetOf(node);
  const preferKey = target === 'key' || !complete;
  return (preferKey ? (keyOffset ?? nodeOffset) : (nodeOffset ?? keyOffset)) ?? doc.range[0];
}

function offsetOf(node: unknown): number | undefined {
  if (typeof node !== 'object' || node === null || !('range' in node)) return undefined;
  const range = (node as { range?: [number, number, number] | null }).range;
  return range?.[0];
}

/** `key:` with nothing after it parses as an empty null scalar positioned at the end of the line. */
function isEmptyScalar(node: unknown): boolean {
  return yamlLibrary().isScalar(node) && node.value === null && !node.source;
}

/** `findOffset` for the simple parser's tree: keys are strings and no scalar is empty. */
function findTreeOffset(root: PositionMap, path: DocumentPath, target: 'key' | 'value'): number {
  let node: PositionNode = root;
  let keyOffset: number | undefined;
  let complete = true;
  for (const segment of path) {
    if (typeof node === 'number') {
      complete = false;
      break;
    }
    if (node.kind === 'map') {
      const index = node.keys.indexOf(String(segment));
      if (index === -1) {
        complete = false;
        break;
      }
      keyOffset = node.keyStarts[index];
      node = node.values[index] as PositionNode;
    } else if (typeof segment === 'number' && node.items[segment] !== undefined) {
      keyOffset = undefined;
      node = node.items[segment];
    } else {
      complete = false;
      break;
    }
  }
  const nodeOffset = typeof node === 'number' ? node : node.start;
  const preferKey = target === 'key' || !complete;
  return preferKey ? (keyOffset ?? nodeOffset) : nodeOffset;
}

/**
 * The node and value at `path` the way yaml's `doc.getIn(path, true)` finds them: keys match strictly
 * (`1` is not `'1'`) and sequence indexes may be numeric strings, unlike the walk of `findOffset`.
 */
function getTreeNode(root: PositionMap, rootValue: unknown, path: DocumentPath): { node: PositionNode; value: unknown } | undefined {
  let node: PositionNode = root;
  let value = rootValue;
  for (const segment of path) {
    let index: unknown = -1;
    if (typeof node === 'number') return undefined;
    if (node.kind === 'map') {
      index = typeof segment === 'string' ? node.keys.indexOf(segment) : -1;
      if (index === -1) return undefined;
      value = (value as Record<string, unknown>)[segment as string];
      node = node.values[index as number] as PositionNode;
    } else {
      index = typeof segment === 'string' && segment !== '' ? Number(segment) : segment;
      if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || node.items[index] === undefined) return undefined;
      value = (value as unknown[])[index];
      node = node.items[index] as PositionNode;
    }
  }
  return { node, value };
}

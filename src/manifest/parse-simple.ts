import { FORBIDDEN_KEYS, MAX_DOCUMENTS } from './limits.js';
import { createTreeLocator, positionAt } from './locate.js';
import type { Locator, PositionNode, SourcePosition } from './locate.js';
import type { ManifestSource, ParsedDocument, ParseResult } from './parsed-document.js';

/**
 * The fast path of manifest parsing (`parseManifestSource` in parse.ts falls back to yaml). yaml builds a token stream, a CST and a node tree for every file (about 200 µs for a
 * 1 kB manifest), which dominated `validate` on large repositories. Most manifests use a small part of
 * YAML, which is read here in one pass straight into the value and a tree of positions. The reader
 * gives up (returns undefined) at the first thing outside that part, and on anything yaml would
 * report, so every diagnostic still comes from yaml: tabs, CR, unusual characters, anchors, aliases,
 * tags, block scalars, escapes, multi-line scalars or flow collections, empty values, floats, duplicate
 * or forbidden keys, keys that are not plain words, unusual indentation of comments, empty documents.
 * test/manifest/parse-fast-path.test.ts holds it to yaml's answers in `npm test`; a new construct
 * read here needs its cases there.
 */

/** Thrown by the reader to give up; caught in `parseSimpleManifest`, never escapes it. */
const OUTSIDE_SUBSET = new Error('outside the subset read by the fast path');

// yaml's implicit keys must be at most 1024 characters; staying well below needs no exact count.
const MAX_SIMPLE_KEY_LENGTH = 1000;

// yaml core schema tests (yaml/dist/schema/core), in yaml's order of precedence: null, bool, int
// (octal, decimal, hex), then floats. Octal, hex and floats are left to yaml. Decimal integers,
// /^[-+]?[0-9]+$/, are matched by `isCoreInt`.
const CORE_NULL = /^(?:~|[Nn]ull|NULL)?$/;
const CORE_BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const CORE_OTHER_NUMBER = /^(?:0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)$/;

const SPACE = 32;
const HASH = 35;
const COLON = 58;
const DASH = 45;
const COMMA = 44;
const DOUBLE_QUOTE = 34;
const SINGLE_QUOTE = 39;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;

/** The parser the fast path stands in for (`parseManifestWithYaml`), passed in so neither file imports the other. */
export type ReferenceParser = (source: ManifestSource) => ParseResult;

/**
 * The fast path alone: undefined when the text needs yaml. `reference` answers position questions
 * only if the text does not read the same the second time (see `createRereadingLocator`).
 */
export function parseSimpleManifest(source: ManifestSource, reference: ReferenceParser): ParseResult | undefined {
  try {
    const lineStarts = countLines(source.text);
    if (lineStarts === undefined) return undefined;
    // Values only: positions other than the roots' are read again when asked for (see below).
    const trees = new SimpleReader(source.text, lineStarts, false).readStream();
    if (trees === undefined || trees.length > MAX_DOCUMENTS) return undefined;
    const rereading = createSourceRereading(source, reference);
    const documents = trees.map((tree, index): ParsedDocument => {
      return { file: source.file, index, value: tree.value, ...createRereadingLocator(rereading, index, positionAt(lineStarts, tree.start)) };
    });
    return { documents, diagnostics: [] };
  } catch {
    // OUTSIDE_SUBSET, or a bug here: yaml's answer is the right one either way.
    return undefined;
  }
}

/**
 * The locator of a fast-path document keeps only the position of its root (every compiled schedule
 * asks for it) and reads the file again for any other path, on the first such question. The tree of
 * positions is half of what a document holds, and kept for every document until the end it was most
 * of validate's garbage collection, while a valid repository asks for no other position. The text is
 * read the same way the second time, so the answers are those the first tree would have given.
 *
 * Should the second reading disagree with the first anyway (a bug in the reader: it declines, or the
 * document is missing, not a mapping or elsewhere), the positions come from `reference` instead, and
 * failing that every path points at the root: a diagnostic a line off beats a crash of validate.
 */
export function createRereadingLocator(rereading: SourceRereading, index: number, root: SourcePosition): Locator {
  let tree: Locator | undefined;
  const locator = () => (tree ??= rereading.treeLocator(index, root) ?? rereading.referenceLocator(index) ?? locateAtRoot(root));
  return {
    locate: (path, target) => (path.length === 0 ? { line: root.line, column: root.column } : locator().locate(path, target)),
    locateInScalar: (path, offset) => locator().locateInScalar(path, offset),
  };
}

/**
 * The second reading of one file, shared by the locators of all its documents: the file is read again
 * (and, failing that, parsed by `reference`) at most once, however many of its documents ask for a
 * position. Reading it per document made a file of n documents cost n readings, quadratic in n.
 */
export interface SourceRereading {
  treeLocator(index: number, root: SourcePosition): Locator | undefined;
  referenceLocator(index: number): Locator | undefined;
}

export function createSourceRereading(source: ManifestSource, reference: ReferenceParser): SourceRereading {
  let reading: { trees: ReturnType<SimpleReader['readStream']>; lineStarts: number[] } | null | undefined;
  let referenceDocuments: ParsedDocument[] | undefined;
  const read = () => {
    if (reading !== undefined) return reading;
    try {
      const lineStarts = countLines(source.text);
      reading = lineStarts === undefined ? null : { trees: new SimpleReader(source.text, lineStarts, true).readStream(), lineStarts };
    } catch {
      reading = null;
    }
    return reading;
  };
  return {
    treeLocator(index, root) {
      const stream = read();
      const tree = stream?.trees?.[index];
      if (stream === null || tree === undefined || typeof tree.node === 'number' || tree.node.kind !== 'map') return undefined;
      const start = positionAt(stream.lineStarts, tree.start);
      if (start.line !== root.line || start.column !== root.column) return undefined;
      return createTreeLocator(tree.node, tree.value, stream.lineStarts, source.text);
    },
    referenceLocator(index) {
      referenceDocuments ??= reference(source).documents;
      return referenceDocuments.find((doc) => doc.index === index);
    },
  };
}

function locateAtRoot(root: SourcePosition): Locator {
  const at = () => ({ line: root.line, column: root.column });
  return { locate: at, locateInScalar: at };
}

/**
 * Every line start, as yaml's line counter would hold them; undefined unless every character is one
 * yaml treats as ordinary text: printable, not a tab, CR, BOM, line or paragraph separator or exotic
 * space.
 */
function countLines(text: string): number[] | undefined {
  if (NOT_PRINTABLE_ASCII.test(text) && !hasOnlyOrdinaryCharacters(text)) return undefined;
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  return lineStarts;
}

const NOT_PRINTABLE_ASCII = /[^\n\x20-\x7e]/;

function hasOnlyOrdinaryCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if ((c >= SPACE && c < 127) || c === 10) continue;
    if (c < 0xa1 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f) return false;
    if (c === 0x205f || c === 0x3000 || c === 0xfeff || c >= 0xfffe || (c >= 0xdc00 && c <= 0xdfff)) return false;
    if (c >= 0xd800 && c <= 0xdbff) {
      const low = text.charCodeAt(i + 1);
      if (!(low >= 0xdc00 && low <= 0xdfff)) return false;
      i += 1;
    }
  }
  return true;
}

interface SimpleDocument {
  /** Offset of the root mapping's first key. */
  start: number;
  /** The tree of positions; `NOT_READ` when the reader was asked for values only. */
  node: PositionNode;
  value: Record<string, unknown>;
}

/** What a collection's node is when positions are not read. */
const NOT_READ: PositionNode = -1;

class SimpleReader {
  // The content lines (neither blank nor comment) of the document being read.
  private starts: number[] = [];
  private indents: number[] = [];
  private ends: number[] = [];
  private line = 0;
  /** Value of the node returned last (kept apart so nodes need not carry their JS value). */
  private value: unknown;
  /** Offset just past the flow node returned last. */
  private position = 0;
  /** The key `scanKey` found last (sliced once: keys are most of the strings a manifest has). */
  private key = '';
  // Entries of the collections being read, nested ones above their parents': each collection
  // splices its own off when it ends, so the arrays it keeps are exactly as long as needed (an
  // array grown by push reserves 16 slots or more, and ten thousand documents keep theirs).
  private readonly keyStack: string[] = [];
  private readonly keyStartStack: number[] = [];
  private readonly nodeStack: PositionNode[] = [];
  private readonly valueStack: unknown[] = [];

  constructor(
    private readonly text: string,
    private readonly lineStarts: readonly number[],
    /** False to read values only: no position nodes are built, collections are `NOT_READ`. */
    private readonly withPositions: boolean,
  ) {}

  readStream(): SimpleDocument[] | undefined {
    const { text, lineStarts } = this;
    const documents: SimpleDocument[] = [];
    let pendingComments: number[] = [];
    let separators = 0;
    for (let index = 0; index < lineStarts.length; index += 1) {
      const start = lineStarts[index] as number;
      const end = index + 1 < lineStarts.length ? (lineStarts[index + 1] as number) - 1 : text.length;
      if (start === end) continue;
      let first = start;
      while (first < end && text.charCodeAt(first) === SPACE) first += 1;
      if (first === end) throw OUTSIDE_SUBSET;
      const indent = first - start;
      const c = text.charCodeAt(first);
      if (c === HASH) {
        pendingComments.push(indent);
      } else if (indent === 0 && text.startsWith('---', start)) {
        if (end - start !== 3) throw OUTSIDE_SUBSET;
        this.finishDocument(documents, pendingComments, separators > 0);
        // Too many documents is yaml's diagnostic (CF005): stop reading instead of reading them all twice.
        if (documents.length > MAX_DOCUMENTS) throw OUTSIDE_SUBSET;
        pendingComments = [];
        separators += 1;
      } else {
        // A comment line in a block must sit at the indentation of what follows it.
        if (pendingComments.some((commentIndent) => commentIndent !== indent)) throw OUTSIDE_SUBSET;
        pendingComments = [];
        this.starts.push(start);
        this.indents.push(indent);
        this.ends.push(end);
      }
    }
    this.finishDocument(documents, pendingComments, separators > 0);
    return documents.length > 0 ? documents : undefined;
  }

  /** Reads the lines collected since the last `---`; only the part before the first `---` may be empty. */
  private finishDocument(documents: SimpleDocument[], trailingComments: number[], afterSeparator: boolean): void {
    if (trailingComments.some((indent) => indent !== 0)) throw OUTSIDE_SUBSET;
    if (this.starts.length === 0) {
      if (afterSeparator) throw OUTSIDE_SUBSET;
      return;
    }
    this.line = 0;
    if (this.indents[0] !== 0) throw OUTSIDE_SUBSET;
    const node = this.readBlockMap(0, undefined);
    if (this.line !== this.starts.length) throw OUTSIDE_SUBSET;
    documents.push({ start: this.starts[0] as number, node, value: this.value as Record<string, unknown> });
    this.starts = [];
    this.indents = [];
    this.ends = [];
  }

  /** A block mapping whose keys are at column `indent`; `firstKey` when it starts after `- `. */
  private readBlockMap(indent: number, firstKey: number | undefined): PositionNode {
    const { text, withPositions } = this;
    const base = this.keyStack.length;
    const nodeBase = this.nodeStack.length;
    const value: Record<string, unknown> = {};
    let entries = 0;
    let keyStart = firstKey;
    while (this.line < this.starts.length) {
      if (keyStart === undefined) {
        const lineIndent = this.indents[this.line] as number;
        if (lineIndent < indent) break;
        if (lineIndent > indent) throw OUTSIDE_SUBSET;
        keyStart = (this.starts[this.line] as number) + indent;
      }
      const end = this.ends[this.line] as number;
      const colon = this.scanKey(keyStart, end);
      if (colon === -1) throw OUTSIDE_SUBSET;
      const key = this.key;
      if (Object.hasOwn(value, key)) throw OUTSIDE_SUBSET;
      const after = skipSpaces(text, colon + 1, end);
      let child: PositionNode;
      if (after === end || text.charCodeAt(after) === HASH) {
        this.line += 1;
        child = this.readNestedBlock(indent);
      } else {
        child = this.readInline(after, end);
        this.line += 1;
      }
      if (withPositions) {
        this.keyStack.push(key);
        this.keyStartStack.push(keyStart);
        this.nodeStack.push(child);
      }
      value[key] = this.value;
      entries += 1;
      keyStart = undefined;
    }
    if (entries === 0) throw OUTSIDE_SUBSET;
    this.value = value;
    if (!withPositions) return NOT_READ;
    const keyStarts = this.keyStartStack.splice(base);
    return { kind: 'map', start: keyStarts[0] as number, keys: this.keyStack.splice(base), keyStarts, values: this.nodeStack.splice(nodeBase) };
  }

  /** The block value of `key:` ending its line: indented deeper, or a sequence at the key's column. */
  private readNestedBlock(keyIndent: number): PositionNode {
    if (this.line >= this.starts.length) throw OUTSIDE_SUBSET;
    const indent = this.indents[this.line] as number;
    const first = (this.starts[this.line] as number) + indent;
    const sequence = this.isSequenceEntry(first);
    if (indent > keyIndent) return sequence ? this.readBlockSeq(indent) : this.readBlockMap(indent, undefined);
    if (indent === keyIndent && sequence) return this.readBlockSeq(indent);
    throw OUTSIDE_SUBSET;
  }

  private readBlockSeq(indent: number): PositionNode {
    const { text } = this;
    const start = (this.starts[this.line] as number) + indent;
    const nodeBase = this.nodeStack.length;
    const valueBase = this.valueStack.length;
    while (this.line < this.starts.length) {
      const lineIndent = this.indents[this.line] as number;
      if (lineIndent < indent) break;
      if (lineIndent > indent) throw OUTSIDE_SUBSET;
      const dash = (this.starts[this.line] as number) + indent;
      if (!this.isSequenceEntry(dash)) break;
      const end = this.ends[this.line] as number;
      const item = skipSpaces(text, dash + 1, end);
      if (item === end || text.charCodeAt(item) === HASH || this.isSequenceEntry(item)) throw OUTSIDE_SUBSET;
      let child: PositionNode;
      if (this.scanKey(item, end) !== -1) {
        child = this.readBlockMap(item - (this.starts[this.line] as number), item);
      } else {
        child = this.readInline(item, end);
        this.line += 1;
      }
      if (this.withPositions) this.nodeStack.push(child);
      this.valueStack.push(this.value);
    }
    this.value = this.valueStack.splice(valueBase);
    return this.withPositions ? { kind: 'seq', start, items: this.nodeStack.splice(nodeBase) } : NOT_READ;
  }

  private isSequenceEntry(offset: number): boolean {
    const next = this.text.charCodeAt(offset + 1);
    return this.text.charCodeAt(offset) === DASH && (next === SPACE || next === 10 || Number.isNaN(next));
  }

  /**
   * A simple key at `start` (letters, digits, `_`, `-`, `.`, `/`, not starting with the last three,
   * not resolving to null, a boolean or a number, not `__proto__`…) followed by `:` and a space or the
   * line end: returns the colon's offset, or -1.
   */
  private scanKey(start: number, end: number): number {
    const { text } = this;
    const first = text.charCodeAt(start);
    if (!isWordChar(first)) return -1;
    let i = start + 1;
    while (i < end && (isWordChar(text.charCodeAt(i)) || isKeyPunctuation(text.charCodeAt(i)))) i += 1;
    if (i === end || text.charCodeAt(i) !== COLON) return -1;
    if (i + 1 < end && text.charCodeAt(i + 1) !== SPACE) return -1;
    const key = text.slice(start, i);
    if (key.length > MAX_SIMPLE_KEY_LENGTH || FORBIDDEN_KEYS.has(key) || typeof resolvePlainScalar(key) !== 'string') return -1;
    this.key = key;
    return i;
  }

  /** A value after `key: ` or `- `, then only spaces and a comment up to the line end. */
  private readInline(start: number, end: number): PositionNode {
    const { text } = this;
    const c = text.charCodeAt(start);
    let node: PositionNode;
    if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
      node = this.readQuoted(start, end);
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      node = this.readFlowCollection(start, end);
    } else {
      return this.readBlockPlain(start, end);
    }
    const rest = skipSpaces(text, this.position, end);
    if (rest < end && (text.charCodeAt(rest) !== HASH || rest === this.position)) throw OUTSIDE_SUBSET;
    return node;
  }

  /** A plain scalar up to the line end or ` #`; `: ` inside would be a nested mapping, not text. */
  private readBlockPlain(start: number, end: number): number {
    const { text } = this;
    if (!canStartPlain(text, start)) throw OUTSIDE_SUBSET;
    let valueEnd = start;
    for (let i = start; i < end; i += 1) {
      const c = text.charCodeAt(i);
      if (c === SPACE) {
        if (text.charCodeAt(i + 1) === HASH) break;
        continue;
      }
      if (c === COLON && (i + 1 === end || text.charCodeAt(i + 1) === SPACE)) throw OUTSIDE_SUBSET;
      valueEnd = i + 1;
    }
    return this.scalar(start, resolvePlainScalar(text.slice(start, valueEnd)));
  }

  /** A one-line quoted scalar without escapes (`\` in double quotes, `''` in single quotes). */
  private readQuoted(start: number, end: number): number {
    const { text } = this;
    const quote = text.charCodeAt(start);
    let close = start + 1;
    while (close < end) {
      const c = text.charCodeAt(close);
      if (c === quote) break;
      if (c === 92 && quote === DOUBLE_QUOTE) throw OUTSIDE_SUBSET;
      close += 1;
    }
    if (close >= end || (quote === SINGLE_QUOTE && text.charCodeAt(close + 1) === SINGLE_QUOTE)) throw OUTSIDE_SUBSET;
    this.position = close + 1;
    return this.scalar(start, text.slice(start + 1, close));
  }

  /** `[a, b]` or `{ k: v }` closed on the same line, no trailing comma, no implicit pairs. */
  private readFlowCollection(start: number, end: number): PositionNode {
    const { text, withPositions } = this;
    const isMap = text.charCodeAt(start) === OPEN_BRACE;
    const close = isMap ? CLOSE_BRACE : CLOSE_BRACKET;
    const base = this.keyStack.length;
    const nodeBase = this.nodeStack.length;
    const valueBase = this.valueStack.length;
    const mapValue: Record<string, unknown> = {};
    let i = skipSpaces(text, start + 1, end);
    if (text.charCodeAt(i) !== close) {
      for (;;) {
        if (isMap) {
          const colon = this.scanFlowKey(i, end);
          const key = this.key;
          if (Object.hasOwn(mapValue, key)) throw OUTSIDE_SUBSET;
          const node = this.readFlowItem(skipSpaces(text, colon + 1, end), end);
          if (withPositions) {
            this.nodeStack.push(node);
            this.keyStack.push(key);
            this.keyStartStack.push(i);
          }
          mapValue[key] = this.value;
        } else {
          const node = this.readFlowItem(i, end);
          if (withPositions) this.nodeStack.push(node);
          this.valueStack.push(this.value);
        }
        i = skipSpaces(text, this.position, end);
        const c = text.charCodeAt(i);
        if (c === close) break;
        if (c !== COMMA) throw OUTSIDE_SUBSET;
        i = skipSpaces(text, i + 1, end);
        if (i >= end || text.charCodeAt(i) === close) throw OUTSIDE_SUBSET;
      }
    }
    if (i >= end) throw OUTSIDE_SUBSET;
    this.position = i + 1;
    this.value = isMap ? mapValue : this.valueStack.splice(valueBase);
    if (!withPositions) return NOT_READ;
    const nodes = this.nodeStack.splice(nodeBase);
    if (isMap) return { kind: 'map', start, keys: this.keyStack.splice(base), keyStarts: this.keyStartStack.splice(base), values: nodes };
    return { kind: 'seq', start, items: nodes };
  }

  /** A key inside `{ }`: the same words as block keys, then `: `. */
  private scanFlowKey(start: number, end: number): number {
    const colon = this.scanKey(start, end);
    if (colon === -1 || this.text.charCodeAt(colon + 1) !== SPACE) throw OUTSIDE_SUBSET;
    return colon;
  }

  private readFlowItem(start: number, end: number): PositionNode {
    const { text } = this;
    if (start >= end) throw OUTSIDE_SUBSET;
    const c = text.charCodeAt(start);
    if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) return this.readQuoted(start, end);
    if (c === OPEN_BRACKET || c === OPEN_BRACE) return this.readFlowCollection(start, end);
    if (!canStartPlain(text, start)) throw OUTSIDE_SUBSET;
    let i = start;
    let valueEnd = start;
    for (; i < end; i += 1) {
      const ch = text.charCodeAt(i);
      if (ch === COMMA || ch === CLOSE_BRACKET || ch === CLOSE_BRACE) break;
      if (ch === OPEN_BRACKET || ch === OPEN_BRACE || ch === COLON || ch === HASH || ch === DOUBLE_QUOTE || ch === SINGLE_QUOTE) throw OUTSIDE_SUBSET;
      if (ch !== SPACE) valueEnd = i + 1;
    }
    this.position = valueEnd;
    return this.scalar(start, resolvePlainScalar(text.slice(start, valueEnd)));
  }

  private scalar(start: number, value: unknown): number {
    this.value = value;
    return start;
  }
}

function skipSpaces(text: string, from: number, end: number): number {
  let i = from;
  while (i < end && text.charCodeAt(i) === SPACE) i += 1;
  return i;
}

function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

function isKeyPunctuation(c: number): boolean {
  return c === DASH || c === 46 || c === 47;
}

/** Plain scalars start with a word character, or `-` followed by one (`-1`); indicators need yaml. */
function canStartPlain(text: string, start: number): boolean {
  const c = text.charCodeAt(start);
  if (c === DASH) return isWordChar(text.charCodeAt(start + 1));
  return isWordChar(c) || c === 46 || c === 47 || c === 126 || c === 43 || c >= 0xa1;
}

/** The core schema's reading of a plain scalar, for the types read here; others need yaml. */
function resolvePlainScalar(raw: string): unknown {
  const c = raw.charCodeAt(0);
  // Only null and booleans start otherwise; the longest of them is `false`.
  if (!((c >= 48 && c <= 57) || c === 43 || c === DASH || c === 46)) {
    if (raw.length > 5) return raw;
    // The regular expressions only for what can match them: nulls start with `~` or n (or are
    // empty), booleans with t or f. Most keys are words of five letters or fewer.
    if ((raw.length === 0 || c === 126 || c === 110 || c === 78) && CORE_NULL.test(raw)) return null;
    if ((c === 116 || c === 84 || c === 102 || c === 70) && CORE_BOOL.test(raw)) return c === 116 || c === 84;
    return raw;
  }
  if (isCoreInt(raw)) return parseInt(raw, 10);
  if (mayBeOtherNumber(raw) && CORE_OTHER_NUMBER.test(raw)) throw OUTSIDE_SUBSET;
  return raw;
}

/** /^[-+]?[0-9]+$/ in a loop: durations (`5m`, `30s`) start with a digit too, and this is asked of each. */
function isCoreInt(raw: string): boolean {
  const first = raw.charCodeAt(0);
  let i = first === 43 || first === DASH ? 1 : 0;
  if (i === raw.length) return false;
  for (; i < raw.length; i += 1) {
    const c = raw.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** False when `CORE_OTHER_NUMBER` cannot match: its texts end in a digit, a hex digit, `.`, `inf` or `nan`. */
function mayBeOtherNumber(raw: string): boolean {
  const c = raw.charCodeAt(raw.length - 1);
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70) || c === 46 || c === 110 || c === 78;
}

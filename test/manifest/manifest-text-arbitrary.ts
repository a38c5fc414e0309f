/**
 * Manifest-like YAML texts for the fast-path property: nested block and flow mappings and sequences
 * written the ways people write them (and a few ways they do not), with scalars drawn from the corner
 * values and from short strings of YAML's significant characters, comments, blank lines, indentation
 * steps, document markers and line ends. Most stay inside what the fast path reads, so the
 * comparison is not vacuous; the rest probe where it must decline.
 */
import fc from 'fast-check';
import { CORNER_KEYS, CORNER_VALUES } from './yaml-corner-cases.js';

type Scalar = { kind: 'scalar'; text: string };
type Mapping = { kind: 'map'; flow: boolean; entries: Array<{ key: string; value: Node; comment: string }> };
type Sequence = { kind: 'seq'; flow: boolean; items: Node[] };
type Node = Scalar | Mapping | Sequence;

const SIGNIFICANT = ['a', 'b', 'z', 'A', '_', '0', '1', '9', ' ', ' ', '-', '.', '/', ':', '#', ',', '"', "'", '\\', '[', ']', '{', '}', '~', '+', 'e', 'x', 'o', 'n', '\u00e9', '\u65e5', '\ud83d\ude00', '\t', '&', '*', '!', '|', '>', '%', '@', '?'];
const LETTER = ['a', 'b', 'k', 'z', 'Q', 'e', 'n', 'o', 't', 'x'];
const WORD = [...LETTER, '_', '0', '7', '-', '.', '/'];

/** Letters first, then letters, digits and key punctuation: what manifest keys and most values look like. */
const word = fc.tuple(fc.constantFrom(...LETTER), fc.string({ unit: fc.constantFrom(...WORD), maxLength: 7 })).map(([first, rest]) => first + rest);
const edgy = fc.string({ unit: fc.constantFrom(...SIGNIFICANT), minLength: 1, maxLength: 6 });

// Mostly ordinary texts, so most documents stay inside the fast path's subset; a few corner values
// and strings of YAML's significant characters, one of which in a document is usually enough.
const scalarText = fc.oneof(
  { arbitrary: word, weight: 30 },
  { arbitrary: fc.tuple(word, word).map(([a, b]) => `${a} ${b}`), weight: 4 },
  { arbitrary: fc.integer({ min: -1000, max: 100_000 }).map(String), weight: 4 },
  { arbitrary: fc.tuple(fc.constantFrom('"', "'"), word).map(([quote, text]) => `${quote}${text}${quote}`), weight: 4 },
  { arbitrary: fc.constantFrom(...CORNER_VALUES), weight: 2 },
  { arbitrary: edgy, weight: 1 },
  { arbitrary: fc.tuple(fc.constantFrom('"', "'"), edgy).map(([quote, text]) => `${quote}${text}${quote}`), weight: 1 },
);

const key = fc.oneof(
  { arbitrary: word, weight: 40 },
  { arbitrary: fc.constantFrom(...CORNER_KEYS.filter((k) => k.length < 100)), weight: 1 },
  { arbitrary: edgy, weight: 1 },
);

const comment = fc.oneof({ arbitrary: fc.constant(''), weight: 20 }, { arbitrary: fc.constantFrom(' # note', '  #x', '#x', ' #', '\t# t'), weight: 1 });

const { node } = fc.letrec<{ node: Node; scalar: Scalar; map: Mapping; seq: Sequence }>((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, { arbitrary: tie('scalar'), weight: 5 }, { arbitrary: tie('map'), weight: 2 }, { arbitrary: tie('seq'), weight: 2 }),
  scalar: scalarText.map((text): Scalar => ({ kind: 'scalar', text })),
  map: fc
    .record({ flow: fc.boolean(), entries: fc.array(fc.record({ key, value: tie('node'), comment }), { minLength: 1, maxLength: 3 }) })
    .map((m): Mapping => ({ kind: 'map', ...m })),
  seq: fc.record({ flow: fc.boolean(), items: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }).map((s): Sequence => ({ kind: 'seq', ...s })),
}));

/** How a document is laid out: indentation step, where sequences sit, spacing in flow collections. */
interface Layout {
  step: number;
  /** Block sequences under a key at the key's column (`key:\n- x`) instead of indented. */
  compactSequences: boolean;
  flowSpace: string;
}

function renderFlow(value: Node, layout: Layout): string {
  if (value.kind === 'scalar') return value.text;
  const s = layout.flowSpace;
  if (value.kind === 'seq') return `[${s}${value.items.map((item) => renderFlow(item, layout)).join(', ')}${s}]`;
  return `{${s}${value.entries.map((entry) => `${entry.key}: ${renderFlow(entry.value, layout)}`).join(', ')}${s}}`;
}

function isBlock(value: Node): value is Mapping | Sequence {
  return value.kind !== 'scalar' && !value.flow;
}

/** The lines of a block mapping whose keys sit at `indent`; the first key may follow `- ` on its line. */
function renderBlockMap(map: Mapping, indent: number, layout: Layout, firstPrefix?: string): string[] {
  const lines: string[] = [];
  map.entries.forEach((entry, i) => {
    const head = i === 0 && firstPrefix !== undefined ? firstPrefix : ' '.repeat(indent);
    const value = entry.value;
    if (!isBlock(value)) {
      lines.push(`${head}${entry.key}: ${renderFlow(value, layout)}${entry.comment}`);
      return;
    }
    lines.push(`${head}${entry.key}:${entry.comment}`);
    if (value.kind === 'seq') lines.push(...renderBlockSeq(value, layout.compactSequences ? indent : indent + layout.step, layout));
    else lines.push(...renderBlockMap(value, indent + layout.step, layout));
  });
  return lines;
}

function renderBlockSeq(seq: Sequence, indent: number, layout: Layout): string[] {
  const lines: string[] = [];
  const dash = `${' '.repeat(indent)}- `;
  for (const item of seq.items) {
    if (!isBlock(item)) lines.push(`${dash}${renderFlow(item, layout)}`);
    else if (item.kind === 'map') lines.push(...renderBlockMap(item, indent + 2, layout, dash));
    else lines.push(`${' '.repeat(indent)}-`, ...renderBlockSeq(item, indent + 2, layout));
  }
  return lines;
}

const layout = fc.record({ step: fc.constantFrom(2, 2, 2, 4, 1, 3), compactSequences: fc.boolean(), flowSpace: fc.constantFrom('', '', ' ') });

const documentLines = fc.tuple(fc.array(fc.record({ key, value: node, comment }), { minLength: 1, maxLength: 6 }), layout).map(([entries, chosen]) =>
  renderBlockMap({ kind: 'map', flow: false, entries }, 0, chosen),
);

/** A line inserted somewhere: blank, a comment at some indentation, trailing spaces, a marker. */
const noise = fc.record({
  at: fc.nat(),
  line: fc.constantFrom('', '# c', '  # c', '    # c', ' # c', '   ', '...', '---', '- x'),
});

/** Line-level edits that keep most texts readable: few, and most harmless to the fast path. */
function insertNoise(lines: string[], edits: ReadonlyArray<{ at: number; line: string }>): string[] {
  const result = [...lines];
  for (const { at, line } of edits) result.splice(at % (result.length + 1), 0, line);
  return result;
}

/** One to three documents, separated by `---`, with optional noise, BOM, CRLF and final newline. */
export const manifestText: fc.Arbitrary<string> = fc
  .record({
    documents: fc.array(documentLines, { minLength: 1, maxLength: 3 }),
    edits: fc.oneof({ arbitrary: fc.constant([]), weight: 6 }, { arbitrary: fc.array(noise, { minLength: 1, maxLength: 2 }), weight: 1 }),
    leading: fc.oneof({ arbitrary: fc.constant(''), weight: 8 }, { arbitrary: fc.constantFrom('---\n', '# head\n', '# head\n---\n', '\ufeff'), weight: 2 }),
    lineEnd: fc.oneof({ arbitrary: fc.constant('\n'), weight: 12 }, { arbitrary: fc.constant('\r\n'), weight: 1 }),
    finalNewline: fc.constantFrom(true, true, true, false),
  })
  .map(({ documents, edits, leading, lineEnd, finalNewline }) => {
    const lines = insertNoise(documents.flatMap((doc, i) => (i === 0 ? doc : ['---', ...doc])), edits);
    return leading + lines.join(lineEnd) + (finalNewline ? lineEnd : '');
  });

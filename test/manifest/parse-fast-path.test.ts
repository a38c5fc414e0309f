/**
 * The differential test of the manifest parser's fast path (parse-simple.ts) against yaml, its
 * reference: on every input below, the fast path either declines (yaml then reads the file) or gives
 * yaml's values, diagnostics and positions (see fast-path-oracle.ts for what is compared).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createRandom } from '../../bench/shared/seeded-random.js';
import { generateManifests } from '../../bench/validate/generate.js';
import { parseManifestWithYaml } from '../../src/manifest/parse.js';
import { createRereadingLocator, createSourceRereading, type ReferenceParser } from '../../src/manifest/parse-simple.js';
import type { ManifestSource } from '../../src/manifest/parsed-document.js';
import { runOptions } from '../hostile/run-options.js';
import { repoRoot } from './check-manifests.js';
import { compareWithYaml } from './fast-path-oracle.js';
import { manifestText } from './manifest-text-arbitrary.js';
import { CORNER_CASES, mutateManifest } from './yaml-corner-cases.js';

function listYaml(directory: string): string[] {
  return readdirSync(directory)
    .sort()
    .flatMap((name) => {
      const full = path.join(directory, name);
      if (statSync(full).isDirectory()) return listYaml(full);
      return /\.ya?ml$/.test(name) ? [full] : [];
    });
}

function readSources(directory: string): ManifestSource[] {
  return listYaml(directory).map((file) => ({ file: path.relative(directory, file), text: readFileSync(file, 'utf8') }));
}

/** Compares every source with yaml; returns the mismatches and how many the fast path read. */
function compareAll(sources: readonly ManifestSource[]): { accepted: number; mismatches: string[] } {
  let accepted = 0;
  const mismatches: string[] = [];
  for (const source of sources) {
    const result = compareWithYaml(source);
    if (result.accepted) accepted += 1;
    if (result.problems.length > 0) mismatches.push(`${source.file} ${JSON.stringify(source.text)}\n  ${result.problems.slice(0, 5).join('\n  ')}`);
  }
  return { accepted, mismatches };
}

const scratch = mkdtempSync(path.join(tmpdir(), 'cronform-fast-path-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// A slice of the validate benchmark's corpus: the manifests the fast path exists for.
generateManifests(scratch, { scheduleCount: 40, seed: 7 });
const corpus = readSources(scratch);
const repository = [...readSources(path.join(repoRoot, 'schedules')), ...readSources(path.join(repoRoot, 'test'))];

describe('parser fast path agrees with yaml', () => {
  it('on the repository manifests and test fixtures', () => {
    const { accepted, mismatches } = compareAll(repository);
    expect(mismatches).toEqual([]);
    // The valid examples are what the fast path is for: it must read them, not decline them all.
    expect(accepted).toBeGreaterThanOrEqual(7);
  });

  it('on the benchmark corpus, reading all of it', () => {
    const { accepted, mismatches } = compareAll(corpus);
    expect(mismatches).toEqual([]);
    expect(accepted).toBe(corpus.length);
  });

  it('on hand-picked corner cases', () => {
    const { accepted, mismatches } = compareAll(CORNER_CASES.map((text, i) => ({ file: `case-${i}.yaml`, text })));
    expect(mismatches).toEqual([]);
    expect(accepted).toBeGreaterThan(CORNER_CASES.length / 4);
  });

  it('on seeded mutations of the corpus and repository manifests', () => {
    const random = createRandom(20_261_129).next;
    const mutated: ManifestSource[] = [];
    for (const source of [...repository, ...corpus]) {
      for (let i = 0; i < 6; i += 1) {
        let text = source.text;
        for (let edits = 1 + Math.floor(random() * 3); edits > 0; edits -= 1) text = mutateManifest(text, random);
        mutated.push({ file: `${source.file}#${i}`, text });
      }
    }
    const { accepted, mismatches } = compareAll(mutated);
    expect(mismatches.slice(0, 10)).toEqual([]);
    // Many mutations stay inside the fast path's subset; those are the ones that test it.
    expect(accepted).toBeGreaterThan(mutated.length / 10);
  });

  it('on generated manifests (property)', () => {
    let accepted = 0;
    let runs = 0;
    fc.assert(
      fc.property(manifestText, (text) => {
        const result = compareWithYaml({ file: 'generated.yaml', text });
        runs += 1;
        if (result.accepted) accepted += 1;
        expect(result.problems).toEqual([]);
      }),
      runOptions(500),
    );
    expect(accepted).toBeGreaterThan(runs / 10);
  });
});

// The second reading of a fast-path document can only disagree with the first through a bug in the
// reader; these hand it a text or a root that disagree on purpose.
describe('a fast-path document whose text reads differently the second time', () => {
  const root = { line: 1, column: 1 };
  const locatorOf = (source: ManifestSource, index: number, at: typeof root, reference: ReferenceParser) =>
    createRereadingLocator(createSourceRereading(source, reference), index, at);

  it('reads the text again, not yaml, when both readings agree', () => {
    const reference = vi.fn(parseManifestWithYaml);
    const locator = locatorOf({ file: 'm.yaml', text: 'a: 1\nb: [x, "q"]\n' }, 0, root, reference);
    expect(locator.locate(['b', 1])).toEqual({ line: 2, column: 8 });
    expect(reference).not.toHaveBeenCalled();
  });

  it('takes its positions from yaml when the second reading declines', () => {
    // The anchor is outside the fast path's subset, so reading it again gives up, as a bug would.
    const reference = vi.fn(parseManifestWithYaml);
    const locator = locatorOf({ file: 'm.yaml', text: 'a: &x 1\nb: [*x, "q"]\n' }, 0, root, reference);
    expect(locator.locate(['b', 1])).toEqual({ line: 2, column: 9 });
    expect(locator.locate(['b', 0], 'value')).toEqual({ line: 2, column: 5 });
    expect(locator.locateInScalar(['b', 1], 0)).toEqual({ line: 2, column: 10 });
    expect(locator.locate([])).toEqual(root);
    // yaml is asked once per document, not per question.
    expect(reference).toHaveBeenCalledTimes(1);
  });

  it('takes its positions from yaml when the document starts elsewhere', () => {
    const reference = vi.fn(parseManifestWithYaml);
    const locator = locatorOf({ file: 'm.yaml', text: '# c\na: 1\n' }, 0, root, reference);
    expect(locator.locate(['a'], 'value')).toEqual({ line: 2, column: 4 });
    expect(reference).toHaveBeenCalledTimes(1);
  });

  it('reads a file again once for all its documents, not once per document', () => {
    const reference = vi.fn(parseManifestWithYaml);
    const source = { file: 'm.yaml', text: 'a: &x 1\n---\nb: [*x]\n---\nc: 3\n' };
    const rereading = createSourceRereading(source, reference);
    const roots = [root, { line: 3, column: 1 }, { line: 5, column: 1 }];
    const keys = ['a', 'b', 'c'];
    const positions = roots.map((at, index) => createRereadingLocator(rereading, index, at).locate([keys[index]!], 'key'));
    expect(positions).toEqual([{ line: 1, column: 1 }, { line: 3, column: 1 }, { line: 5, column: 1 }]);
    expect(reference).toHaveBeenCalledTimes(1);
  });

  it('points every path at the root when yaml has no such document either', () => {
    const locator = locatorOf({ file: 'm.yaml', text: 'a: 1\n' }, 1, { line: 3, column: 1 }, parseManifestWithYaml);
    expect(locator.locate(['a'], 'key')).toEqual({ line: 3, column: 1 });
    expect(locator.locateInScalar(['a'], 2)).toEqual({ line: 3, column: 1 });
  });
});

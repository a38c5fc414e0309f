/**
 * The differential test of the manifest parser's fast path (parse-simple.ts) against yaml, its
 * reference: on every input below, the fast path either declines (yaml then reads the file) or gives
 * yaml's values, diagnostics and positions (see fast-path-oracle.ts for what is compared).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createRandom } from '../../bench/shared/seeded-random.js';
import { generateManifests } from '../../bench/validate/generate.js';
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

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, digestOf } from '../../src/compile/digest.js';

/** The first implementation, kept as the oracle: stored digests must never change. */
function referenceCanonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(referenceCanonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${referenceCanonicalJson(v)}`).join(',')}}`;
}

describe('canonicalJson', () => {
  it('sorts keys by code unit, drops undefined members and writes undefined items as null', () => {
    expect(canonicalJson({ b: 1, a: [undefined, 'x'], c: undefined, '10': true, '9': null, é: 'é' })).toBe('{"10":true,"9":null,"a":[null,"x"],"b":1,"é":"é"}');
  });

  it('escapes what JSON escapes, and nothing else', () => {
    const texts = ['plain', 'quote " and \\ backslash', 'tab\tand\nnewline', '\u0000\u001f\u007f', 'lone \uD800 surrogate', 'pair 😀', '\uE000\uFFFF', ''];
    for (const text of texts) expect(canonicalJson(text)).toBe(JSON.stringify(text));
    expect(canonicalJson({ [texts[1]!]: texts[2] })).toBe(referenceCanonicalJson({ [texts[1]!]: texts[2] }));
  });

  it('keeps holes and non-JSON values as the first implementation wrote them', () => {
    // eslint-disable-next-line no-sparse-arrays
    const sparse = [1, , 3];
    for (const value of [sparse, [() => 1], { f: () => 1 }, Number.NaN, Infinity, -0, new Date(0), undefined, true])
      expect(canonicalJson(value)).toBe(referenceCanonicalJson(value));
  });

  it('matches the first implementation on arbitrary JSON-like values', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withObjectString: false, withBigInt: false, withSparseArray: true }), (value) => {
        expect(canonicalJson(value)).toBe(referenceCanonicalJson(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('digests the canonical text', () => {
    expect(digestOf({ b: 2, a: 1 })).toBe(digestOf({ a: 1, b: 2 }));
    expect(digestOf({ a: 1 })).toBe('sha256:015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862');
  });
});

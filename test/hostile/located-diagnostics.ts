/**
 * "Always gives located diagnostics": every diagnostic names one of the input files, a 1-based
 * line and column, a stable CFnnn code and a message.
 */
import { expect } from 'vitest';
import type { Diagnostic } from '../../src/shared/diagnostics.js';

const CODE = /^CF\d{3}$/;

/** The checks of `expectLocated` as one test; properties call it thousands of times, mostly passing. */
function isLocated(d: Diagnostic, files: readonly string[]): boolean {
  return d.file !== undefined && files.includes(d.file) && Number.isInteger(d.line) && d.line! >= 1 && Number.isInteger(d.column) && d.column! >= 1 && CODE.test(d.code) && d.message.trim() !== '' && (d.severity === 'error' || d.severity === 'warning');
}

export function expectLocated(diagnostics: readonly Diagnostic[], files: readonly string[]): void {
  for (const d of diagnostics) {
    // The matchers below fail with the diagnostic shown; running them only when a check fails
    // keeps a property's thousands of passing runs out of the matcher machinery.
    if (isLocated(d, files)) continue;
    const shown = JSON.stringify(d);
    expect(files, shown).toContain(d.file);
    expect(Number.isInteger(d.line) && d.line! >= 1, shown).toBe(true);
    expect(Number.isInteger(d.column) && d.column! >= 1, shown).toBe(true);
    expect(d.code, shown).toMatch(CODE);
    expect(d.message.trim(), shown).not.toBe('');
    expect(['error', 'warning'], shown).toContain(d.severity);
  }
}

export function errorsOf(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => d.severity === 'error');
}

/**
 * "Always gives located diagnostics": every diagnostic names one of the input files, a 1-based
 * line and column, a stable CFnnn code and a message.
 */
import { expect } from 'vitest';
import type { Diagnostic } from '../../src/shared/diagnostics.js';

const CODE = /^CF\d{3}$/;

export function expectLocated(diagnostics: readonly Diagnostic[], files: readonly string[]): void {
  for (const d of diagnostics) {
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

/**
 * Errors a user can fix are values (STYLE rule 7): every problem found in manifests is a
 * Diagnostic with a stable code and a location, collected rather than thrown.
 */
export type Severity = 'error' | 'warning';

export interface Diagnostic {
  severity: Severity;
  /** Stable code, e.g. CF012. The catalogue lives in `diagnostic-codes.ts`. */
  code: string;
  message: string;
  /** Path of the file as the user named it (relative when the user gave a relative path). */
  file?: string;
  /** 1-based line and column of the offending node. */
  line?: number;
  column?: number;
  /** Dotted path of the offending value inside the document, e.g. `spec.timezone`. */
  path?: string;
  hint?: string;
}

export function formatLocation(d: Pick<Diagnostic, 'file' | 'line' | 'column'>): string {
  if (!d.file) return '';
  if (d.line === undefined) return d.file;
  return `${d.file}:${d.line}:${d.column ?? 1}`;
}

/** `schedules/jobs.yaml:12:7 error CF012 timezone must be an IANA zone (got "KST")` */
export function formatDiagnostic(d: Diagnostic): string {
  const location = formatLocation(d);
  const head = `${location ? `${location} ` : ''}${d.severity} ${d.code} ${d.message}`;
  return d.hint ? `${head}\n  hint: ${d.hint}` : head;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** Stable order for output: by file, line, column, then code. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      (a.file ?? '').localeCompare(b.file ?? '') ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0) ||
      a.code.localeCompare(b.code),
  );
}

export function summarizeDiagnostics(diagnostics: readonly Diagnostic[], fileCount: number): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  const files = `${fileCount} ${fileCount === 1 ? 'file' : 'files'}`;
  if (diagnostics.length === 0) return `✔ no problems in ${files}`;
  const problems = `${diagnostics.length} ${diagnostics.length === 1 ? 'problem' : 'problems'}`;
  return `✖ ${problems} (${errors} ${errors === 1 ? 'error' : 'errors'}, ${warnings} ${warnings === 1 ? 'warning' : 'warnings'}) in ${files}`;
}

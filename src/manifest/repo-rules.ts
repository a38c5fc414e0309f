/**
 * Rules that look across all documents of the repository at once: schedule names are the identity
 * of schedules in the database, so two manifests claiming one name would overwrite each other's
 * history; and limits can come from one Policy only.
 */
import { DiagnosticCodes } from '../shared/diagnostic-codes.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import type { ParsedDocument } from './parse.js';

interface Occurrence {
  file: string;
  line: number;
  column: number;
}

/** Where a first occurrence is, looked up only if a later one is reported (without its value). */
type FirstOccurrence = Pick<ParsedDocument, 'file' | 'locate'>;

/**
 * Documents are added in the order given (files in load order, documents in file order); the first
 * occurrence is the reference and every later one is reported, naming where the first is. Positions
 * are looked up only for the documents reported: locating may read a file again (`parse.ts`), and
 * what is kept of a first occurrence is its locator, not its value, so documents can be added as
 * they are parsed and dropped after.
 */
export class RepositoryRules {
  readonly diagnostics: Diagnostic[] = [];
  private readonly scheduleNames = new Map<string, FirstOccurrence>();
  private firstPolicy: FirstOccurrence | undefined;

  add(doc: ParsedDocument): void {
    const value = doc.value as { kind?: unknown; metadata?: { name?: unknown } } | null;
    const kind = value?.kind;
    if (kind === 'Schedule' && typeof value?.metadata?.name === 'string') {
      const name = value.metadata.name;
      const first = this.scheduleNames.get(name);
      if (!first) {
        this.scheduleNames.set(name, { file: doc.file, locate: doc.locate });
        return;
      }
      this.diagnostics.push({
        severity: 'error',
        code: DiagnosticCodes.DUPLICATE_NAME,
        message: `schedule name "${name}" is already used at ${formatOccurrence(locateOccurrence(first, ['metadata', 'name']))}`,
        ...locateOccurrence(doc, ['metadata', 'name']),
        path: 'metadata.name',
        hint: 'names identify schedules and their history: give each schedule its own name',
      });
    } else if (kind === 'Policy') {
      if (!this.firstPolicy) {
        this.firstPolicy = { file: doc.file, locate: doc.locate };
        return;
      }
      this.diagnostics.push({
        severity: 'error',
        code: DiagnosticCodes.MULTIPLE_POLICIES,
        message: `only one Policy is allowed per repository; the first is at ${formatOccurrence(locateOccurrence(this.firstPolicy, ['kind']))}`,
        ...locateOccurrence(doc, ['kind']),
        path: 'kind',
        hint: 'merge the policies into one document',
      });
    }
  }
}

export function checkRepositoryRules(docs: readonly ParsedDocument[]): Diagnostic[] {
  const rules = new RepositoryRules();
  for (const doc of docs) rules.add(doc);
  return rules.diagnostics;
}

function locateOccurrence(doc: FirstOccurrence, path: readonly string[]): Occurrence {
  return { file: doc.file, ...doc.locate(path, 'value') };
}

function formatOccurrence(occurrence: Occurrence): string {
  return `${occurrence.file}:${occurrence.line}:${occurrence.column}`;
}

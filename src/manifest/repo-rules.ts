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

/**
 * Documents are taken in the order given (files in load order, documents in file order); the first
 * occurrence is the reference and every later one is reported, naming where the first is. Positions
 * are looked up only for the documents reported: locating may read a file again (`parse.ts`).
 */
export function checkRepositoryRules(docs: readonly ParsedDocument[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const scheduleNames = new Map<string, ParsedDocument>();
  let firstPolicy: ParsedDocument | undefined;
  for (const doc of docs) {
    const value = doc.value as { kind?: unknown; metadata?: { name?: unknown } } | null;
    const kind = value?.kind;
    if (kind === 'Schedule' && typeof value?.metadata?.name === 'string') {
      const name = value.metadata.name;
      const first = scheduleNames.get(name);
      if (!first) {
        scheduleNames.set(name, doc);
        continue;
      }
      diagnostics.push({
        severity: 'error',
        code: DiagnosticCodes.DUPLICATE_NAME,
        message: `schedule name "${name}" is already used at ${formatOccurrence(locateOccurrence(first, ['metadata', 'name']))}`,
        ...locateOccurrence(doc, ['metadata', 'name']),
        path: 'metadata.name',
        hint: 'names identify schedules and their history: give each schedule its own name',
      });
    } else if (kind === 'Policy') {
      if (!firstPolicy) {
        firstPolicy = doc;
        continue;
      }
      diagnostics.push({
        severity: 'error',
        code: DiagnosticCodes.MULTIPLE_POLICIES,
        message: `only one Policy is allowed per repository; the first is at ${formatOccurrence(locateOccurrence(firstPolicy, ['kind']))}`,
        ...locateOccurrence(doc, ['kind']),
        path: 'kind',
        hint: 'merge the policies into one document',
      });
    }
  }
  return diagnostics;
}

function locateOccurrence(doc: ParsedDocument, path: readonly string[]): Occurrence {
  return { file: doc.file, ...doc.locate(path, 'value') };
}

function formatOccurrence(occurrence: Occurrence): string {
  return `${occurrence.file}:${occurrence.line}:${occurrence.column}`;
}

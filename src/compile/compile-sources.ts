/**
 * The pure pipeline from manifest text to compiled definitions:
 * parse (positions) → value limits → JSON Schema → secrets → repository rules → Policy →
 * schedule rules → compile. Every problem is collected; a document with schema errors is not
 * checked further (its semantic diagnostics would be noise), and only clean schedules are compiled.
 */
import type { ManifestSource } from '../manifest/load.js';
import { parseManifestSource, type ParsedDocument } from '../manifest/parse.js';
import { validateDocumentSchema } from '../manifest/validate-schema.js';
import { checkValueLimits } from '../manifest/value-limits.js';
import { findLiteralSecrets } from '../manifest/secrets.js';
import { checkRepositoryRules } from '../manifest/repo-rules.js';
import type { PolicyManifest, ScheduleManifest } from '../manifest/schema-types.js';
import { hasErrors, sortDiagnostics, type Diagnostic } from '../shared/diagnostics.js';
import { compilePolicy } from './compile-policy.js';
import { compileSchedule } from './compile-schedule.js';
import type { CompiledSchedule, PolicyDefinition } from './definition.js';
import { checkScheduleRules } from './schedule-rules.js';

export interface CompileResult {
  schedules: CompiledSchedule[];
  policy: PolicyDefinition;
  diagnostics: Diagnostic[];
  /** Number of Schedule documents seen, valid or not. */
  scheduleDocuments: number;
}

function kindOf(doc: ParsedDocument): unknown {
  return (doc.value as { kind?: unknown }).kind;
}

export function compileSources(sources: readonly ManifestSource[], nowMs: number): CompileResult {
  const diagnostics: Diagnostic[] = [];
  const schemaValid: ParsedDocument[] = [];
  const documents: ParsedDocument[] = [];
  // Checked by the schedule rules like any other document, but never compiled: a definition is what
  // plans, previews and the database hold, and a literal secret must reach none of them.
  const withSecrets = new Set<ParsedDocument>();
  for (const source of sources) {
    const parsed = parseManifestSource(source);
    diagnostics.push(...parsed.diagnostics);
    for (const doc of parsed.documents) {
      documents.push(doc);
      // Values that cannot be stored, or that would overflow the recursive steps below, stop here.
      const limitDiagnostics = checkValueLimits(doc);
      if (limitDiagnostics.length > 0) {
        diagnostics.push(...limitDiagnostics);
        continue;
      }
      const schemaDiagnostics = validateDocumentSchema(doc);
      const secretDiagnostics = findLiteralSecrets(doc);
      diagnostics.push(...schemaDiagnostics, ...secretDiagnostics);
      if (schemaDiagnostics.length === 0) schemaValid.push(doc);
      if (hasErrors(secretDiagnostics)) withSecrets.add(doc);
    }
  }
  diagnostics.push(...checkRepositoryRules(documents));

  const policyDoc = schemaValid.find((doc) => kindOf(doc) === 'Policy');
  const policy = compilePolicy(policyDoc?.value as PolicyManifest | undefined, policyDoc ? { file: policyDoc.file, ...policyDoc.locate([]) } : null);

  const schedules: CompiledSchedule[] = [];
  const names = new Set<string>();
  for (const doc of schemaValid) {
    if (kindOf(doc) !== 'Schedule') continue;
    const manifest = doc.value as ScheduleManifest;
    const result = checkScheduleRules(doc, manifest, policy, nowMs);
    diagnostics.push(...result.diagnostics);
    // A duplicate name is reported by the repository rules; only its first occurrence compiles.
    if (!result.cron || hasErrors(result.diagnostics) || withSecrets.has(doc) || names.has(manifest.metadata.name)) continue;
    names.add(manifest.metadata.name);
    schedules.push(compileSchedule(manifest, result.cron, doc));
  }
  const scheduleDocuments = documents.filter((doc) => kindOf(doc) === 'Schedule').length;
  return { schedules, policy, diagnostics: sortDiagnostics(diagnostics), scheduleDocuments };
}

/**
 * The pure pipeline from manifest text to compiled definitions:
 * parse (positions) → value limits → JSON Schema → secrets → repository rules → Policy →
 * schedule rules → compile. Every problem is collected; a document with schema errors is not
 * checked further (its semantic diagnostics would be noise), and only clean schedules are compiled.
 *
 * Each document goes through every step as soon as it is parsed, once the Policy is known (the first
 * schema-valid one, in load order; schedules before it wait for it, and for the defaults when there
 * is none), so a document's value is garbage soon after instead of staying reachable until all are
 * parsed: for 10,000 schedules that was ~14 MB that every scavenge copied and then promoted. The
 * diagnostics are collected in the order the steps had when they ran one after the other.
 */
import type { ManifestSource } from '../manifest/load.js';
import { parseManifestSource, type ParsedDocument } from '../manifest/parse.js';
import { validateDocumentSchema } from '../manifest/validate-schema.js';
import { checkValueLimits } from '../manifest/value-limits.js';
import { findLiteralSecrets } from '../manifest/secrets.js';
import { checkAlertTargets } from '../manifest/alert-targets.js';
import { RepositoryRules } from '../manifest/repo-rules.js';
import type { PolicyManifest, ScheduleManifest } from '../manifest/schema-types.js';
import { hasErrors, sortDiagnostics, type Diagnostic } from '../shared/diagnostics.js';
import { compilePolicy } from './compile-policy.js';
import { compileSchedule } from './compile-schedule.js';
import type { CompiledSchedule, PolicyDefinition } from './definition.js';
import { checkScheduleRules } from './schedule-rules.js';
import { checkDependencies, type DependencyNode } from './dependency-rules.js';
import { checkRetention } from './retention-rules.js';

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
  const repository = new RepositoryRules();
  const ruleDiagnostics: Diagnostic[] = [];
  const schedules: CompiledSchedule[] = [];
  const names = new Set<string>();
  let scheduleDocuments = 0;
  let policy: PolicyDefinition | undefined;
  let waitingForPolicy: Array<{ doc: ParsedDocument; withSecrets: boolean }> = [];
  // spec.after is checked across the repository once every document is known (dependency-rules.ts).
  const knownSchedules = new Map<string, { enabled: boolean }>();
  const dependents: DependencyNode[] = [];

  // A document with a literal secret is checked by the schedule rules like any other, but never
  // compiled: a definition is what plans, previews and the database hold, and a secret must reach none.
  const checkSchedule = (doc: ParsedDocument, withSecrets: boolean, policy: PolicyDefinition) => {
    const manifest = doc.value as ScheduleManifest;
    const result = checkScheduleRules(doc, manifest, policy, nowMs);
    ruleDiagnostics.push(...result.diagnostics);
    // A duplicate name is reported by the repository rules; only its first occurrence compiles.
    if (result.cron === undefined || hasErrors(result.diagnostics) || withSecrets || names.has(manifest.metadata.name)) return;
    names.add(manifest.metadata.name);
    // The locator without the document: a compiled schedule keeps it (locateField), not the value.
    schedules.push(compileSchedule(manifest, result.cron, { file: doc.file, locate: doc.locate }));
  };

  for (const source of sources) {
    const parsed = parseManifestSource(source);
    diagnostics.push(...parsed.diagnostics);
    for (const doc of parsed.documents) {
      const kind = kindOf(doc);
      if (kind === 'Schedule') {
        scheduleDocuments += 1;
        const value = doc.value as { metadata?: { name?: unknown }; spec?: { enabled?: unknown } };
        if (typeof value.metadata?.name === 'string' && !knownSchedules.has(value.metadata.name)) {
          knownSchedules.set(value.metadata.name, { enabled: value.spec?.enabled !== false });
        }
      }
      repository.add(doc);
      // Values that cannot be stored, or that would overflow the recursive steps below, stop here.
      const limitDiagnostics = checkValueLimits(doc);
      if (limitDiagnostics.length > 0) {
        diagnostics.push(...limitDiagnostics);
        continue;
      }
      const schemaDiagnostics = validateDocumentSchema(doc);
      const secretDiagnostics = kind === 'Policy' ? [...checkAlertTargets(doc), ...(schemaDiagnostics.length === 0 ? checkRetention(doc, (doc.value as PolicyManifest).spec?.retention) : [])] : findLiteralSecrets(doc);
      diagnostics.push(...schemaDiagnostics, ...secretDiagnostics);
      if (schemaDiagnostics.length > 0) continue;
      // A Policy with a literal secret, an ambiguous alert target or a too short retention is never compiled, so neither
      // reaches a plan nor the database: the defaults stand in while it is fixed.
      if (kind === 'Policy' && hasErrors(secretDiagnostics)) continue;
      if (kind === 'Policy' && policy === undefined) {
        policy = compilePolicy(doc.value as PolicyManifest, { file: doc.file, ...doc.locate([]) });
        for (const waiting of waitingForPolicy) checkSchedule(waiting.doc, waiting.withSecrets, policy);
        waitingForPolicy = [];
      } else if (kind === 'Schedule') {
        const withSecrets = hasErrors(secretDiagnostics);
        const { metadata, spec } = doc.value as ScheduleManifest;
        if (spec.after) {
          dependents.push({ name: metadata.name, enabled: spec.enabled ?? true, after: spec.after.map((entry) => entry.schedule), file: doc.file, locateEntry: (index) => doc.locate(['spec', 'after', index, 'schedule']) });
        }
        if (policy) checkSchedule(doc, withSecrets, policy);
        else waitingForPolicy.push({ doc, withSecrets });
      }
    }
  }
  policy ??= compilePolicy(undefined, null);
  for (const waiting of waitingForPolicy) checkSchedule(waiting.doc, waiting.withSecrets, policy);
  ruleDiagnostics.push(...checkDependencies(dependents, knownSchedules));
  return { schedules, policy, diagnostics: sortDiagnostics([...diagnostics, ...repository.diagnostics, ...ruleDiagnostics]), scheduleDocuments };
}

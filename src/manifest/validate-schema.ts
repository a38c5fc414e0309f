/**
 * JSON Schema validation of one manifest document against `schema/cronform.schema.json`, with ajv
 * errors turned into located, deduplicated diagnostics (wording in `schema-messages.ts`). The limits
 * the schema cannot express are in `value-limits.ts`.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { DiagnosticCodes } from '../shared/diagnostic-codes.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import { suggestClosest } from './did-you-mean.js';
import type { ParsedDocument } from './parse.js';
import { API_VERSION, DOCUMENT_KINDS } from './schema-document.js';
import { createDiagnostic, describeAnyOfError, describeSchemaError, formatPath, toDocumentPath, type VerboseError } from './schema-messages.js';
import { validate } from './schema-validator.generated.js';

// Compiled from the schema at build time (`npm run gen:validator`, where the ajv options are):
// loading ajv and compiling the schema cost ~100 ms of every start-up, validating a document
// microseconds.
const validateManifest = validate as ValidateFunction;

export function validateDocumentSchema(doc: ParsedDocument): Diagnostic[] {
  // A wrong apiVersion or kind makes every other complaint meaningless: report only that.
  const identity = checkApiVersionAndKind(doc);
  if (identity.length > 0) return identity;
  if (validateManifest(doc.value)) return [];
  return deduplicate(mapErrors((validateManifest.errors ?? []) as VerboseError[], doc));
}

function checkApiVersionAndKind(doc: ParsedDocument): Diagnostic[] {
  const value = doc.value as Record<string, unknown>;
  const diagnostics: Diagnostic[] = [];
  const code = DiagnosticCodes.API_VERSION_OR_KIND;
  const kinds = DOCUMENT_KINDS.join(' or ');
  if (!Object.hasOwn(value, 'apiVersion')) {
    diagnostics.push(createDiagnostic(doc, code, `missing apiVersion: expected "${API_VERSION}"`, ['apiVersion'], { at: [] }));
  } else if (value.apiVersion !== API_VERSION) {
    const message = `apiVersion must be "${API_VERSION}" (got ${JSON.stringify(value.apiVersion)})`;
    diagnostics.push(createDiagnostic(doc, code, message, ['apiVersion']));
  }
  if (!Object.hasOwn(value, 'kind')) {
    diagnostics.push(createDiagnostic(doc, code, `missing kind: expected ${kinds}`, ['kind'], { at: [] }));
  } else if (!DOCUMENT_KINDS.includes(value.kind as string)) {
    const suggestion = typeof value.kind === 'string' ? suggestClosest(value.kind, DOCUMENT_KINDS) : undefined;
    const message = `kind must be ${kinds} (got ${JSON.stringify(value.kind)})`;
    diagnostics.push(createDiagnostic(doc, code, message, ['kind'], { hint: suggestion && `did you mean "${suggestion}"?` }));
  }
  return diagnostics;
}

/**
 * ajv reports a failed `anyOf` as the errors of every alternative followed by the `anyOf` error
 * itself. Alternatives that failed on `type` simply did not apply; if another alternative failed for a
 * better reason (an unknown field in `{ fromEnv }`, a status code above 599) that reason is reported,
 * otherwise one message lists the alternatives.
 */
function mapErrors(errors: VerboseError[], doc: ParsedDocument): Diagnostic[] {
  const skipped = new Set<number>();
  const summarized = new Set<number>();
  const diagnostics: Diagnostic[] = [];
  errors.forEach((error, index) => {
    if (error.keyword !== 'anyOf') return;
    if (error.parentSchema?.title === 'ScheduleJob') {
      diagnostics.push(...selectJobBranch(errors, index, doc, skipped));
      return;
    }
    const branches = collectBranchErrors(errors, index);
    const notApplicable = branches.filter((i) => errors[i]?.keyword === 'type');
    for (const i of notApplicable) skipped.add(i);
    if (notApplicable.length === branches.length) summarized.add(index);
    else skipped.add(index);
  });
  errors.forEach((error, index) => {
    // Errors of the pattern inside `propertyNames` are restated by the propertyNames error; a failed
    // `if`/`then` (cron required unless spec.after) is restated by the `required` error inside it.
    if (skipped.has(index) || error.propertyName !== undefined || error.keyword === 'if') return;
    const diagnostic = summarized.has(index) ? describeAnyOfError(error, doc) : describeSchemaError(error, doc);
    if (diagnostic) diagnostics.push(diagnostic);
  });
  return diagnostics;
}

/**
 * `spec.job` is one job (`type: command | http`) or a workflow (`steps`). Whether `steps` is
 * written says which the author meant, so only that alternative's errors are reported: the other
 * one's ("missing field type", "unknown field command") would only mislead. A job with both gets
 * one located error of its own (CF070) instead of "unknown field type".
 */
function selectJobBranch(errors: VerboseError[], anyOfIndex: number, doc: ParsedDocument, skipped: Set<number>): Diagnostic[] {
  const anyOf = errors[anyOfIndex]!;
  skipped.add(anyOfIndex);
  const job = anyOf.data !== null && typeof anyOf.data === 'object' && !Array.isArray(anyOf.data) ? (anyOf.data as Record<string, unknown>) : undefined;
  const wantsSteps = job !== undefined && Object.hasOwn(job, 'steps');
  const diagnostics: Diagnostic[] = [];
  for (const index of collectBranchErrors(errors, anyOfIndex)) {
    const error = errors[index]!;
    const inSteps = error.parentSchema?.title === 'StepsJob' || error.instancePath.startsWith(`${anyOf.instancePath}/steps`);
    const typeBesideSteps = wantsSteps && error.keyword === 'additionalProperties' && (error.params as { additionalProperty?: unknown }).additionalProperty === 'type';
    if (inSteps !== wantsSteps || typeBesideSteps) skipped.add(index);
  }
  if (wantsSteps && Object.hasOwn(job!, 'type')) {
    const path = toDocumentPath(anyOf.instancePath, doc.value);
    diagnostics.push(
      createDiagnostic(doc, DiagnosticCodes.JOB_AND_STEPS, `${formatPath(path)} has both type and steps: a job is either one command or http job, or a list of steps`, [...path, 'type'], {
        target: 'key',
        hint: 'move the job into a step (each step has its own name and type), or remove steps',
      }),
    );
  }
  return diagnostics;
}

/** Indexes of the errors just before an `anyOf` error that concern its value: its alternatives' errors. */
function collectBranchErrors(errors: VerboseError[], anyOfIndex: number): number[] {
  const path = errors[anyOfIndex]?.instancePath ?? '';
  const indexes: number[] = [];
  for (let i = anyOfIndex - 1; i >= 0; i--) {
    const candidate = errors[i]?.instancePath ?? '';
    if (candidate !== path && !candidate.startsWith(`${path}/`)) break;
    indexes.unshift(i);
  }
  return indexes;
}

function deduplicate(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = `${d.code}\u0000${d.path ?? ''}\u0000${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

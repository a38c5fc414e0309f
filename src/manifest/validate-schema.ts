/**
 * JSON Schema validation of one manifest document against `schema/cronform.schema.json`, with ajv
 * errors turned into located, deduplicated diagnostics (wording in `schema-messages.ts`), and the
 * limits on values that the schema cannot express (`checkValueLimits`).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import { DiagnosticCodes } from '../shared/diagnostic-codes.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import { suggestClosest } from './did-you-mean.js';
import { MAX_DEPTH, MAX_DURATION_MS, MAX_MANIFEST_INTEGER } from './limits.js';
import type { DocumentPath, ParsedDocument } from './parse.js';
import { API_VERSION, DOCUMENT_KINDS, cronformSchema } from './schema-document.js';
import { createDiagnostic, describeAnyOfError, describeSchemaError, formatPath, type VerboseError } from './schema-messages.js';

// Compiled once per process: compiling costs milliseconds, validating a document microseconds.
// `discriminator` makes ajv pick the kind/type branch itself, so a Schedule with a typo gets the
// Schedule's errors only, never the union of what every branch of a oneOf disliked.
const ajv = new Ajv2020({ allErrors: true, strict: true, discriminator: true, verbose: true });
formatsPlugin.default(ajv, ['date', 'uri']);
const validateManifest = ajv.compile(cronformSchema);

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
  errors.forEach((error, index) => {
    if (error.keyword !== 'anyOf') return;
    const branches = collectBranchErrors(errors, index);
    const notApplicable = branches.filter((i) => errors[i]?.keyword === 'type');
    for (const i of notApplicable) skipped.add(i);
    if (notApplicable.length === branches.length) summarized.add(index);
    else skipped.add(index);
  });
  const diagnostics: Diagnostic[] = [];
  errors.forEach((error, index) => {
    // Errors of the pattern inside `propertyNames` are restated by the propertyNames error.
    if (skipped.has(index) || error.propertyName !== undefined) return;
    const diagnostic = summarized.has(index) ? describeAnyOfError(error, doc) : describeSchemaError(error, doc);
    if (diagnostic) diagnostics.push(diagnostic);
  });
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

// Free-form JSON handed to the job: any finite number is its own business.
// Paths are compared as JSON arrays, so a key that contains a dot cannot pass for a nested path.
const FREE_FORM_PATHS = new Set([['spec', 'payload'], ['spec', 'job', 'body']].map((path) => JSON.stringify(path)));
const DURATION_FIELDS = new Set(
  [['timeout'], ['gracePeriod'], ['jitter'], ['retry', 'initialDelay'], ['retry', 'maxDelay'], ['minInterval'], ['misfireThreshold']].map((path) => JSON.stringify(['spec', ...path])),
);
const DURATION = /^(\d+)(ms|s|m|h|d)$/;
const DURATION_UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const SUSPECT_TEXT = /[\0\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const STORABLE_HINT = 'PostgreSQL cannot store this character in text or JSON; remove it';

/**
 * Limits on values that JSON Schema cannot express, checked before anything else looks at the
 * document: nesting depth and self-referencing aliases (later steps recurse over the value), text
 * PostgreSQL cannot store (NUL, unpaired surrogates: both reach a manifest through YAML escapes),
 * numbers that are not JSON (.inf, .nan) or overflow the database, and durations too long to be exact.
 * A document with any of these is not validated further.
 */
export function checkValueLimits(doc: ParsedDocument): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const invalid = (path: DocumentPath, message: string, options: { target?: 'key'; hint?: string; code?: string } = {}) =>
    diagnostics.push(createDiagnostic(doc, options.code ?? DiagnosticCodes.INVALID_VALUE, message, path, options));
  const where = (path: DocumentPath) => formatPath(path) || 'the document';
  const checkText = (text: string, path: DocumentPath, target?: 'key') => {
    // The hot path: almost every string has neither NUL nor a surrogate; describe only offenders.
    if (!SUSPECT_TEXT.test(text)) return;
    const subject = target === 'key' ? `key ${JSON.stringify(String(path[path.length - 1]))} of ${where(path.slice(0, -1))}` : where(path);
    if (text.includes('\0')) invalid(path, `${subject} contains a NUL character`, { target, hint: STORABLE_HINT });
    else if (LONE_SURROGATE.test(text)) invalid(path, `${subject} contains an unpaired UTF-16 surrogate (\\uD800-\\uDFFF)`, { target, hint: STORABLE_HINT });
  };
  // Recursion is bounded by MAX_DEPTH, so it cannot overflow the stack itself.
  const ancestors = new Set<object>();
  const visit = (value: unknown, path: DocumentPath, freeForm: boolean): void => {
    if (typeof value === 'string') {
      checkText(value, path);
      const duration = path[0] === 'spec' && path.length <= 3 && DURATION_FIELDS.has(JSON.stringify(path)) ? DURATION.exec(value) : null;
      if (duration && Number(duration[1]) * DURATION_UNIT_MS[duration[2]!]! > MAX_DURATION_MS) {
        invalid(path, `${where(path)} ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)} is longer than the longest supported duration (${MAX_DURATION_MS} ms)`);
      }
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) invalid(path, `${where(path)} is ${value}, which is not a JSON number`, { hint: 'write a finite number, or a string in quotes' });
      else if (!freeForm && Math.abs(value) > MAX_MANIFEST_INTEGER) invalid(path, `${where(path)} is ${value}, beyond the largest supported value ${MAX_MANIFEST_INTEGER}`);
    } else if (value !== null && typeof value === 'object') {
      if (ancestors.has(value)) {
        invalid(path, `${where(path)} is a YAML alias of a node that contains it (an infinitely deep value)`, { code: DiagnosticCodes.ALIAS_LIMIT, hint: 'write the value out instead of referring to an enclosing anchor' });
        return;
      }
      if (path.length >= MAX_DEPTH) {
        invalid(path, `${where(path)} is nested more than ${MAX_DEPTH} levels deep`, { hint: 'flatten the value' });
        return;
      }
      ancestors.add(value);
      const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((item, i) => [i, item]) : Object.entries(value);
      for (const [key, item] of entries) {
        const itemPath = [...path, key];
        if (typeof key === 'string') checkText(key, itemPath, 'key');
        visit(item, itemPath, freeForm || (itemPath[0] === 'spec' && itemPath.length <= 3 && FREE_FORM_PATHS.has(JSON.stringify(itemPath))));
      }
      ancestors.delete(value);
    }
  };
  visit(doc.value, [], false);
  return diagnostics;
}

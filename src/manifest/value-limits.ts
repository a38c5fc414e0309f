/**
 * Limits on values that JSON Schema cannot express, checked before anything else looks at a
 * document: nesting depth and self-referencing aliases (later steps recurse over the value), text
 * PostgreSQL cannot store (NUL, unpaired surrogates: both reach a manifest through YAML escapes),
 * numbers that are not JSON (.inf, .nan) or overflow the database, and durations too long to be exact.
 * A document with any of these is not validated further.
 */
import { DiagnosticCodes } from '../shared/diagnostic-codes.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import { MAX_DEPTH, MAX_DURATION_MS, MAX_MANIFEST_INTEGER } from './limits.js';
import type { DocumentPath, ParsedDocument } from './parse.js';
import { createDiagnostic, formatPath } from './schema-messages.js';

const DURATION_FIELDS = new Set(['timeout', 'gracePeriod', 'jitter', 'minInterval', 'misfireThreshold']);
const RETRY_DURATION_FIELDS = new Set(['initialDelay', 'maxDelay']);
const DURATION = /^(\d+)(ms|s|m|h|d)$/;
const DURATION_UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const SUSPECT_TEXT = /[\0\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const STORABLE_HINT = 'PostgreSQL cannot store this character in text or JSON; remove it';

/** spec.timeout, spec.retry.maxDelay…: segments compared by type too, so an index never passes for a key. */
function isDurationPath(path: DocumentPath): boolean {
  if (path[0] !== 'spec') return false;
  if (path.length === 2) return typeof path[1] === 'string' && DURATION_FIELDS.has(path[1]);
  return path.length === 3 && path[1] === 'retry' && typeof path[2] === 'string' && RETRY_DURATION_FIELDS.has(path[2]);
}

/** Free-form JSON handed to the job (spec.payload, spec.job.body): any finite number is its own business. */
function isFreeFormPath(path: DocumentPath): boolean {
  if (path[0] !== 'spec') return false;
  if (path.length === 2) return path[1] === 'payload';
  return path.length === 3 && path[1] === 'job' && path[2] === 'body';
}

export function checkValueLimits(doc: ParsedDocument): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  // One path array for the whole walk, pushed and popped; copied only into a diagnostic. The walk
  // sees every value of every document, and a new array per value was most of its cost.
  const path: Array<string | number> = [];
  const invalid = (at: DocumentPath, message: string, options: { target?: 'key'; hint?: string; code?: string } = {}) =>
    diagnostics.push(createDiagnostic(doc, options.code ?? DiagnosticCodes.INVALID_VALUE, message, at, options));
  const where = (at: DocumentPath) => formatPath(at) || 'the document';
  const checkText = (text: string, target?: 'key') => {
    // The hot path: almost every string has neither NUL nor a surrogate; describe only offenders.
    if (!SUSPECT_TEXT.test(text)) return;
    const at = [...path];
    const subject = target === 'key' ? `key ${JSON.stringify(String(at[at.length - 1]))} of ${where(at.slice(0, -1))}` : where(at);
    if (text.includes('\0')) invalid(at, `${subject} contains a NUL character`, { target, hint: STORABLE_HINT });
    else if (LONE_SURROGATE.test(text)) invalid(at, `${subject} contains an unpaired UTF-16 surrogate (\\uD800-\\uDFFF)`, { target, hint: STORABLE_HINT });
  };
  // Recursion is bounded by MAX_DEPTH, so it cannot overflow the stack itself. The objects being
  // visited, outermost first: at most MAX_DEPTH, searched by identity (cheaper than hashing each into a Set).
  const ancestors: object[] = [];
  const visit = (value: unknown, freeForm: boolean): void => {
    if (typeof value === 'string') {
      checkText(value);
      const duration = isDurationPath(path) ? DURATION.exec(value) : null;
      if (duration && Number(duration[1]) * DURATION_UNIT_MS[duration[2]!]! > MAX_DURATION_MS) {
        invalid([...path], `${where(path)} ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)} is longer than the longest supported duration (${MAX_DURATION_MS} ms)`);
      }
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) invalid([...path], `${where(path)} is ${value}, which is not a JSON number`, { hint: 'write a finite number, or a string in quotes' });
      else if (!freeForm && Math.abs(value) > MAX_MANIFEST_INTEGER) invalid([...path], `${where(path)} is ${value}, beyond the largest supported value ${MAX_MANIFEST_INTEGER}`);
    } else if (value !== null && typeof value === 'object') {
      if (ancestors.includes(value)) {
        invalid([...path], `${where(path)} is a YAML alias of a node that contains it (an infinitely deep value)`, { code: DiagnosticCodes.ALIAS_LIMIT, hint: 'write the value out instead of referring to an enclosing anchor' });
        return;
      }
      if (path.length >= MAX_DEPTH) {
        invalid([...path], `${where(path)} is nested more than ${MAX_DEPTH} levels deep`, { hint: 'flatten the value' });
        return;
      }
      ancestors.push(value);
      if (Array.isArray(value)) {
        for (let index = 0; index < value.length; index += 1) {
          path.push(index);
          visit(value[index], freeForm || isFreeFormPath(path));
          path.pop();
        }
      } else {
        const record = value as Record<string, unknown>;
        for (const key of Object.keys(record)) {
          path.push(key);
          checkText(key, 'key');
          visit(record[key], freeForm || isFreeFormPath(path));
          path.pop();
        }
      }
      ancestors.pop();
    }
  };
  visit(doc.value, false);
  return diagnostics;
}

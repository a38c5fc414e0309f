/**
 * Field-level differences between two definitions. Plain objects are walked to their leaves
 * (so `labels.team` or `job.env.MODE` is one change); arrays and scalars are compared whole
 * (`job.command` is one change, shown as a line diff by the renderers).
 */
import { canonicalJson } from '../compile/digest.js';
import type { FieldChange } from './plan-types.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function diffFields(before: unknown, after: unknown, prefix = ''): FieldChange[] {
  // The same value has the same canonical JSON: most leaves of an update are unchanged scalars.
  if (before === after) return [];
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => diffFields(before[key], after[key], prefix ? `${prefix}.${key}` : key));
  }
  if (canonicalJson(before ?? null) === canonicalJson(after ?? null)) return [];
  return [{ path: prefix, before: before ?? null, after: after ?? null }];
}

/**
 * A plan's id: the digest of everything in it except the id and createdAt, so apply can tell an
 * edited plan file. It is `digestOf(content)` (canonical JSON, see compile/digest.ts), but the
 * top-level object and the list of changes are written to the hash piece by piece: the canonical
 * text of a 1,000-change plan is several megabytes, and it was built whole at the end of
 * buildPlan, when the heap is at its largest. Hashing the pieces in order hashes the same bytes.
 */
import { createHash, type Hash } from 'node:crypto';
import { canonicalJson } from '../compile/digest.js';
import type { Plan } from './plan-types.js';

/** canonicalJson's array: items comma-separated, a hole left empty. */
function hashArray(hash: Hash, items: unknown[]): void {
  hash.update('[');
  for (let index = 0; index < items.length; index += 1) {
    if (index > 0) hash.update(',');
    if (index in items) hash.update(canonicalJson(items[index]));
  }
  hash.update(']');
}

export function computePlanId(content: Omit<Plan, 'planId' | 'createdAt'>): string {
  const hash = createHash('sha256');
  const record = content as unknown as Record<string, unknown>;
  // canonicalJson's object: keys sorted by UTF-16 code units, undefined members left out.
  let separator = '{';
  for (const key of Object.keys(record).sort()) {
    const value = record[key];
    if (value === undefined) continue;
    hash.update(`${separator}${canonicalJson(key)}:`);
    separator = ',';
    if (Array.isArray(value)) hashArray(hash, value);
    else hash.update(canonicalJson(value));
  }
  hash.update(separator === '{' ? '{}' : '}');
  return `plan-${hash.digest('hex')}`.slice(0, 29);
}

/**
 * Content digests that ignore formatting, comments and key order: the compiled value is
 * serialized with sorted keys and hashed. Plans carry these digests so apply can tell what moved.
 *
 * Digests are stored, so the serialization is a contract: keys sorted by UTF-16 code units,
 * `undefined` members left out, `undefined` array items (and anything JSON cannot say) as `null`.
 * It runs once per schedule on every validate and plan, hence the loops instead of
 * entries/filter/map/join, which allocated several arrays per object.
 */
import { createHash } from 'node:crypto';

/** JSON text of a string; plain text (no quote, backslash, control or surrogate) skips JSON.stringify. */
function quoteString(text: string): string {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x22 || code === 0x5c || code >= 0xd800) return JSON.stringify(text);
  }
  return `"${text}"`;
}

export function canonicalJson(value: unknown): string {
  if (typeof value === 'string') return quoteString(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) text += ',';
      // A hole stays empty, as Array.prototype.join writes it.
      if (index in value) text += canonicalJson(value[index]);
    }
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  // The default sort compares strings by UTF-16 code units, the same order as `<`.
  const keys = Object.keys(record).sort();
  let text = '{';
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    if (text.length > 1) text += ',';
    text += `${quoteString(key)}:${canonicalJson(item)}`;
  }
  return `${text}}`;
}

export function digestOf(value: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value)).digest('hex')}`;
}

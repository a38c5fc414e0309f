/**
 * Bounds on manifest input (SPEC §3.2 "bounded input"). They are checked before the expensive step
 * they protect: file size before reading, document count before converting, alias expansion while
 * converting, so a hostile or accidental input costs little.
 */

/** A manifest file larger than this is rejected from `stat`, without reading it. */
export const MAX_FILE_BYTES = 1024 * 1024;

/** Documents per file; the YAML stream is composed lazily and abandoned past this count. */
export const MAX_DOCUMENTS = 10_000;

/** Mapping keys refused anywhere in a manifest: as object keys they would reach prototypes. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Budget for alias expansion per document, as counted by yaml's `toJS({ maxAliasCount })` (number of
 * alias resolutions times the aliases nested inside each). Hand-written manifests reuse an anchor a
 * few times; a "billion laughs" document needs thousands.
 */
export const MAX_ALIAS_COUNT = 50;

/**
 * Nesting depth of a document's value. Far deeper than any manifest needs, and far below the stack
 * depth of the recursive steps after parsing (secret scan, digest, diff, render).
 */
export const MAX_DEPTH = 64;

/**
 * Largest magnitude of a number outside the free-form JSON (payload, http body): the counts a
 * manifest holds end up in PostgreSQL `integer` columns (a run's max_attempts).
 */
export const MAX_MANIFEST_INTEGER = 2 ** 31 - 1;

/** Longest duration, in ms, that stays an exact JS number once converted. */
export const MAX_DURATION_MS = Number.MAX_SAFE_INTEGER;

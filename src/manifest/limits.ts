/**
 * Bounds on manifest input (SPEC §3.2 "bounded input"). They are checked before the expensive step
 * they protect: file size before reading, document count before converting, alias expansion while
 * converting, so a hostile or accidental input costs little.
 */

/** A manifest file larger than this is rejected from `stat`, without reading it. */
export const MAX_FILE_BYTES = 1024 * 1024;

/** Documents per file; the YAML stream is composed lazily and abandoned past this count. */
export const MAX_DOCUMENTS = 10_000;

/**
 * Budget for alias expansion per document, as counted by yaml's `toJS({ maxAliasCount })` (number of
 * alias resolutions times the aliases nested inside each). Hand-written manifests reuse an anchor a
 * few times; a "billion laughs" document needs thousands.
 */
export const MAX_ALIAS_COUNT = 50;

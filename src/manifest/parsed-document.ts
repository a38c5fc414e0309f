import type { Diagnostic } from '../shared/diagnostics.js';
import type { DocumentPath, SourcePosition } from './locate.js';

/**
 * What parsing a manifest file takes and gives, shared by the yaml parser (`parse.ts`) and its fast
 * path (`parse-simple.ts`), so that neither imports the other for its types.
 */

/** A manifest file's text, with the path as shown to the user. */
export interface ManifestSource {
  file: string;
  text: string;
}

/** One YAML document of a manifest that parsed cleanly into a mapping. */
export interface ParsedDocument {
  file: string;
  /** 0-based position of the document in its file's stream. */
  index: number;
  /** Plain JS value (JSON-like) of the document. */
  value: unknown;
  /** 1-based position of the node at `path`, or of its nearest existing ancestor. */
  locate(path: DocumentPath, target?: 'key' | 'value'): SourcePosition;
  /** 1-based position of character `offset` of the string at `path` (after an opening quote). */
  locateInScalar(path: DocumentPath, offset: number): SourcePosition;
}

export interface ParseResult {
  documents: ParsedDocument[];
  diagnostics: Diagnostic[];
}

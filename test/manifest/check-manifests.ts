/**
 * Runs the manifest stage end to end (load → parse → schema → secrets → repository rules) the way
 * `cronform validate` does before compiling, so fixture tests see every diagnostic a user would.
 */
import { fileURLToPath } from 'node:url';
import { loadManifestSources } from '../../src/manifest/load.js';
import { parseManifestSource, type ParsedDocument } from '../../src/manifest/parse.js';
import { checkRepositoryRules } from '../../src/manifest/repo-rules.js';
import { findLiteralSecrets } from '../../src/manifest/secrets.js';
import { validateDocumentSchema } from '../../src/manifest/validate-schema.js';
import { sortDiagnostics, type Diagnostic } from '../../src/shared/diagnostics.js';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export async function checkManifests(paths: string[], cwd = repoRoot): Promise<Diagnostic[]> {
  const loaded = await loadManifestSources(paths, { cwd });
  const diagnostics = [...loaded.diagnostics];
  const documents: ParsedDocument[] = [];
  for (const source of loaded.sources) {
    const parsed = parseManifestSource(source);
    diagnostics.push(...parsed.diagnostics);
    documents.push(...parsed.documents);
  }
  for (const doc of documents) diagnostics.push(...validateDocumentSchema(doc), ...findLiteralSecrets(doc));
  diagnostics.push(...checkRepositoryRules(documents));
  return sortDiagnostics(diagnostics);
}

/** Parses one in-memory manifest and returns its only document. */
export function parseOne(text: string, file = 'test.yaml'): ParsedDocument {
  const { documents, diagnostics } = parseManifestSource({ file, text });
  if (diagnostics.length > 0 || documents.length !== 1) {
    throw new Error(`expected one clean document, got ${JSON.stringify(diagnostics)}`);
  }
  return documents[0] as ParsedDocument;
}

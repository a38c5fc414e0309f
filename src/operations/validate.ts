/** Use case: load manifests from disk and compile them (no database). */
import { compileSources, type CompileResult } from '../compile/compile-sources.js';
import { loadManifestSources } from '../manifest/load.js';
import { sortDiagnostics } from '../shared/diagnostics.js';

export interface ValidateResult extends CompileResult {
  fileCount: number;
}

export async function validateManifests(paths: string[], options: { cwd: string; nowMs: number }): Promise<ValidateResult> {
  const loaded = await loadManifestSources(paths, { cwd: options.cwd });
  const compiled = compileSources(loaded.sources, options.nowMs);
  return { ...compiled, diagnostics: sortDiagnostics([...loaded.diagnostics, ...compiled.diagnostics]), fileCount: loaded.fileCount };
}

import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

let yaml: typeof Yaml | undefined;

/**
 * The yaml package, loaded on first use. Loading it costs ~30 ms (some sixty CommonJS files), and a
 * repository whose manifests all take the parser's fast path never needs it: only the general parser
 * (`parseManifestWithYaml`) and its locator call this. Synchronous because parsing is.
 */
export function yamlLibrary(): typeof Yaml {
  yaml ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return yaml;
}

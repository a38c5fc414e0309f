/**
 * Where a manifest written by cronform (`export`, `init`) finds the JSON Schema for its editor
 * modeline: a path relative to the manifest's directory that resolves in the repository it lands
 * in. A repository that installed cronform has it at `node_modules/cronform/schema/…`; cronform's
 * own repository has `schema/…` at its root. Looked up from the directory upwards; when neither
 * exists the modeline is left out rather than pointing at a file that is not there (or at an
 * absolute path on one machine).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const SCHEMA_IN_PACKAGE = path.join('schema', 'cronform.schema.json');

/** The `$schema` path for manifests in `directory` (absolute), with `/` separators, or undefined. */
export function findSchemaPath(directory: string): string | undefined {
  for (let current = path.resolve(directory); ; current = path.dirname(current)) {
    const installed = path.join(current, 'node_modules', 'cronform', SCHEMA_IN_PACKAGE);
    if (existsSync(installed)) return relativeTo(directory, installed);
    const own = path.join(current, SCHEMA_IN_PACKAGE);
    if (existsSync(own) && isCronformPackage(current)) return relativeTo(directory, own);
    if (path.dirname(current) === current) return undefined;
  }
}

/** `# yaml-language-server: $schema=…`, or no line when no schema resolves. */
export function schemaModeline(schemaPath: string | undefined): string {
  return schemaPath === undefined ? '' : `# yaml-language-server: $schema=${schemaPath}\n`;
}

function relativeTo(directory: string, file: string): string {
  return path.relative(path.resolve(directory), file).split(path.sep).join('/');
}

function isCronformPackage(directory: string): boolean {
  try {
    return (JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8')) as { name?: unknown }).name === 'cronform';
  } catch {
    return false;
  }
}

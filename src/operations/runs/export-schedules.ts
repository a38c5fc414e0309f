/**
 * `export`: the database's schedules as manifests, to adopt schedules into git (SPEC §7). Active
 * schedules only (an archived one has no manifest by definition: writing it would restore it),
 * managed or not; the stored Policy too when it differs from the defaults. Existing files are
 * never overwritten without `force`, and a symbolic link never, not even with it: a link planted in
 * the output directory must not send the export somewhere else.
 */
import path from 'node:path';
import type { Definition } from '../../compile/definition.js';
import type { Database } from '../../db/client.js';
import { listStoredSchedules } from '../../db/schedule-queries.js';
import { readStoredPolicy, type StoredPolicy } from '../../db/settings-queries.js';
import { ownerFileName, POLICY_FILE, policyManifestOf, renderManifestFile, scheduleManifestOf } from './manifest-export.js';
import { findSchemaPath } from '../schema-location.js';
import { inspectPath, makeOutputDirectory, writeFileWithoutLinks } from '../write-without-links.js';
import { RunOperationError } from './run-operation-error.js';

export type ExportGrouping = 'none' | 'owner';

export interface ExportOptions {
  /** Absolute directory to write into (created when missing). */
  outDir: string;
  groupBy: ExportGrouping;
  force: boolean;
}

export interface ExportedFile {
  file: string;
  schedules: string[];
  text: string;
}

export interface ExportResult {
  outDir: string;
  files: Array<Omit<ExportedFile, 'text'>>;
  policy: boolean;
  archivedLeftOut: number;
}

/** Pure: which files hold which schedules, and their text. Sorted by file name, schedules by name. */
export function buildExportFiles(definitions: Definition[], policy: StoredPolicy | null, groupBy: ExportGrouping, schemaPath?: string): ExportedFile[] {
  const groups = new Map<string, Definition[]>();
  for (const definition of [...definitions].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const file = groupBy === 'owner' ? ownerFileName(definition.owner) : `${definition.name}.yaml`;
    groups.set(file, [...(groups.get(file) ?? []), definition]);
  }
  const files: ExportedFile[] = [...groups].map(([file, members]) => ({ file, schedules: members.map((d) => d.name), text: renderManifestFile(members.map(scheduleManifestOf), schemaPath) }));
  const policyDocument = policy ? policyManifestOf(policy) : null;
  if (policyDocument) files.push({ file: POLICY_FILE, schedules: [], text: renderManifestFile([policyDocument], schemaPath) });
  return files.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

export async function exportSchedules(database: Database, options: ExportOptions): Promise<ExportResult> {
  const stored = await listStoredSchedules(database.db);
  const active = stored.filter((schedule) => schedule.status === 'ACTIVE');
  const policy = (await readStoredPolicy(database.db))?.policy ?? null;
  const files = buildExportFiles(
    active.map((schedule) => schedule.definition),
    policy,
    options.groupBy,
    // The modeline must resolve where the files land: node_modules/cronform/schema/… in a repository
    // that installed cronform, schema/… in cronform's own, none when neither is there.
    findSchemaPath(options.outDir),
  );
  const targets = files.map((f) => ({ ...f, path: path.join(options.outDir, f.file) }));
  const links = targets.filter((target) => inspectPath(target.path) === 'link');
  if (links.length > 0) throw new RunOperationError(`${links[0]!.path} is a symbolic link; cronform does not write through links: remove it or choose another --out-dir`);
  const taken = targets.filter((target) => inspectPath(target.path) !== 'missing');
  if (taken.length > 0 && !options.force) {
    throw new RunOperationError(`${taken.length} file(s) already exist, e.g. ${taken[0]!.path}; choose another --out-dir or pass --force to overwrite`);
  }
  const directory = makeOutputDirectory(options.outDir);
  if (!directory.ok) throw new RunOperationError(`${options.outDir} ${directory.reason}`);
  for (const target of targets) {
    const written = writeFileWithoutLinks(target.path, target.text, { overwrite: options.force });
    if (!written.ok) throw new RunOperationError(`${target.path} ${written.reason}`);
  }
  return {
    outDir: options.outDir,
    files: files.map(({ file, schedules }) => ({ file, schedules })),
    policy: files.some((f) => f.file === POLICY_FILE),
    archivedLeftOut: stored.length - active.length,
  };
}

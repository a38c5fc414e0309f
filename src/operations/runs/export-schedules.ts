/**
 * `export`: the database's schedules as manifests, to adopt schedules into git (SPEC §7). Active
 * schedules only (an archived one has no manifest by definition: writing it would restore it),
 * managed or not; the stored Policy too when it differs from the defaults. Existing files are
 * never overwritten without `force`.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Definition } from '../../compile/definition.js';
import type { Database } from '../../db/client.js';
import { listStoredSchedules } from '../../db/schedule-queries.js';
import { readStoredPolicy, type StoredPolicy } from '../../db/settings-queries.js';
import { ownerFileName, POLICY_FILE, policyManifestOf, renderManifestFile, scheduleManifestOf } from './manifest-export.js';
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
export function buildExportFiles(definitions: Definition[], policy: StoredPolicy | null, groupBy: ExportGrouping): ExportedFile[] {
  const groups = new Map<string, Definition[]>();
  for (const definition of [...definitions].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const file = groupBy === 'owner' ? ownerFileName(definition.owner) : `${definition.name}.yaml`;
    groups.set(file, [...(groups.get(file) ?? []), definition]);
  }
  const files: ExportedFile[] = [...groups].map(([file, members]) => ({ file, schedules: members.map((d) => d.name), text: renderManifestFile(members.map(scheduleManifestOf)) }));
  const policyDocument = policy ? policyManifestOf(policy) : null;
  if (policyDocument) files.push({ file: POLICY_FILE, schedules: [], text: renderManifestFile([policyDocument]) });
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
  );
  const taken = files.map((f) => path.join(options.outDir, f.file)).filter((file) => existsSync(file));
  if (taken.length > 0 && !options.force) {
    throw new RunOperationError(`${taken.length} file(s) already exist, e.g. ${taken[0]}; choose another --out-dir or pass --force to overwrite`);
  }
  mkdirSync(options.outDir, { recursive: true });
  for (const file of files) writeFileSync(path.join(options.outDir, file.file), file.text);
  return {
    outDir: options.outDir,
    files: files.map(({ file, schedules }) => ({ file, schedules })),
    policy: files.some((f) => f.file === POLICY_FILE),
    archivedLeftOut: stored.length - active.length,
  };
}

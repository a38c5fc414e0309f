/** Use cases: a schedule's version history, and the difference between two versions. */
import type { Database } from '../db/client.js';
import { findVersionsByName, listVersions } from '../db/schedule-queries.js';
import { diffFields } from '../plan/field-diff.js';
import type { FieldChange } from '../plan/plan-types.js';
import { VersionNotFoundError } from './version-not-found-error.js';

export interface VersionEntry {
  version: number;
  /** The schedule's status as this version recorded it (ACTIVE, or ARCHIVED for an archive). */
  status: string;
  /** What the version is now: the latest keeps its status; an older ACTIVE one is SUPERSEDED. */
  state: string;
  digest: string;
  actor: string;
  reason: string | null;
  gitSha: string | null;
  planId: string | null;
  createdAt: string;
  name: string;
}

export async function readHistory(database: Database, name: string): Promise<VersionEntry[]> {
  const rows = await listVersions(database.db, name);
  const latest = Math.max(...rows.map((row) => row.version));
  return rows.map((row) => ({
    version: row.version,
    status: row.status,
    state: versionState(row.status, row.version === latest),
    digest: row.digest,
    actor: row.actor,
    reason: row.reason,
    gitSha: row.gitSha,
    planId: row.planId,
    createdAt: row.createdAt.toISOString(),
    name: row.name,
  }));
}

/**
 * Every version recorded status ACTIVE when it was applied, so history listed replaced versions as
 * ACTIVE. Only the latest version is in force; an older one is SUPERSEDED, except an archive,
 * which stays ARCHIVED (the event it records) even after the schedule came back.
 */
export function versionState(status: string, latest: boolean): string {
  if (latest || status !== 'ACTIVE') return status;
  return 'SUPERSEDED';
}

export async function diffVersions(database: Database, name: string, from: number, to: number): Promise<FieldChange[]> {
  const rows = await findVersionsByName(database.db, name, [from, to]);
  const before = rows.find((row) => row.version === from);
  const after = rows.find((row) => row.version === to);
  const missing = [before ? null : from, after ? null : to].filter((v) => v !== null);
  if (missing.length > 0) throw new VersionNotFoundError(`${name} has no version ${missing.join(' or ')} (see cronform history ${name})`);
  const changes = diffFields(before!.definition, after!.definition);
  if (before!.status !== after!.status) changes.unshift({ path: 'status', before: before!.status, after: after!.status });
  return changes;
}

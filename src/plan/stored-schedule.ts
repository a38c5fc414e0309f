/** What plan needs to know about a schedule stored in the database (or at a git ref). */
import type { Definition } from '../compile/definition.js';

export interface StoredSchedule {
  id: number;
  name: string;
  version: number;
  digest: string;
  definition: Definition;
  status: 'ACTIVE' | 'ARCHIVED';
  managed: boolean;
  paused: { at: string; by: string | null; reason: string | null; until: string | null } | null;
  /** Digest of the latest `schedule_versions` row; differs from `digest` when edited outside apply. */
  versionDigest: string | null;
  /** The next slot the scheduler has not turned into a run yet (ISO), if any. */
  nextRunAt: string | null;
}

export interface RunHistory {
  lastRunAt: string | null;
  runsLast30Days: number;
}

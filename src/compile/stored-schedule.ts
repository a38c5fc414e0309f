/**
 * What plan needs to know about a schedule stored in the database (or at a git ref). Declared on
 * compile, the floor both sides stand on: db produces these values and plan consumes them, and
 * neither may import the other.
 */
import type { Definition, DefinitionTiming } from './definition.js';

/**
 * A stored schedule without its whole definition: enough to pair it with a manifest, report drift
 * and count its runs. Most schedules of a plan are unchanged, and their definitions are never read.
 */
export interface StoredScheduleSummary {
  id: number;
  name: string;
  version: number;
  digest: string;
  /** When the stored definition fires (for the runs/day and minute-load totals). */
  timing: DefinitionTiming;
  status: 'ACTIVE' | 'ARCHIVED';
  managed: boolean;
  paused: { at: string; by: string | null; reason: string | null; until: string | null } | null;
  /** Digest of the latest `schedule_versions` row; differs from `digest` when edited outside apply. */
  versionDigest: string | null;
  /** The next slot the scheduler has not turned into a run yet (ISO), if any. */
  nextRunAt: string | null;
}

export interface StoredSchedule extends StoredScheduleSummary {
  definition: Definition;
}

/** Definitions by schedule id, the form buildPlan takes them in. */
export function definitionsById(stored: StoredSchedule[]): Map<number, Definition> {
  return new Map(stored.map((schedule) => [schedule.id, schedule.definition]));
}

export interface RunHistory {
  lastRunAt: string | null;
  runsLast30Days: number;
}

/**
 * The runner's retention pass (README "Retention"): for each schedule with a retention in force,
 * delete its finished runs older than the retention, in batches of `batchSize`, each its own short
 * transaction (db/retention-queries.ts). Run off the claim path: the runner starts a pass without
 * waiting for it, one at a time, and a pass stops after `maxBatches` so a first pass over years of
 * history spreads over several intervals instead of holding the database for minutes.
 */
import { effectiveRetention, type RetentionOverride } from '../compile/definition.js';
import type { Database } from '../db/client.js';
import { deleteExpiredRunsBatch, listRetentionSubjects } from '../db/retention-queries.js';
import { MS_PER_DAY } from '../time/civil.js';

export interface RetentionPassOptions {
  nowMs: number;
  /** The Policy's retention (absent: none, schedules keep runs forever unless they say). */
  policyRetention: RetentionOverride | undefined;
  batchSize: number;
  maxBatches: number;
}

export interface RetentionPassResult {
  deleted: number;
  batches: number;
  /** The pass stopped at maxBatches with runs left to delete. */
  unfinished: boolean;
}

/**
 * The cutoff of a retention at `nowMs`: the UTC midnight at or before now − runs, so whole days go
 * at once and a rolled-up day is never half live (readers count whole days from the rollups).
 */
export function retentionCutoffMs(nowMs: number, runsMs: number): number {
  return Math.floor((nowMs - runsMs) / MS_PER_DAY) * MS_PER_DAY;
}

export async function runRetentionPass(database: Database, options: RetentionPassOptions): Promise<RetentionPassResult> {
  const result: RetentionPassResult = { deleted: 0, batches: 0, unfinished: false };
  for (const subject of await listRetentionSubjects(database.db)) {
    const retention = effectiveRetention(options.policyRetention, subject.retention);
    if (!retention) continue;
    const cutoff = new Date(retentionCutoffMs(options.nowMs, retention.runsMs));
    for (;;) {
      if (result.batches >= options.maxBatches) return { ...result, unfinished: true };
      const deleted = await deleteExpiredRunsBatch(database, { scheduleId: subject.scheduleId, cutoff, keepLast: retention.keepLast, limit: options.batchSize });
      result.batches += 1;
      result.deleted += deleted;
      // A short batch: nothing more to delete now (or only rows another transaction holds).
      if (deleted < options.batchSize) break;
    }
  }
  return result;
}

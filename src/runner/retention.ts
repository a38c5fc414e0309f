/**
 * The runner's retention pass (README "Retention"): for the schedules with a retention in force,
 * delete their finished runs older than the retention, in batches of `batchSize` (a batch spans
 * up to SCHEDULES_PER_BATCH schedules), each its own short transaction (db/retention-queries.ts). Run off the claim path: the runner starts a pass without
 * waiting for it, one at a time, and a pass stops after `maxBatches` so a first pass over years of
 * history spreads over several intervals instead of holding the database for minutes.
 */
import { effectiveRetention, type RetentionOverride } from '../compile/definition.js';
import type { Database } from '../db/client.js';
import { deleteExpiredRunsBatch, listRetentionSubjects, type RetentionSubjectCutoff } from '../db/retention-queries.js';
import { dropExpiredDay, listRunPartitions } from '../db/run-partitions.js';
import { MS_PER_DAY } from '../time/civil.js';

/** Schedules one batch statement looks through (their runs in order until the batch is full). */
const SCHEDULES_PER_BATCH = 100;

export interface RetentionPassOptions {
  nowMs: number;
  /** The Policy's retention (absent: none, schedules keep runs forever unless they say). */
  policyRetention: RetentionOverride | undefined;
  batchSize: number;
  maxBatches: number;
  /** Told of a day partition that could not be dropped this pass (it waits for the next). */
  onDayError?: (dayPartition: string, error: unknown) => void;
}

export interface RetentionPassResult {
  deleted: number;
  /** Day partitions dropped whole (their runs are counted in `deleted`). */
  days: number;
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
  const result: RetentionPassResult = { deleted: 0, days: 0, batches: 0, unfinished: false };
  const subjects: RetentionSubjectCutoff[] = [];
  for (const subject of await listRetentionSubjects(database.db)) {
    const retention = effectiveRetention(options.policyRetention, subject.retention);
    if (retention) subjects.push({ scheduleId: subject.scheduleId, cutoff: new Date(retentionCutoffMs(options.nowMs, retention.runsMs)), keepLast: retention.keepLast });
  }
  // Whole days first: a day whose runs have all expired (but for a few to keep) is dropped, not
  // deleted row by row (db/run-partitions.ts). What no day drop takes (the DEFAULT and legacy
  // partitions, a day with unfinished or many kept runs) the batches below delete.
  const latestCutoffMs = Math.max(...subjects.map((s) => s.cutoff.getTime()));
  for (const day of await listRunPartitions(database.db)) {
    if (!day.isDay || day.toMs === null || day.toMs > latestCutoffMs) continue;
    // A day that could not go now (a lock timeout, another runner) waits for the next pass; the
    // rest of this one goes on, row batches included.
    const dropped = await dropExpiredDay(database, day, subjects).catch((error: unknown) => options.onDayError?.(day.name, error));
    if (dropped?.dropped) {
      result.days += 1;
      result.deleted += dropped.deleted;
    }
  }
  // A batch takes from the first schedules that still have runs to delete; one that comes back
  // short has deleted all there was (but for rows another transaction holds: the next pass).
  while (subjects.length > 0) {
    if (result.batches >= options.maxBatches) return { ...result, unfinished: true };
    const group = subjects.slice(0, SCHEDULES_PER_BATCH);
    const deleted = await deleteExpiredRunsBatch(database, { subjects: group, limit: options.batchSize });
    result.batches += 1;
    result.deleted += deleted;
    if (deleted < options.batchSize) subjects.splice(0, group.length);
  }
  return result;
}

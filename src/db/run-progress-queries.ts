/**
 * Statements of `run_progress` and `run_items` (SPEC §8a). Only the runner holding a run's lease
 * writes them: live counts at its heartbeats (guarded here by the lease), and the attempt's final
 * counts and items in the transaction that writes its outcome (guarded there by `completeAttempts`).
 */
import { sql } from 'drizzle-orm';
import { integerArray, textArray } from './array-literal.js';
import { queryRows, type Executor } from './client.js';
import type { ItemStatus } from './run-vocabulary.js';

export interface ProgressCounts {
  runId: number;
  attempt: number;
  total: number | null;
  done: number;
  failed: number;
  wouldAffect: number | null;
  itemsTruncated: boolean;
}

export interface ProgressWrite extends ProgressCounts {
  /** The attempt ran to its end (exit 0): its failed items are all a retry has left to do. */
  completeReport: boolean;
  items: Array<{ key: string; status: ItemStatus; error: string | null }>;
}

export interface StoredProgress {
  total: number | null;
  done: number;
  failed: number;
  wouldAffect: number | null;
  approvedAffected: number | null;
  itemsTruncated: boolean;
  updatedAt: Date;
}

const upsertColumns = sql`(run_id, attempt, total, done, failed, would_affect, items_truncated, updated_at)`;
const onConflictUpdate = sql`on conflict (run_id) do update set attempt = excluded.attempt, total = excluded.total, done = excluded.done,
  failed = excluded.failed, would_affect = coalesce(excluded.would_affect, run_progress.would_affect),
  items_truncated = run_progress.items_truncated or excluded.items_truncated, updated_at = excluded.updated_at`;

function countsInput(rows: ProgressCounts[], now: Date) {
  return sql`select id, attempt, total, done, failed, would_affect, truncated, ${now.toISOString()}::timestamptz
    from unnest(${integerArray(rows.map((r) => r.runId))}::bigint[], ${integerArray(rows.map((r) => r.attempt))}::int[],
      ${integerArray(rows.map((r) => r.total))}::bigint[], ${integerArray(rows.map((r) => r.done))}::bigint[],
      ${integerArray(rows.map((r) => r.failed))}::bigint[], ${integerArray(rows.map((r) => r.wouldAffect))}::bigint[],
      ${textArray(rows.map((r) => String(r.itemsTruncated)))}::boolean[])
      as x(id, attempt, total, done, failed, would_affect, truncated)`;
}

/** Live counts of running attempts, written at a heartbeat only where this runner still holds the attempt's lease. */
export async function saveLiveProgress(executor: Executor, runnerId: string, rows: ProgressCounts[], now: Date): Promise<void> {
  if (rows.length === 0) return;
  await executor.execute(
    sql`insert into run_progress ${upsertColumns}
        select p.* from (${countsInput(rows, now)}) p (id, attempt, total, done, failed, would_affect, truncated, at)
        join schedule_runs r on r.id = p.id and r.status = 'RUNNING' and r.lease_owner = ${runnerId} and r.attempts = p.attempt
        ${onConflictUpdate}`,
  );
}

/**
 * An ended attempt's counts and items. Call it in the outcome's transaction with only the runs
 * whose outcome `completeAttempts` wrote (the lease guard is there). Items upsert by key: a retry's
 * report replaces the earlier status of the same item.
 */
export async function saveFinalProgress(tx: Executor, rows: ProgressWrite[], now: Date): Promise<void> {
  if (rows.length === 0) return;
  await tx.execute(sql`insert into run_progress ${upsertColumns} ${countsInput(rows, now)} ${onConflictUpdate}`);
  await tx.execute(
    sql`update run_progress p set complete_report = x.complete
        from unnest(${integerArray(rows.map((r) => r.runId))}::bigint[], ${textArray(rows.map((r) => String(r.completeReport)))}::boolean[]) as x(id, complete)
        where p.run_id = x.id`,
  );
  const items = rows.flatMap((row) => row.items.map((item) => ({ runId: row.runId, attempt: row.attempt, ...item })));
  // In slices: one statement's arrays stay a few MB whatever the batch (MAX_ITEMS_PER_ATTEMPT per run).
  for (let start = 0; start < items.length; start += 10_000) {
    const slice = items.slice(start, start + 10_000);
    await tx.execute(
      sql`insert into run_items (run_id, item_key, status, attempt, error)
          select * from unnest(${integerArray(slice.map((i) => i.runId))}::bigint[], ${textArray(slice.map((i) => i.key))}::text[],
            ${textArray(slice.map((i) => i.status))}::text[], ${integerArray(slice.map((i) => i.attempt))}::int[], ${textArray(slice.map((i) => i.error))}::text[])
          on conflict (run_id, item_key) do update set status = excluded.status, attempt = excluded.attempt, error = excluded.error`,
    );
  }
}

/** What earlier attempts left, for the runs about to start another attempt (retries, approved runs). */
export async function loadPriorProgress(
  executor: Executor,
  runIds: number[],
): Promise<Map<number, { total: number | null; approvedAffected: number | null; completeReport: boolean; items: Map<string, ItemStatus> }>> {
  const result = new Map<number, { total: number | null; approvedAffected: number | null; completeReport: boolean; items: Map<string, ItemStatus> }>();
  if (runIds.length === 0) return result;
  const progress = await queryRows<{ run_id: string | number; total: string | number | null; approved_affected: string | number | null; complete_report: boolean }>(
    executor,
    sql`select run_id, total, approved_affected, complete_report from run_progress where run_id = any(${sql.param(runIds)}::bigint[])`,
  );
  if (progress.length === 0) return result;
  for (const row of progress) {
    result.set(Number(row.run_id), { total: row.total === null ? null : Number(row.total), approvedAffected: row.approved_affected === null ? null : Number(row.approved_affected), completeReport: row.complete_report, items: new Map() });
  }
  const items = await queryRows<{ run_id: string | number; item_key: string; status: ItemStatus }>(
    executor,
    sql`select run_id, item_key, status from run_items where run_id = any(${sql.param([...result.keys()])}::bigint[])`,
  );
  for (const item of items) result.get(Number(item.run_id))?.items.set(item.item_key, item.status);
  return result;
}

/** `approve` of a run stopped by the safety threshold: its next attempt may affect what it reported, no more. */
export async function approveReportedAffected(tx: Executor, runId: number): Promise<number | null> {
  const rows = await queryRows<{ approved_affected: string | number | null }>(
    tx,
    sql`update run_progress set approved_affected = would_affect where run_id = ${runId} and would_affect is not null returning approved_affected`,
  );
  const value = rows[0]?.approved_affected;
  return value === undefined || value === null ? null : Number(value);
}

/** A run's progress and a page of its items, failed first (`runs show`, the dashboard). */
export async function loadRunProgress(
  executor: Executor,
  runId: number,
  itemLimit: number,
): Promise<{ progress: StoredProgress | null; items: Array<{ key: string; status: ItemStatus; attempt: number; error: string | null }> }> {
  const [row] = await queryRows<{
    total: string | number | null;
    done: string | number;
    failed: string | number;
    would_affect: string | number | null;
    approved_affected: string | number | null;
    items_truncated: boolean;
    updated_at: Date | string;
  }>(executor, sql`select total, done, failed, would_affect, approved_affected, items_truncated, updated_at from run_progress where run_id = ${runId}`);
  if (!row) return { progress: null, items: [] };
  const items = await queryRows<{ item_key: string; status: ItemStatus; attempt: number; error: string | null }>(
    executor,
    sql`select item_key, status, attempt, error from run_items where run_id = ${runId} order by status = 'DONE', item_key limit ${itemLimit}`,
  );
  const count = (value: string | number | null): number | null => (value === null ? null : Number(value));
  return {
    progress: {
      total: count(row.total),
      done: Number(row.done),
      failed: Number(row.failed),
      wouldAffect: count(row.would_affect),
      approvedAffected: count(row.approved_affected),
      itemsTruncated: row.items_truncated,
      updatedAt: new Date(row.updated_at),
    },
    items: items.map((i) => ({ key: i.item_key, status: i.status, attempt: i.attempt, error: i.error })),
  };
}

export interface RunProgressLine {
  runId: number;
  total: number | null;
  done: number;
  failed: number;
  wouldAffect: number | null;
  /** A few failed items, by key, for a glance (the dashboard's run rows); `runs show` lists more. */
  failedItems: Array<{ key: string; error: string | null }>;
}

/** Progress of a page of runs (the dashboard's latest runs), with up to `failedItemsPerRun` failed items each. */
export async function listProgressOfRuns(executor: Executor, runIds: number[], failedItemsPerRun: number): Promise<RunProgressLine[]> {
  if (runIds.length === 0) return [];
  const rows = await queryRows<{ run_id: string | number; total: string | number | null; done: string | number; failed: string | number; would_affect: string | number | null; failed_items: Array<{ key: string; error: string | null }> | null }>(
    executor,
    sql`select p.run_id, p.total, p.done, p.failed, p.would_affect,
          (select json_agg(json_build_object('key', i.item_key, 'error', i.error) order by i.item_key)
           from (select item_key, error from run_items where run_id = p.run_id and status = 'FAILED' order by item_key limit ${failedItemsPerRun}) i) as failed_items
        from run_progress p where p.run_id = any(${sql.param(runIds)}::bigint[])`,
  );
  const count = (value: string | number | null): number | null => (value === null ? null : Number(value));
  return rows.map((row) => ({
    runId: Number(row.run_id),
    total: count(row.total),
    done: Number(row.done),
    failed: Number(row.failed),
    wouldAffect: count(row.would_affect),
    failedItems: row.failed_items ?? [],
  }));
}

/**
 * The channel between a running job and its runner (SPEC §8a; docs/workflows.md, "Progress and
 * items"). A job has no database credentials (and on the embedded database no other process may
 * open it), so it reports by appending JSON lines to the file the runner names in
 * CRONFORM_PROGRESS_FILE: with `cronform progress` / `cronform guard`, or from any language by
 * appending one line per write. The runner reads the file while the job runs and at its end, and
 * writes what it learned in its own transactions, guarded by its lease like every other write.
 *
 * One line, one JSON object, one of:
 *   {"total":1000,"done":10,"failed":1,"wouldAffect":12}   counts, each optional, absolute (the last wins)
 *   {"item":"customer-42","status":"done"}                 one item by key ("failed" with an optional "error")
 *   {"guard":{"affects":12000}}                            what `cronform guard --affects` asked
 *
 * This module is the format only: the limits that keep a hostile or buggy job from flooding the
 * runner, and the parse of one line. Shared by the commands (which write lines) and the runner
 * (which reads them); no I/O.
 */
/** The item statuses of `run_items` (ITEM_STATUSES in db/run-vocabulary.ts, which sits above this layer). */
type ItemStatus = 'DONE' | 'FAILED';

export const PROGRESS_FILE_ENV = 'CRONFORM_PROGRESS_FILE';
/** On a retry of a run with failed items: a file of their keys, one per line; the job re-runs only those. */
export const RETRY_ITEMS_FILE_ENV = 'CRONFORM_RETRY_ITEMS_FILE';
/** The most the job may affect in this run (`safety.maxAffected`, or what `approve` allowed); unset without a limit. */
export const SAFETY_MAX_AFFECTED_ENV = 'CRONFORM_SAFETY_MAX_AFFECTED';
/** "1" in a run made by `trigger --dry-run`: the job must not change anything, only report. */
export const DRY_RUN_ENV = 'CRONFORM_DRY_RUN';

/** A longer line is not read (and counted as rejected): one line is one small fact. */
export const MAX_PROGRESS_LINE_BYTES = 4096;
export const MAX_ITEM_KEY_CHARS = 200;
export const MAX_ITEM_ERROR_CHARS = 500;

export type ProgressLine =
  | { kind: 'counts'; total?: number; done?: number; failed?: number; wouldAffect?: number }
  | { kind: 'item'; key: string; status: ItemStatus; error: string | null }
  | { kind: 'guard'; affects: number };

export type ParsedProgressLine = { ok: true; line: ProgressLine } | { ok: false; error: string };

const COUNT_FIELDS = ['total', 'done', 'failed', 'wouldAffect'] as const;

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Parses one line (without its newline). Unknown fields are refused, so a typo is not silently a no-op. */
export function parseProgressLine(text: string): ParsedProgressLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, error: 'not a JSON object' };
  const record = value as Record<string, unknown>;
  if ('guard' in record) {
    const guard = record.guard as Record<string, unknown> | null;
    if (Object.keys(record).length !== 1 || typeof guard !== 'object' || guard === null || !isCount(guard.affects)) {
      return { ok: false, error: 'a guard line is {"guard":{"affects":N}} with N a non-negative integer' };
    }
    return { ok: true, line: { kind: 'guard', affects: guard.affects } };
  }
  if ('item' in record) {
    const { item, status, error } = record;
    const unknown = Object.keys(record).filter((key) => !['item', 'status', 'error'].includes(key));
    if (unknown.length > 0) return { ok: false, error: `unknown field ${JSON.stringify(unknown[0])} in an item line` };
    if (typeof item !== 'string' || item.length === 0 || item.length > MAX_ITEM_KEY_CHARS || /[\n\r\0]/.test(item)) {
      return { ok: false, error: `an item key is a non-empty string of at most ${MAX_ITEM_KEY_CHARS} characters without line breaks` };
    }
    if (status !== 'done' && status !== 'failed') return { ok: false, error: 'an item status is "done" or "failed"' };
    if (error !== undefined && typeof error !== 'string') return { ok: false, error: 'an item error is a string' };
    return { ok: true, line: { kind: 'item', key: item, status: status === 'done' ? 'DONE' : 'FAILED', error: typeof error === 'string' ? error.slice(0, MAX_ITEM_ERROR_CHARS) : null } };
  }
  const line: ProgressLine = { kind: 'counts' };
  for (const [key, field] of Object.entries(record)) {
    if (!(COUNT_FIELDS as readonly string[]).includes(key)) return { ok: false, error: `unknown field ${JSON.stringify(key)}` };
    if (!isCount(field)) return { ok: false, error: `${key} must be a non-negative integer` };
    line[key as (typeof COUNT_FIELDS)[number]] = field;
  }
  if (Object.keys(record).length === 0) return { ok: false, error: 'an empty object says nothing' };
  return { ok: true, line };
}

/** The line `cronform progress`/`guard` appends: at most MAX_PROGRESS_LINE_BYTES, newline included. */
export function formatProgressLine(line: ProgressLine): string {
  switch (line.kind) {
    case 'guard':
      return `${JSON.stringify({ guard: { affects: line.affects } })}\n`;
    case 'item':
      return `${JSON.stringify({ item: line.key, status: line.status === 'DONE' ? 'done' : 'failed', ...(line.error === null ? {} : { error: line.error }) })}\n`;
    case 'counts': {
      const { kind: _kind, ...counts } = line;
      return `${JSON.stringify(counts)}\n`;
    }
  }
}

/** Whether `affects` is more than the limit the runner gave the job (no limit: never). */
export function exceedsMaxAffected(affects: number, maxAffected: number | null): boolean {
  return maxAffected !== null && affects > maxAffected;
}

/** CRONFORM_SAFETY_MAX_AFFECTED as a number; null when unset. A value that is not a count is treated as 0 (refuse all). */
export function readMaxAffected(env: NodeJS.ProcessEnv): number | null {
  const text = env[SAFETY_MAX_AFFECTED_ENV];
  if (text === undefined || text === '') return null;
  const value = Number(text);
  return isCount(value) ? value : 0;
}

/**
 * `cronform progress` and `cronform guard` (SPEC §8a): run inside a job, they append one line to
 * the job's progress file (shared/progress-line.ts) and never touch the database, which a job has
 * no credentials for. Outside a run (no CRONFORM_PROGRESS_FILE) nothing is recorded: `progress`
 * says so and succeeds, so a job can be tried by hand; `guard` still answers from
 * CRONFORM_SAFETY_MAX_AFFECTED.
 */
import { appendFileSync } from 'node:fs';
import {
  DRY_RUN_ENV,
  exceedsMaxAffected,
  formatProgressLine,
  MAX_ITEM_KEY_CHARS,
  MAX_PROGRESS_LINE_BYTES,
  PROGRESS_FILE_ENV,
  readMaxAffected,
  type ProgressLine,
} from '../../shared/progress-line.js';

export class ProgressUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProgressUsageError';
  }
}

/** Where the lines go: the run's progress file, or nowhere outside a run. */
export function progressFileOf(env: NodeJS.ProcessEnv): string | undefined {
  const file = env[PROGRESS_FILE_ENV];
  return file === undefined || file === '' ? undefined : file;
}

/**
 * Appends the lines, each with one write: the runner reads whole lines, and an append of at most
 * MAX_PROGRESS_LINE_BYTES is not interleaved with another process's append to the same file.
 */
export function appendProgressLines(file: string, lines: ProgressLine[]): void {
  for (const line of lines) {
    const text = formatProgressLine(line);
    if (Buffer.byteLength(text) > MAX_PROGRESS_LINE_BYTES) throw new ProgressUsageError(`the line would be longer than ${MAX_PROGRESS_LINE_BYTES} bytes`);
    appendFileSync(file, text);
  }
}

export interface ProgressFlags {
  total?: number;
  done?: number;
  failed?: number;
  wouldAffect?: number;
  itemDone: string[];
  itemFailed: string[];
  error?: string;
}

/** The lines `cronform progress` writes for its flags: one for the counts, one per item. */
export function progressLinesOf(flags: ProgressFlags): ProgressLine[] {
  const lines: ProgressLine[] = [];
  const counts = { total: flags.total, done: flags.done, failed: flags.failed, wouldAffect: flags.wouldAffect };
  const given = Object.fromEntries(Object.entries(counts).filter(([, value]) => value !== undefined)) as Omit<Extract<ProgressLine, { kind: 'counts' }>, 'kind'>;
  if (Object.keys(given).length > 0) lines.push({ kind: 'counts', ...given });
  if (flags.error !== undefined && flags.itemFailed.length === 0) throw new ProgressUsageError('--error describes --item-failed items; give at least one');
  for (const [keys, status] of [[flags.itemDone, 'DONE'], [flags.itemFailed, 'FAILED']] as const) {
    for (const key of keys) {
      if (key === '' || key.length > MAX_ITEM_KEY_CHARS || /[\n\r\0]/.test(key)) {
        throw new ProgressUsageError(`an item key is 1 to ${MAX_ITEM_KEY_CHARS} characters without line breaks (got ${JSON.stringify(key.slice(0, 40))})`);
      }
      lines.push({ kind: 'item', key, status, error: status === 'FAILED' ? (flags.error ?? null) : null });
    }
  }
  if (lines.length === 0) throw new ProgressUsageError('nothing to report: give --total, --done, --failed, --would-affect, --item-done or --item-failed');
  return lines;
}

export interface GuardAnswer {
  affects: number;
  maxAffected: number | null;
  dryRun: boolean;
  /** May the job go on and act? */
  proceed: boolean;
  /** The line was written to the run's progress file (false outside a run). */
  recorded: boolean;
  reason: string;
}

/**
 * The guard's answer, synchronous so that the job can stop before it acts: no in a dry run (it
 * only reports), no above the limit the runner gave (the runner then holds the run in
 * MANUAL_REQUIRED, whatever the job's exit code), yes otherwise. The line is written either way:
 * the runner judges by it, not by what the job does with the answer.
 */
export function answerGuard(affects: number, env: NodeJS.ProcessEnv): GuardAnswer {
  const maxAffected = readMaxAffected(env);
  const dryRun = env[DRY_RUN_ENV] === '1';
  const file = progressFileOf(env);
  if (file !== undefined) appendProgressLines(file, [{ kind: 'guard', affects }]);
  const over = exceedsMaxAffected(affects, maxAffected);
  const reason = dryRun
    ? `dry run: would affect ${affects}; not proceeding`
    : over
      ? `would affect ${affects} > maxAffected ${maxAffected}: not proceeding; the run waits for approval`
      : `may affect ${affects}${maxAffected === null ? ' (no maxAffected)' : ` (maxAffected ${maxAffected})`}`;
  return { affects, maxAffected, dryRun, proceed: !dryRun && !over, recorded: file !== undefined, reason };
}

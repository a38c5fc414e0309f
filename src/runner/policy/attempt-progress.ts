/**
 * What one attempt's job reported through its progress file (shared/progress-line.ts), folded line
 * by line. Pure: the executor feeds it the bytes it read; the worker reads the state at heartbeats
 * and at the end. Bounded whatever the job writes: a line longer than MAX_PROGRESS_LINE_BYTES is
 * dropped, items beyond MAX_ITEMS_PER_ATTEMPT are counted but not kept one by one, and the executor
 * stops reading after MAX_PROGRESS_FILE_BYTES.
 */
import { MAX_PROGRESS_LINE_BYTES, parseProgressLine } from '../../shared/progress-line.js';
import type { ItemStatus } from '../../db/run-vocabulary.js';

/** Items kept by key per attempt (and so per retry file); a bigger batch is counted, not itemized. */
export const MAX_ITEMS_PER_ATTEMPT = 100_000;
/** Bytes of the progress file the runner reads per attempt; the rest is ignored (and said so). */
export const MAX_PROGRESS_FILE_BYTES = 32 * 1024 * 1024;

export interface ReportedItem {
  status: ItemStatus;
  error: string | null;
}

export class AttemptProgress {
  total: number | null = null;
  done: number | null = null;
  failed: number | null = null;
  wouldAffect: number | null = null;
  /** The largest count a `guard` line asked about. */
  guardAffects: number | null = null;
  /** Latest status per key, in first-report order. */
  readonly items = new Map<string, ReportedItem>();
  /** Items reported after the cap was reached, by status: counted, not kept. */
  readonly overflow = { DONE: 0, FAILED: 0 };
  rejectedLines = 0;
  firstRejection: string | null = null;
  /** Bytes read past the cap were ignored. */
  fileTruncated = false;
  /** Bumped by every accepted line: the worker writes live progress only when it moved. */
  version = 0;
  private partial = '';
  private skippingLongLine = false;

  /** Feeds text read from the file; a trailing piece without newline waits for the rest. */
  addText(text: string): void {
    let start = 0;
    for (;;) {
      const newline = text.indexOf('\n', start);
      if (newline === -1) break;
      this.endLine(text.slice(start, newline));
      start = newline + 1;
    }
    this.extendPartial(text.slice(start));
  }

  /** The job has ended: a last line without newline still counts. */
  finish(): void {
    if (this.partial !== '' || this.skippingLongLine) this.endLine('');
  }

  /** Keys whose latest report this attempt is FAILED. */
  failedKeys(): string[] {
    return [...this.items].filter(([, item]) => item.status === 'FAILED').map(([key]) => key);
  }

  private extendPartial(piece: string): void {
    if (this.skippingLongLine) return;
    if (this.partial.length + piece.length > MAX_PROGRESS_LINE_BYTES) {
      this.partial = '';
      this.skippingLongLine = true;
      return;
    }
    this.partial += piece;
  }

  private endLine(tail: string): void {
    const tooLong = this.skippingLongLine || this.partial.length + tail.length > MAX_PROGRESS_LINE_BYTES;
    const text = tooLong ? '' : this.partial + tail;
    this.partial = '';
    this.skippingLongLine = false;
    if (tooLong) return this.reject(`a line longer than ${MAX_PROGRESS_LINE_BYTES} bytes`);
    if (text.trim() === '') return;
    const parsed = parseProgressLine(text);
    if (!parsed.ok) return this.reject(parsed.error);
    this.version += 1;
    const { line } = parsed;
    if (line.kind === 'counts') {
      if (line.total !== undefined) this.total = line.total;
      if (line.done !== undefined) this.done = line.done;
      if (line.failed !== undefined) this.failed = line.failed;
      if (line.wouldAffect !== undefined) this.wouldAffect = line.wouldAffect;
    } else if (line.kind === 'guard') {
      this.guardAffects = Math.max(this.guardAffects ?? 0, line.affects);
    } else if (this.items.has(line.key) || this.items.size < MAX_ITEMS_PER_ATTEMPT) {
      this.items.set(line.key, { status: line.status, error: line.error });
    } else {
      this.overflow[line.status] += 1;
    }
  }

  private reject(reason: string): void {
    this.rejectedLines += 1;
    this.firstRejection ??= reason;
  }
}

/**
 * The files between a command job and its runner (shared/progress-line.ts): a private directory
 * per attempt (mode 0700, under the system's temp dir) holding the progress file the job appends
 * to and, on a retry with failed items, the file of their keys. The runner reads the progress file
 * from where it stopped, every POLL_MS while the job runs and once more after it ended, into the
 * attempt's AttemptProgress; it reads at most MAX_PROGRESS_FILE_BYTES. The directory is removed
 * when the attempt ends.
 */
import { mkdtemp, open, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { PROGRESS_FILE_ENV, RETRY_ITEMS_FILE_ENV } from '../../shared/progress-line.js';
import { MAX_PROGRESS_FILE_BYTES, type AttemptProgress } from '../policy/attempt-progress.js';

/** How often the file is read while the job runs: live counts reach the database at heartbeats anyway. */
export const PROGRESS_POLL_MS = 250;
const READ_CHUNK_BYTES = 64 * 1024;

export interface ProgressChannelOptions {
  report: AttemptProgress;
  /** Keys of the run's failed items, on a retry that should re-run only those; null otherwise. */
  retryItems: string[] | null;
}

export class ProgressChannel {
  private offset = 0;
  private reading: Promise<void> | undefined;
  private readonly decoder = new StringDecoder('utf8');

  private constructor(
    private readonly directory: string,
    private readonly handle: FileHandle,
    private readonly report: AttemptProgress,
    readonly env: Record<string, string>,
  ) {}

  static async open(options: ProgressChannelOptions): Promise<ProgressChannel> {
    const directory = await mkdtemp(join(tmpdir(), 'cronform-run-'));
    const progressFile = join(directory, 'progress.jsonl');
    const env: Record<string, string> = { [PROGRESS_FILE_ENV]: progressFile };
    try {
      // Created by the runner (0600) so that the job only appends; 'a+' lets the runner read it back.
      const handle = await open(progressFile, 'a+', 0o600);
      if (options.retryItems !== null) {
        const retryFile = join(directory, 'retry-items.txt');
        await writeFile(retryFile, options.retryItems.map((key) => `${key}\n`).join(''), { mode: 0o600 });
        env[RETRY_ITEMS_FILE_ENV] = retryFile;
      }
      return new ProgressChannel(directory, handle, options.report, env);
    } catch (error) {
      await rm(directory, { recursive: true, force: true });
      throw error;
    }
  }

  /** Reads what the job appended since the last read (one read at a time). */
  poll(): Promise<void> {
    this.reading ??= this.readNew().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  /** The job has ended: a last read, then the directory goes. */
  async close(): Promise<void> {
    try {
      await this.reading;
      await this.readNew();
      this.report.addText(this.decoder.end());
      this.report.finish();
    } finally {
      await this.handle.close().catch(() => undefined);
      await rm(this.directory, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  private async readNew(): Promise<void> {
    const buffer = Buffer.alloc(READ_CHUNK_BYTES);
    for (;;) {
      if (this.offset >= MAX_PROGRESS_FILE_BYTES) {
        const { size } = await this.handle.stat();
        if (size > this.offset) this.report.fileTruncated = true;
        return;
      }
      const length = Math.min(READ_CHUNK_BYTES, MAX_PROGRESS_FILE_BYTES - this.offset);
      const { bytesRead } = await this.handle.read(buffer, 0, length, this.offset);
      if (bytesRead === 0) return;
      this.offset += bytesRead;
      this.report.addText(this.decoder.write(buffer.subarray(0, bytesRead)));
    }
  }
}

/**
 * The files between a command job and its runner (shared/progress-line.ts), in the process's
 * private directory (job-files.ts): per attempt, the progress file the job appends to and, on a
 * retry with failed items, the file of their keys. The runner reads the progress file from where
 * it stopped, every POLL_MS while the job runs and once more after it ended, into the attempt's
 * AttemptProgress; it reads at most MAX_PROGRESS_FILE_BYTES. The files are removed when the
 * attempt ends.
 *
 * The progress file is created, sized and removed with synchronous calls, each a system call of
 * microseconds on the event loop: the asynchronous ones are each a round trip to libuv's thread
 * pool, and most jobs never write a line. Only reads of what a job wrote go through the pool.
 */
import { closeSync, fstatSync, openSync, read, unlinkSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { promisify } from 'node:util';
import { PROGRESS_FILE_ENV, RETRY_ITEMS_FILE_ENV } from '../../shared/progress-line.js';
import { MAX_PROGRESS_FILE_BYTES, type AttemptProgress } from '../policy/attempt-progress.js';
import { inJobFilesDirectory, uniqueJobFileName } from './job-files.js';

/** How often the file is read while the job runs: live counts reach the database at heartbeats anyway. */
export const PROGRESS_POLL_MS = 250;
const READ_CHUNK_BYTES = 64 * 1024;
const readAt = promisify(read);

export interface ProgressChannelOptions {
  report: AttemptProgress;
  /** Keys of the run's failed items, on a retry that should re-run only those; null otherwise. */
  retryItems: string[] | null;
}

export class ProgressChannel {
  private offset = 0;
  private reading: Promise<void> | undefined;
  private readonly decoder = new StringDecoder('utf8');
  /** Made on the first read of something the job wrote. */
  private buffer: Buffer | undefined;

  private constructor(
    private readonly files: string[],
    private readonly fd: number,
    private readonly report: AttemptProgress,
    readonly env: Record<string, string>,
  ) {}

  static async open(options: ProgressChannelOptions): Promise<ProgressChannel> {
    const name = uniqueJobFileName('progress', '');
    const { directory, fd } = await inJobFilesDirectory((directory) => ({
      directory,
      // Created by the runner (0600, and new: 'x') so that the job only appends; 'a+' lets the runner read it back.
      fd: openSync(join(directory, `${name}.jsonl`), 'ax+', 0o600),
    }));
    const progressFile = join(directory, `${name}.jsonl`);
    const env: Record<string, string> = { [PROGRESS_FILE_ENV]: progressFile };
    const files = [progressFile];
    try {
      if (options.retryItems !== null) {
        const retryFile = join(directory, `${name}.retry-items.txt`);
        files.push(retryFile);
        await writeFile(retryFile, options.retryItems.map((key) => `${key}\n`).join(''), { mode: 0o600, flag: 'wx' });
        env[RETRY_ITEMS_FILE_ENV] = retryFile;
      }
      return new ProgressChannel(files, fd, options.report, env);
    } catch (error) {
      removeFiles(fd, files);
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

  /** The job has ended: a last read, then the files go. */
  async close(): Promise<void> {
    try {
      await this.reading;
      await this.readNew();
      this.report.addText(this.decoder.end());
      this.report.finish();
    } finally {
      removeFiles(this.fd, this.files);
    }
  }

  private async readNew(): Promise<void> {
    for (;;) {
      const { size } = fstatSync(this.fd);
      if (size <= this.offset) return;
      if (this.offset >= MAX_PROGRESS_FILE_BYTES) {
        this.report.fileTruncated = true;
        return;
      }
      this.buffer ??= Buffer.allocUnsafe(READ_CHUNK_BYTES);
      const length = Math.min(READ_CHUNK_BYTES, MAX_PROGRESS_FILE_BYTES - this.offset);
      const { bytesRead } = await readAt(this.fd, this.buffer, 0, length, this.offset);
      if (bytesRead === 0) return;
      this.offset += bytesRead;
      this.report.addText(this.decoder.write(this.buffer.subarray(0, bytesRead)));
    }
  }
}

function removeFiles(fd: number, files: readonly string[]): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
  for (const file of files) {
    try {
      unlinkSync(file);
    } catch {
      // never made, or already gone
    }
  }
}

/** The runner's side of the progress file: private files per attempt, read from where it stopped, removed at the end. */
import { appendFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProgressChannel } from '../../../src/runner/executors/progress-channel.js';
import { AttemptProgress } from '../../../src/runner/policy/attempt-progress.js';

describe('ProgressChannel', () => {
  it('names a private progress file and, on a retry, the file of failed keys; reads appends incrementally; removes both at close', async () => {
    const report = new AttemptProgress();
    const channel = await ProgressChannel.open({ report, retryItems: ['item-0', 'item-100'] });
    const progressFile = channel.env.CRONFORM_PROGRESS_FILE!;
    const retryFile = channel.env.CRONFORM_RETRY_ITEMS_FILE!;
    expect(statSync(dirname(progressFile)).mode & 0o777).toBe(0o700);
    expect(readFileSync(retryFile, 'utf8')).toBe('item-0\nitem-100\n');
    appendFileSync(progressFile, '{"total":2}\n{"item":"item-0","sta');
    await channel.poll();
    expect([report.total, report.items.size]).toEqual([2, 0]);
    appendFileSync(progressFile, 'tus":"done"}\n{"item":"item-100","status":"failed"}');
    await channel.close();
    expect([...report.items.keys()]).toEqual(['item-0', 'item-100']);
    expect([existsSync(progressFile), existsSync(retryFile)]).toEqual([false, false]);
  });

  it('gives every attempt files of its own in one directory of the process', async () => {
    const channels = await Promise.all([1, 2].map(() => ProgressChannel.open({ report: new AttemptProgress(), retryItems: [] })));
    const [first, second] = channels.map((channel) => channel.env);
    expect(new Set([first!.CRONFORM_PROGRESS_FILE, first!.CRONFORM_RETRY_ITEMS_FILE, second!.CRONFORM_PROGRESS_FILE, second!.CRONFORM_RETRY_ITEMS_FILE]).size).toBe(4);
    expect(dirname(first!.CRONFORM_PROGRESS_FILE!)).toBe(dirname(second!.CRONFORM_PROGRESS_FILE!));
    expect(statSync(first!.CRONFORM_PROGRESS_FILE!).mode & 0o777).toBe(0o600);
    await Promise.all(channels.map((channel) => channel.close()));
    expect(existsSync(dirname(first!.CRONFORM_PROGRESS_FILE!))).toBe(true);
  });

  it('gives no retry file on a first attempt', async () => {
    const channel = await ProgressChannel.open({ report: new AttemptProgress(), retryItems: null });
    expect(Object.keys(channel.env)).toEqual(['CRONFORM_PROGRESS_FILE']);
    await channel.close();
  });
});

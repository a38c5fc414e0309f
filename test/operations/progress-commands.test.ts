/** `cronform progress` and `cronform guard` without a database: the lines they write and the guard's answer. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { answerGuard, appendProgressLines, progressLinesOf, ProgressUsageError } from '../../src/operations/progress/report-progress.js';
import { parseProgressLine } from '../../src/shared/progress-line.js';

describe('progress and guard', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const progressFile = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'cronform-progress-'));
    dirs.push(dir);
    return join(dir, 'progress.jsonl');
  };
  const lines = (file: string): unknown[] => readFileSync(file, 'utf8').trim().split('\n').map((line) => parseProgressLine(line));

  it('writes one counts line and a line per item, each one the runner parses back', () => {
    const file = progressFile();
    appendProgressLines(file, progressLinesOf({ total: 3, done: 1, itemDone: ['a'], itemFailed: ['b', 'c'], error: 'rejected' }));
    expect(lines(file)).toEqual([
      { ok: true, line: { kind: 'counts', total: 3, done: 1 } },
      { ok: true, line: { kind: 'item', key: 'a', status: 'DONE', error: null } },
      { ok: true, line: { kind: 'item', key: 'b', status: 'FAILED', error: 'rejected' } },
      { ok: true, line: { kind: 'item', key: 'c', status: 'FAILED', error: 'rejected' } },
    ]);
  });

  it('refuses to report nothing, an --error without failed items and a key with a line break', () => {
    expect(() => progressLinesOf({ itemDone: [], itemFailed: [] })).toThrow(ProgressUsageError);
    expect(() => progressLinesOf({ itemDone: [], itemFailed: [], error: 'x', done: 1 })).toThrow('--error describes --item-failed items; give at least one');
    expect(() => progressLinesOf({ itemDone: ['a\nb'], itemFailed: [] })).toThrow(/an item key is 1 to 200 characters/);
  });

  it('guard: proceeds within the limit, refuses above it and in a dry run, and records the question each time', () => {
    const file = progressFile();
    const env = { CRONFORM_PROGRESS_FILE: file, CRONFORM_SAFETY_MAX_AFFECTED: '10000' };
    expect(answerGuard(10_000, env)).toMatchObject({ proceed: true, dryRun: false, maxAffected: 10_000, recorded: true });
    expect(answerGuard(10_001, env)).toMatchObject({ proceed: false, dryRun: false, reason: 'would affect 10001 > maxAffected 10000: not proceeding; the run waits for approval' });
    expect(answerGuard(5, { ...env, CRONFORM_DRY_RUN: '1' })).toMatchObject({ proceed: false, dryRun: true });
    expect(answerGuard(99, { CRONFORM_SAFETY_MAX_AFFECTED: 'lots' })).toMatchObject({ proceed: false, maxAffected: 0, recorded: false });
    expect(answerGuard(99, {})).toMatchObject({ proceed: true, maxAffected: null, recorded: false });
    expect(lines(file)).toEqual([10_000, 10_001, 5].map((affects) => ({ ok: true, line: { kind: 'guard', affects } })));
  });
});

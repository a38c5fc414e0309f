/**
 * The pure side of SPEC §8a: the progress lines a job writes, folded per attempt with their
 * bounds, and what they make of the run (run-progress.ts).
 */
import { describe, expect, it } from 'vitest';
import { AttemptProgress, MAX_ITEMS_PER_ATTEMPT } from '../../../src/runner/policy/attempt-progress.js';
import { judgeProgress, summarizeRunProgress, withinAllowedFailures, effectiveMaxAffected, type PriorProgress } from '../../../src/runner/policy/run-progress.js';
import { MAX_PROGRESS_LINE_BYTES, parseProgressLine } from '../../../src/shared/progress-line.js';

function fed(...lines: string[]): AttemptProgress {
  const report = new AttemptProgress();
  report.addText(lines.map((line) => `${line}\n`).join(''));
  return report;
}

const batch = (items: number, failEvery: number): AttemptProgress =>
  fed(JSON.stringify({ total: items }), ...Array.from({ length: items }, (_, i) => JSON.stringify({ item: `item-${i}`, status: i % failEvery === 0 ? 'failed' : 'done' })));

describe('progress lines', () => {
  it.each([
    ['{"total":1000,"done":3}', { ok: true, line: { kind: 'counts', total: 1000, done: 3 } }],
    ['{"item":"a","status":"failed","error":"no"}', { ok: true, line: { kind: 'item', key: 'a', status: 'FAILED', error: 'no' } }],
    ['{"guard":{"affects":12}}', { ok: true, line: { kind: 'guard', affects: 12 } }],
    ['{"total":-1}', { ok: false, error: 'total must be a non-negative integer' }],
    ['{"done":1.5}', { ok: false, error: 'done must be a non-negative integer' }],
    ['{"totl":3}', { ok: false, error: 'unknown field "totl"' }],
    ['{}', { ok: false, error: 'an empty object says nothing' }],
    ['[1]', { ok: false, error: 'not a JSON object' }],
    ['nope', { ok: false, error: 'not JSON' }],
    ['{"item":"a","status":"ok"}', { ok: false, error: 'an item status is "done" or "failed"' }],
    ['{"item":"a\\nb","status":"done"}', { ok: false, error: 'an item key is a non-empty string of at most 200 characters without line breaks' }],
    ['{"guard":{"affects":"12"}}', { ok: false, error: 'a guard line is {"guard":{"affects":N}} with N a non-negative integer' }],
  ])('%s', (text, expected) => {
    expect(parseProgressLine(text)).toEqual(expected);
  });
});

describe('AttemptProgress', () => {
  it('keeps the last counts, the latest status per item and the largest guard', () => {
    const report = fed('{"total":10,"done":1}', '{"done":4,"failed":1}', '{"item":"a","status":"failed"}', '{"item":"a","status":"done"}', '{"guard":{"affects":7}}', '{"guard":{"affects":3}}');
    expect([report.total, report.done, report.failed, report.guardAffects]).toEqual([10, 4, 1, 7]);
    expect([...report.items]).toEqual([['a', { status: 'DONE', error: null }]]);
    expect(report.version).toBe(6);
  });

  it('reads lines split across reads, and a last line without newline once the job ended', () => {
    const report = new AttemptProgress();
    report.addText('{"tot');
    report.addText('al":5}\n{"done"');
    expect(report.total).toBe(5);
    report.addText(':2}');
    expect(report.done).toBeNull();
    report.finish();
    expect(report.done).toBe(2);
  });

  it('drops a line longer than the limit, even when it arrives in pieces, and the next line still counts', () => {
    const report = new AttemptProgress();
    const long = JSON.stringify({ item: 'x'.repeat(MAX_PROGRESS_LINE_BYTES), status: 'done' });
    report.addText(long.slice(0, 3000));
    report.addText(long.slice(3000));
    report.addText('\n{"total":3}\n');
    expect(report.items.size).toBe(0);
    expect([report.rejectedLines, report.firstRejection, report.total]).toEqual([1, `a line longer than ${MAX_PROGRESS_LINE_BYTES} bytes`, 3]);
  });

  it('counts bad lines without failing, and keeps at most MAX_ITEMS_PER_ATTEMPT items by key', () => {
    const report = fed('garbage', '{"done":"1"}');
    expect([report.rejectedLines, report.firstRejection, report.version]).toEqual([2, 'not JSON', 0]);
    const many = new AttemptProgress();
    many.addText(Array.from({ length: MAX_ITEMS_PER_ATTEMPT + 2 }, (_, i) => `{"item":"k${i}","status":"${i % 2 === 0 ? 'done' : 'failed'}"}\n`).join(''));
    expect(many.items.size).toBe(MAX_ITEMS_PER_ATTEMPT);
    expect(many.overflow).toEqual({ DONE: 1, FAILED: 1 });
    const summary = summarizeRunProgress(many, null);
    expect([summary.done, summary.failed, summary.itemsTruncated]).toEqual([MAX_ITEMS_PER_ATTEMPT / 2 + 1, MAX_ITEMS_PER_ATTEMPT / 2 + 1, true]);
  });
});

describe('a run judged by its items', () => {
  const rules = (allowedFailures?: { count?: number; percent?: number }, maxAffected: number | null = null, dryRun = false) => ({ allowedFailures, maxAffected, dryRun });
  const succeeded = { status: 'SUCCEEDED' } as const;

  it('1,000 items with 10 failed: PARTIAL_SUCCESS within 10 or 1%, FAILED beyond 9 or 0.9%', () => {
    const summary = summarizeRunProgress(batch(1000, 100), null);
    expect([summary.total, summary.done, summary.failed]).toEqual([1000, 990, 10]);
    expect(judgeProgress(succeeded, summary, rules({ count: 10 }))).toEqual({ kind: 'partial-success' });
    expect(judgeProgress(succeeded, summary, rules({ percent: 1 }))).toEqual({ kind: 'partial-success' });
    expect(judgeProgress(succeeded, summary, rules({ count: 9 }))).toEqual({ kind: 'items-failed', error: '10 of 1,000 items failed, more than allowedFailures 9' });
    expect(judgeProgress(succeeded, summary, rules({ percent: 0.9 }))).toEqual({ kind: 'items-failed', error: '10 of 1,000 items failed, more than allowedFailures 0.9%' });
    expect(judgeProgress(succeeded, summary, rules())).toMatchObject({ kind: 'items-failed' });
  });

  it('an exit other than 0 wins over the items; a clean batch is the attempt as it is', () => {
    const summary = summarizeRunProgress(batch(1000, 100), null);
    expect(judgeProgress({ status: 'FAILED' }, summary, rules({ count: 10 }))).toEqual({ kind: 'as-attempt' });
    expect(judgeProgress(succeeded, summarizeRunProgress(fed('{"total":5,"done":5}'), null), rules())).toEqual({ kind: 'as-attempt' });
  });

  it('a retry merges its items over the earlier ones by key', () => {
    const prior: PriorProgress = { total: 1000, approvedAffected: null, completeReport: true, items: new Map(Array.from({ length: 1000 }, (_, i) => [`item-${i}`, i % 100 === 0 ? 'FAILED' : 'DONE'])) };
    const retry = fed('{"total":10}', ...Array.from({ length: 10 }, (_, i) => JSON.stringify({ item: `item-${i * 100}`, status: i === 3 ? 'failed' : 'done' })));
    const summary = summarizeRunProgress(retry, prior);
    expect([summary.total, summary.done, summary.failed, summary.items.size]).toEqual([1000, 999, 1, 10]);
  });

  it('counts without item keys: the last report stands; percent of the larger of total and items seen', () => {
    const summary = summarizeRunProgress(fed('{"total":200,"done":190,"failed":2}'), null);
    expect([summary.total, summary.done, summary.failed]).toEqual([200, 190, 2]);
    expect(withinAllowedFailures(summary, { percent: 1 })).toBe(true);
    expect(withinAllowedFailures({ ...summary, failed: 3 }, { percent: 1 })).toBe(false);
  });

  it('the safety threshold: MANUAL_REQUIRED above it, whatever the exit; never in a dry run or when cancelled', () => {
    const summary = summarizeRunProgress(fed('{"guard":{"affects":12000}}'), null);
    expect(judgeProgress(succeeded, summary, rules(undefined, 10_000))).toEqual({ kind: 'safety-threshold', error: 'would affect 12,000 > maxAffected 10,000' });
    expect(judgeProgress({ status: 'FAILED' }, summary, rules(undefined, 10_000))).toMatchObject({ kind: 'safety-threshold' });
    expect(judgeProgress(succeeded, summary, rules(undefined, 12_000))).toEqual({ kind: 'as-attempt' });
    expect(judgeProgress(succeeded, summary, rules(undefined, 10_000, true))).toEqual({ kind: 'as-attempt' });
    expect(judgeProgress({ status: 'CANCELLED' }, summary, rules(undefined, 10_000))).toEqual({ kind: 'as-attempt' });
    expect(judgeProgress(succeeded, summarizeRunProgress(fed('{"wouldAffect":10001}'), null), rules(undefined, 10_000))).toMatchObject({ kind: 'safety-threshold' });
    expect(judgeProgress(succeeded, summary, rules())).toEqual({ kind: 'as-attempt' });
  });

  it('an approval raises the limit to the reported count, never lowers it', () => {
    expect(effectiveMaxAffected(10_000, { approvedAffected: 12_000 })).toBe(12_000);
    expect(effectiveMaxAffected(10_000, { approvedAffected: 5 })).toBe(10_000);
    expect(effectiveMaxAffected(undefined, { approvedAffected: 12_000 })).toBeNull();
  });
});

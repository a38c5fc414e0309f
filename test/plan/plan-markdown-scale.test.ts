/**
 * Plans at repository scale through the real pipeline (manifest text → compile → buildPlan →
 * render): a PR comment stays under GitHub's 65,536 characters and says what it cut, and output
 * size follows the number of changes, not the number of unchanged schedules.
 */
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { compileSources, type CompileResult } from '../../src/compile/compile-sources.js';
import { buildPlan } from '../../src/plan/build-plan.js';
import type { Plan } from '../../src/plan/plan-types.js';
import { PLAN_COMMENT_MARKER, renderPlanMarkdown } from '../../src/plan/render-markdown.js';
import { renderPlanText } from '../../src/plan/render-text.js';
import { definitionsById, type StoredSchedule } from '../../src/compile/stored-schedule.js';
import { storedAfterApply } from '../support/stored-schedules.js';

const NOW_MS = Date.parse('2026-11-29T12:00:00Z');
const GITHUB_COMMENT_MAX_CHARS = 65_536;

const nameOf = (index: number) => `job-${String(index).padStart(4, '0')}`;

type SpecOf = (index: number) => Record<string, unknown>;

/** `count` schedules in files of 100 documents; `specOf` decides which ones differ between two compiles. */
function compileSchedules(count: number, specOf: SpecOf): CompileResult {
  const files: Array<{ file: string; text: string }> = [];
  for (let start = 0; start < count; start += 100) {
    const documents = [];
    for (let index = start; index < Math.min(count, start + 100); index += 1) {
      documents.push(stringify({
        apiVersion: 'cronform/v1',
        kind: 'Schedule',
        metadata: { name: nameOf(index), owner: 'platform-team' },
        spec: { cron: spreadCron(index), timezone: 'UTC', job: { type: 'command', command: ['node', `jobs/${nameOf(index)}.js`] }, ...specOf(index) },
      }));
    }
    files.push({ file: `schedules/batch-${String(start / 100).padStart(2, '0')}.yaml`, text: documents.join('---\n') });
  }
  const compiled = compileSources(files, NOW_MS);
  expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  expect(compiled.schedules).toHaveLength(count);
  return compiled;
}

/** Spread over the day: at most two schedules share an instant, so no herd findings. */
const spreadCron = (index: number) => `${index % 60} ${Math.floor(index / 60) % 24} * * *`;
const asFirst: SpecOf = () => ({});
/** The same minute, one hour later: an update with the same findings for every schedule. */
const moved: SpecOf = (index) => ({ cron: `${index % 60} ${(Math.floor(index / 60) + 1) % 24} * * *` });
/** A review's everyday mix: every `every`-th schedule changes; half of those move their slots, half only raise the timeout. */
const changeEvery = (every: number, offset: number): SpecOf => (index) => {
  if (index % every !== offset) return {};
  return Math.floor(index / every) % 2 === 0 ? moved(index) : { timeout: '20m' };
};

function plan(desired: CompileResult, current: StoredSchedule[]): Plan {
  return buildPlan({ desired, current, storedDefinitions: definitionsById(current), history: new Map(), nowMs: NOW_MS, against: { kind: 'database', engine: 'postgres' } });
}

/** The counts a truncation note claims, checked against what the comment really shows. */
function inspectComment(markdown: string) {
  const note = /^> ⚠ Output truncated: ([\d,]+) of ([\d,]+) changes not shown in detail \(the risk table lists ([\d,]+) of ([\d,]+) findings\)\. Run `cronform plan` locally or download the plan artifact for the full plan\.$/m.exec(markdown);
  const number = (text: string | undefined) => Number(text?.replace(/,/g, ''));
  return {
    note: note?.[0],
    cutDetails: number(note?.[1]),
    totalChanges: number(note?.[2]),
    rowsListed: number(note?.[3]),
    totalFindings: number(note?.[4]),
    detailsShown: markdown.split('\n').filter((line) => line.startsWith('<details><summary>')).length,
    rowsShown: markdown.split('\n').filter((line) => /^\| \*\*(LOW|MEDIUM|HIGH|ERROR)\*\* \|/.test(line)).length,
  };
}

describe('plan output at scale', () => {
  const first = compileSchedules(2_000, asFirst);

  it('2,000 creates: the markdown comment stays under 65,536 characters and says exactly what it cut', () => {
    const creates = plan(first, []);
    expect(creates.summary).toMatchObject({ create: 2_000, unchanged: 0, errors: 0 });
    expect(creates.changes.flatMap((c) => c.findings.map((f) => f.code))).toEqual(Array(2_000).fill('CF502'));

    const markdown = renderPlanMarkdown(creates);
    expect(markdown.length).toBeLessThanOrEqual(GITHUB_COMMENT_MAX_CHARS);
    expect(markdown.startsWith(`${PLAN_COMMENT_MARKER}\n## cronform plan: highest risk LOW\n`)).toBe(true);
    expect(markdown).toContain('**Plan: 2,000 to create, 0 to update, 0 to archive, 0 to restore, 0 to rename, 0 unchanged, 0 drift');
    const comment = inspectComment(markdown);
    expect(comment.note).toBeDefined();
    expect(comment.totalChanges).toBe(2_000);
    expect(comment.totalFindings).toBe(2_000);
    // The risk table comes first and fills the comment; the note counts what is really there.
    expect(comment.rowsListed).toBe(comment.rowsShown);
    expect(comment.cutDetails).toBe(2_000 - comment.detailsShown);
    expect(comment.rowsShown).toBeGreaterThan(100);
    expect(comment.rowsShown).toBeLessThan(2_000);
    expect(markdown.endsWith(`${comment.note}\n`)).toBe(true);
  });

  it('2,000 updates against a stored first compile: under the limit, truncation stated', () => {
    const updates = plan(compileSchedules(2_000, moved), storedAfterApply(first));
    expect(updates.summary).toMatchObject({ create: 0, update: 2_000, unchanged: 0 });
    expect(updates.changes[0]!.changedPaths).toEqual(['cron']);

    const markdown = renderPlanMarkdown(updates);
    expect(markdown.length).toBeLessThanOrEqual(GITHUB_COMMENT_MAX_CHARS);
    const comment = inspectComment(markdown);
    expect(comment.totalChanges).toBe(2_000);
    // Each update re-raises the slot move (CF303) and the catch-up radius (CF502).
    expect(comment.totalFindings).toBe(4_000);
    expect(comment.rowsListed).toBe(comment.rowsShown);
    expect(comment.cutDetails).toBe(2_000 - comment.detailsShown);
  });

  it('10 changes among 1,990 unchanged: a small comment, and text as long as with 10 unchanged', () => {
    const large = plan(compileSchedules(2_000, changeEvery(200, 7)), storedAfterApply(first));
    expect(large.summary).toMatchObject({ update: 10, unchanged: 1_990 });

    const markdown = renderPlanMarkdown(large);
    expect(markdown.length).toBeLessThan(10_000);
    expect(markdown).not.toContain('Output truncated');
    expect(inspectComment(markdown)).toMatchObject({ detailsShown: 10, rowsShown: 10 });

    // The same 10 changes with only 10 schedules left unchanged render the same change blocks.
    const smallFirst = compileSchedules(20, asFirst);
    const smallChanged = compileSchedules(20, changeEvery(2, 1));
    const small = plan(smallChanged, storedAfterApply(smallFirst));
    expect(small.summary).toMatchObject({ update: 10, unchanged: 10 });
    const largeText = renderPlanText(large, { color: false });
    const smallText = renderPlanText(small, { color: false });
    const changeBlocks = (text: string) => text.split('\n').filter((line) => !line.startsWith('Plan: ')).length;
    expect(changeBlocks(largeText)).toBe(changeBlocks(smallText));
    expect(Math.abs(largeText.length - smallText.length)).toBeLessThan(100);
    expect(largeText.length).toBeLessThan(10_000);

    // …and it grows with the number of changes: 100 changes, about ten times the text.
    const hundred = plan(compileSchedules(2_000, changeEvery(20, 7)), storedAfterApply(first));
    expect(hundred.summary).toMatchObject({ update: 100, unchanged: 1_900 });
    const ratio = renderPlanText(hundred, { color: false }).length / largeText.length;
    expect(ratio).toBeGreaterThan(9);
    expect(ratio).toBeLessThan(11);
  });
});

import { describe, expect, it } from 'vitest';
import { planStepResume, type StepRecord } from '../../../src/runner/policy/step-resume.js';

const names = ['extract', 'transform', 'load', 'notify'];
const row = (attempt: number, stepIndex: number, status: string, result: Record<string, unknown> | null = null): StepRecord => ({ attempt, stepIndex, name: names[stepIndex]!, status, result });

describe('planStepResume', () => {
  it.each([
    { case: 'nothing ran yet', records: [], startIndex: 0, results: {} },
    { case: 'step 3 failed', records: [row(1, 0, 'SUCCEEDED', { rows: 1 }), row(1, 1, 'SUCCEEDED'), row(1, 2, 'FAILED')], startIndex: 2, results: { extract: { rows: 1 } } },
    // Killed between steps: the next step has no row at all.
    { case: 'runner killed after step 2', records: [row(1, 0, 'SUCCEEDED'), row(1, 1, 'SUCCEEDED', { b: 2 })], startIndex: 2, results: { transform: { b: 2 } } },
    // Killed inside a step: RUNNING is not a success.
    { case: 'runner killed in step 2', records: [row(1, 0, 'SUCCEEDED'), row(1, 1, 'RUNNING')], startIndex: 1, results: {} },
    { case: 'a later attempt succeeded where an earlier failed', records: [row(1, 0, 'SUCCEEDED'), row(1, 1, 'FAILED'), row(2, 1, 'SUCCEEDED'), row(2, 2, 'TIMED_OUT')], startIndex: 2, results: {} },
    // retry --from-step transform: RESET rows of the next attempt win over older successes.
    { case: 'reset from step 2', records: [row(1, 0, 'SUCCEEDED', { a: 1 }), row(1, 1, 'SUCCEEDED', { b: 1 }), row(1, 2, 'SUCCEEDED'), row(1, 3, 'FAILED'), row(2, 1, 'RESET'), row(2, 2, 'RESET'), row(2, 3, 'RESET')], startIndex: 1, results: { extract: { a: 1 } } },
    { case: 'every step succeeded', records: names.map((_, index) => row(1, index, 'SUCCEEDED')), startIndex: 4, results: {} },
  ])('$case', ({ records, startIndex, results }) => {
    expect(planStepResume(names, records)).toEqual({ startIndex, results });
  });

  it('a row recorded under another step name counts for nothing', () => {
    expect(planStepResume(names, [{ attempt: 1, stepIndex: 0, name: 'old-extract', status: 'SUCCEEDED', result: null }])).toEqual({ startIndex: 0, results: {} });
  });
});

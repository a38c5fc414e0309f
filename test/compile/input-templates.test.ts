import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { evaluateInputs, parseInputTemplate } from '../../src/compile/input-templates.js';
import { placeholderValues, substitutePlaceholders } from '../../src/runner/executors/placeholders.js';
import type { RunContext } from '../../src/runner/run-types.js';

const context = { businessDate: '2026-03-01', scheduledFor: '2026-03-01T21:00:00.000Z', schedule: 'window', trigger: 'SCHEDULED' };

describe('input templates', () => {
  it.each([
    ['{{businessDate}}', '2026-03-01'],
    ['{{ businessDate - 1d }}', '2026-02-28'],
    ['{{businessDate-7d}}..{{businessDate}}', '2026-02-22..2026-03-01'],
    ['{{businessDate + 2w}}', '2026-03-15'],
    ['{{scheduledFor}}', '2026-03-01T21:00:00.000Z'],
    ['{{schedule}}/{{trigger}}', 'window/SCHEDULED'],
    ['plain text', 'plain text'],
  ])('%s → %s', (template, expected) => {
    expect(evaluateInputs({ value: template }, context)).toEqual({ ok: true, values: { value: expected } });
  });

  it.each([
    ['{{now}}', 0, 'unknown variable "now"'],
    ['x{{scheduledFor + 1d}}', 1, 'date arithmetic applies to businessDate only'],
    ['{{businessDate - 9999d}}', 0, 'beyond 3660'],
    ['a }} b', 2, 'unbalanced'],
    ['{{businessDate * 2}}', 0, 'cannot read'],
    ['{{inputs.other}}', 0, 'cannot read'],
  ])('%s is refused at offset %d', (template, offset, message) => {
    const parsed = parseInputTemplate(template);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error.offset).toBe(offset);
    expect(parsed.error.message).toContain(message);
  });

  it('a run without a business date fails the input that needs one, naming it', () => {
    expect(evaluateInputs({ day: '{{businessDate}}' }, { ...context, businessDate: null })).toEqual({ ok: false, error: 'input day: the run has no business date' });
  });

  it('shifts a business date as luxon did, over leap years, month and year ends and every offset allowed', () => {
    // The arithmetic was luxon's until validate stopped loading it (bench/cli-start): same answers.
    const offsets = [-3660, -1461, -366, -365, -60, -31, -29, -28, -7, -1, 1, 6, 7, 28, 29, 30, 31, 59, 365, 366, 1461, 3660];
    for (let day = DateTime.utc(1999, 1, 1); day.year < 2102; day = day.plus({ days: 13 })) {
      const businessDate = day.toISODate()!;
      for (const offset of offsets) {
        const template = `{{businessDate ${offset < 0 ? '-' : '+'} ${Math.abs(offset)}d}}`;
        expect(evaluateInputs({ value: template }, { ...context, businessDate }), `${businessDate} ${offset}`).toEqual({ ok: true, values: { value: day.plus({ days: offset }).toISODate() } });
      }
    }
  });

  it('refuses a business date that is not a calendar date instead of shifting it', () => {
    for (const businessDate of ['2026-02-30', '2026-13-01', '2026-00-10', '2026-3-1', '20260301']) {
      expect(evaluateInputs({ day: '{{businessDate - 1d}}' }, { ...context, businessDate })).toEqual({ ok: false, error: `input day: the run's business date ${JSON.stringify(businessDate)} is not a YYYY-MM-DD date` });
    }
  });

  it('jobs read frozen inputs as {{inputs.NAME}}; an unknown input is an error', () => {
    const run: RunContext = { runId: 7, schedule: 'w', scheduledFor: context.scheduledFor, businessDate: '2026-03-01', idempotencyKey: 'k', attempt: 2, trigger: 'DEPENDENCY', payload: {}, inputs: { windowStart: '2026-02-22' }, upstreamRunId: 5 };
    const values = placeholderValues(run);
    expect(substitutePlaceholders('--from={{inputs.windowStart}} --after={{upstreamRunId}}', values, 'command[1]')).toEqual({ ok: true, value: '--from=2026-02-22 --after=5' });
    expect(substitutePlaceholders('{{inputs.windowEnd}}', values, 'command[1]')).toEqual({ ok: false, error: 'unknown placeholder {{inputs.windowEnd}} in command[1] (known: businessDate, scheduledFor, runId, attempt, idempotencyKey, schedule, trigger, upstreamRunId, inputs.windowStart)' });
  });
});

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

  it('jobs read frozen inputs as {{inputs.NAME}}; an unknown input is an error', () => {
    const run: RunContext = { runId: 7, schedule: 'w', scheduledFor: context.scheduledFor, businessDate: '2026-03-01', idempotencyKey: 'k', attempt: 2, trigger: 'DEPENDENCY', payload: {}, inputs: { windowStart: '2026-02-22' }, upstreamRunId: 5 };
    const values = placeholderValues(run);
    expect(substitutePlaceholders('--from={{inputs.windowStart}} --after={{upstreamRunId}}', values, 'command[1]')).toEqual({ ok: true, value: '--from=2026-02-22 --after=5' });
    expect(substitutePlaceholders('{{inputs.windowEnd}}', values, 'command[1]')).toEqual({ ok: false, error: 'unknown placeholder {{inputs.windowEnd}} in command[1] (known: businessDate, scheduledFor, runId, attempt, idempotencyKey, schedule, trigger, upstreamRunId, inputs.windowStart)' });
  });
});

import { describe, expect, it } from 'vitest';
import { placeholderValues, substitutePlaceholders } from '../../../src/runner/executors/placeholders.js';
import { context } from './executor-fixtures.js';

const values = placeholderValues(context);

describe('substitutePlaceholders', () => {
  it.each([
    ['--date={{businessDate}}', '--date=2026-03-07'],
    ['{{ runId }}/{{attempt}}/{{trigger}}/{{schedule}}', '42/2/SCHEDULED/daily-report'],
    ['{{scheduledFor}}', '2026-03-08T10:30:00.000Z'],
    ['{{idempotencyKey}}', 'daily-report:2026-03-08T10:30:00.000Z:SCHEDULED'],
    ['no placeholders, {single} braces', 'no placeholders, {single} braces'],
  ])('turns %s into %s', (text, expected) => {
    expect(substitutePlaceholders(text, values, 'command[1]')).toEqual({ ok: true, value: expected });
  });

  it('encodes values for their destination', () => {
    expect(substitutePlaceholders('/k/{{idempotencyKey}}', values, 'url', encodeURIComponent)).toEqual({ ok: true, value: '/k/daily-report%3A2026-03-08T10%3A30%3A00.000Z%3ASCHEDULED' });
  });

  it.each([
    ['{{ bizDate }}', values, 'unknown placeholder {{bizDate}} in command[1] (known: businessDate, scheduledFor, runId, attempt, idempotencyKey, schedule, trigger, upstreamRunId)'],
    ['{{}}', values, 'unknown placeholder {{}} in command[1] (known: businessDate, scheduledFor, runId, attempt, idempotencyKey, schedule, trigger, upstreamRunId)'],
    ['{{businessDate}}', { ...values, businessDate: null }, 'placeholder {{businessDate}} in command[1] has no value for this run'],
  ])('refuses %s', (text, given, error) => {
    expect(substitutePlaceholders(text, given, 'command[1]')).toEqual({ ok: false, error });
  });
});

describe('step results ({{steps.NAME.output.KEY}})', () => {
  const stepValues = placeholderValues({
    ...context,
    step: { name: 'load', outputFile: '/tmp/o.json', stepsDir: '/tmp/s', results: { extract: { rows: 42, ok: true, file: 'a b; $(rm -rf /) {{runId}}', nested: { x: [1] }, none: null } } },
  });

  it.each([
    ['--rows={{steps.extract.output.rows}}', '--rows=42'],
    ['{{ steps.extract.output.ok }}', 'true'],
    // Data, never text to substitute again or to hand to a shell: one argv element as written.
    ['{{steps.extract.output.file}}', 'a b; $(rm -rf /) {{runId}}'],
    ['{{steps.extract.output.nested}}', '{"x":[1]}'],
  ])('turns %s into %s', (text, expected) => {
    expect(substitutePlaceholders(text, stepValues, 'command[1]')).toEqual({ ok: true, value: expected });
  });

  it('is escaped like any value in a URL', () => {
    expect(substitutePlaceholders('https://x.example/{{steps.extract.output.file}}', stepValues, 'url', encodeURIComponent)).toEqual({ ok: true, value: 'https://x.example/a%20b%3B%20%24(rm%20-rf%20%2F)%20%7B%7BrunId%7D%7D' });
  });

  it.each([
    ['{{steps.extract.output.missing}}', 'placeholder {{steps.extract.output.missing}} in command[1]: the result of step "extract" has no value for "missing"'],
    ['{{steps.extract.output.none}}', 'placeholder {{steps.extract.output.none}} in command[1]: the result of step "extract" has no value for "none"'],
    ['{{steps.transform.output.rows}}', 'placeholder {{steps.transform.output.rows}} in command[1]: step "transform" wrote no result (nothing in its CRONFORM_STEP_OUTPUT file)'],
    ['{{steps.extract.output.constructor}}', 'placeholder {{steps.extract.output.constructor}} in command[1]: the result of step "extract" has no value for "constructor"'],
  ])('refuses %s', (text, error) => {
    expect(substitutePlaceholders(text, stepValues, 'command[1]')).toEqual({ ok: false, error });
  });

  it('is unknown outside a workflow', () => {
    expect(substitutePlaceholders('{{steps.extract.output.rows}}', values, 'command[1]')).toMatchObject({ ok: false, error: expect.stringContaining('unknown placeholder {{steps.extract.output.rows}}') });
  });
});

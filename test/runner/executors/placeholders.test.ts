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

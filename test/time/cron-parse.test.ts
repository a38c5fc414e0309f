import { describe, expect, it } from 'vitest';
import { Cron } from 'croner';
import { parseCron } from '../../src/time/cron-parse.js';
import { nextSlots } from '../../src/time/slots.js';
import { minIntervalSeconds } from '../../src/time/interval.js';

function parse(expression: string) {
  const result = parseCron(expression);
  if (!result.ok) throw new Error(`${expression}: ${result.error.message}`);
  return result.cron;
}

describe('parseCron', () => {
  it('parses 5-field expressions with ranges, steps, lists and names', () => {
    const cron = parse('0,30 9-17/2 1,15 JAN-MAR mon-fri');
    expect(cron).toMatchObject({
      seconds: [0],
      minutes: [0, 30],
      hours: [9, 11, 13, 15, 17],
      daysOfMonth: [1, 15],
      months: [1, 2, 3],
      daysOfWeek: [1, 2, 3, 4, 5],
      dayOfMonthRestricted: true,
      dayOfWeekRestricted: true,
      intervalLike: false,
      hasSecondsField: false,
    });
  });

  it('parses 6-field expressions with seconds first, and folds Sunday 7 into 0', () => {
    expect(parse('*/20 * * * * 7')).toMatchObject({ seconds: [0, 20, 40], daysOfWeek: [0], intervalLike: true, hasSecondsField: true });
    expect(parse('5/20 0 * * * *').seconds).toEqual([5, 25, 45]);
  });

  it.each([
    ['@yearly', '0 0 1 1 *'],
    ['@monthly', '0 0 1 * *'],
    ['@weekly', '0 0 * * 0'],
    ['@daily', '0 0 * * *'],
    ['@hourly', '0 * * * *'],
  ])('expands %s like %s', (macro, expansion) => {
    const { source: _a, ...fromMacro } = parse(macro);
    const { source: _b, ...fromFields } = parse(expansion);
    expect(fromMacro).toEqual(fromFields);
  });

  it('supports L (last day of month) in the day-of-month field', () => {
    expect(parse('0 0 L * *')).toMatchObject({ lastDayOfMonth: true, daysOfMonth: [] });
    expect(parse('0 0 1,L * *')).toMatchObject({ lastDayOfMonth: true, daysOfMonth: [1] });
  });

  it.each([
    { expression: '0 0 * *', kind: 'syntax', offset: 0, message: /5 fields/ },
    { expression: '61 * * * *', kind: 'syntax', offset: 0, message: /minute 61 is out of range 0-59/ },
    { expression: '0 25 * * *', kind: 'syntax', offset: 2, message: /hour 25/ },
    { expression: '0 0 * FOO *', kind: 'syntax', offset: 6, message: /"FOO" is not a valid month/ },
    { expression: '0 0 * * 5L', kind: 'ambiguous', offset: 9, message: /"L" in the day-of-week/ },
    { expression: '0 0 15W * *', kind: 'ambiguous', offset: 6, message: /"W"/ },
    { expression: '0 H * * *', kind: 'ambiguous', offset: 2, message: /"H"/ },
    { expression: '0 0 * * MON#2', kind: 'ambiguous', offset: 11, message: /"#"/ },
    { expression: '0 0 L-3 * *', kind: 'ambiguous', offset: 4, message: /only a plain "L"/ },
    { expression: '0 22-2 * * *', kind: 'syntax', offset: 2, message: /runs backwards/ },
    { expression: '*/0 * * * *', kind: 'syntax', offset: 2, message: /step must be a positive integer/ },
    { expression: '0 ? * * *', kind: 'syntax', offset: 2, message: /"\?" is only allowed/ },
    { expression: '@reboot', kind: 'syntax', offset: 0, message: /unknown cron macro/ },
  ])('rejects "$expression" at offset $offset', ({ expression, kind, offset, message }) => {
    const result = parseCron(expression);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe(kind);
    expect(result.error.offset).toBe(offset);
    expect(result.error.message).toMatch(message);
  });

  it('hints that a 6-field cron puts seconds first', () => {
    const result = parseCron('0 0 * * * 30');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.hint).toMatch(/seconds FIRST/);
  });
});

describe('agreement with croner (in UTC, where there is no DST to disagree about)', () => {
  const expressions = ['*/7 * * * *', '0 9-17 * * 1-5', '15,45 */3 1,15 * *', '0 0 L * *', '0 12 * JAN,JUL SUN', '30 4 1-7 * *', '0 0 29 2 *', '*/13 */5 * * * *', '0 0 * * 6,0', '5 4 * * SUN'];
  it.each(expressions)('%s', (expression) => {
    const start = new Date('2026-01-15T10:17:23Z');
    const ours = nextSlots({ cron: parse(expression), timezone: 'UTC', dst: { gap: 'shift', fold: 'first' } }, start.getTime(), 40);
    const theirs = new Cron(expression, { timezone: 'UTC', paused: true }).nextRuns(40, start).map((d) => d.getTime());
    expect(ours).toEqual(theirs);
  });
});

describe('minIntervalSeconds', () => {
  it.each([
    ['* * * * * *', 1],
    ['*/5 * * * *', 300],
    ['0,50 0,1 * * * *', 10],
    ['30 1,2 * * *', 3600],
    ['0,30 1,2 * * *', 1800],
    ['30 19 * * *', 86_400],
    ['0 8 * * 1', 7 * 86_400],
    ['0 0 1,L * *', 86_400],
    ['0 23 * * *', 86_400],
  ])('%s → %i s', (expression, expected) => {
    expect(minIntervalSeconds(parse(expression))).toBe(expected);
  });
});

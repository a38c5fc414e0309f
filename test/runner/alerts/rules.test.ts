import { describe, expect, it } from 'vitest';
import type { Criticality } from '../../../src/compile/definition.js';
import { evaluateRunnerSilence, evaluateScheduleRules, formatElapsed, type ScheduleAlertInput } from '../../../src/runner/alerts/rules.js';

const NOW = Date.parse('2026-11-29T12:00:00Z');
const MIN = 60_000;

function input(overrides: Partial<ScheduleAlertInput> = {}): ScheduleAlertInput {
  return {
    scheduleId: 3, name: 'billing', criticality: 'MEDIUM', timeoutMs: 10 * MIN, gracePeriodMs: 5 * MIN, freshnessMs: null, paused: false,
    outcomes: [], failureStreak: null, attempts: [], lastSuccessAtMs: NOW - 60 * MIN, createdAtMs: NOW - 1000 * MIN, firstUnstartedSlot: null,
    ...overrides,
  };
}

const failing = (count: number): Partial<ScheduleAlertInput> => ({
  outcomes: [{ runId: 10 + count, status: 'FAILED', finishedAtMs: NOW - MIN, reason: null, error: 'exited with code 1' }],
  failureStreak: { firstRunId: 11, count },
});

const rulesFor = (criticality: Criticality, overrides: Partial<ScheduleAlertInput>) => evaluateScheduleRules(input({ criticality, ...overrides }), NOW).map((c) => c.rule);

describe('thresholds by criticality (README table)', () => {
  it.each([
    { criticality: 'CRITICAL', failures: 1, rules: ['run-failed'] },
    { criticality: 'CRITICAL', failures: 3, rules: ['run-failed', 'consecutive-failures'] },
    { criticality: 'HIGH', failures: 1, rules: ['run-failed'] },
    { criticality: 'MEDIUM', failures: 1, rules: [] },
    { criticality: 'MEDIUM', failures: 2, rules: ['consecutive-failures'] },
    { criticality: 'LOW', failures: 2, rules: [] },
    { criticality: 'LOW', failures: 3, rules: ['consecutive-failures'] },
  ] as const)('$criticality after $failures failures: $rules', ({ criticality, failures, rules }) => {
    expect(rulesFor(criticality, failing(failures))).toEqual(rules);
  });

  it('keys a failure streak by its first run, so a longer streak is the same alert', () => {
    const keys = [1, 2, 5].map((count) => evaluateScheduleRules(input({ criticality: 'CRITICAL', ...failing(count) }), NOW)[0]!.conditionKey);
    expect(new Set(keys)).toEqual(new Set(['schedule:3:run:11']));
  });

  it('missed slot: from the end of the grace period, never for LOW or a paused schedule', () => {
    const slot = (ageMs: number) => ({ firstUnstartedSlot: { slotMs: NOW - ageMs, runId: null, status: null } });
    expect(rulesFor('CRITICAL', slot(5 * MIN - 1))).toEqual([]);
    expect(rulesFor('CRITICAL', slot(5 * MIN))).toEqual(['missed-slot']);
    expect(rulesFor('LOW', slot(60 * MIN))).toEqual([]);
    expect(rulesFor('CRITICAL', { ...slot(60 * MIN), paused: true })).toEqual([]);
  });

  it('over timeout: a running attempt past it, or one killed for it; a later attempt within it clears it', () => {
    const running = { runId: 9, attempt: 2, status: 'RUNNING', startedAtMs: NOW - 10 * MIN - 1 };
    const killed = { runId: 9, attempt: 1, status: 'TIMED_OUT', startedAtMs: NOW - 30 * MIN };
    const fine = { runId: 8, attempt: 1, status: 'SUCCEEDED', startedAtMs: NOW - 90 * MIN };
    expect(evaluateScheduleRules(input({ attempts: [running, killed, fine] }), NOW).map((c) => c.conditionKey)).toEqual(['schedule:3:attempt:9:1']);
    expect(rulesFor('MEDIUM', { attempts: [{ ...running, startedAtMs: NOW - 10 * MIN }, fine] })).toEqual([]);
    expect(rulesFor('MEDIUM', { attempts: [{ ...fine, runId: 10 }, killed] })).toEqual([]);
    expect(rulesFor('LOW', { attempts: [killed] })).toEqual([]);
  });

  it('freshness: strictly older than spec.freshness, counted from creation when it never succeeded', () => {
    expect(rulesFor('LOW', { freshnessMs: 60 * MIN })).toEqual([]);
    expect(rulesFor('LOW', { freshnessMs: 60 * MIN - 1 })).toEqual(['freshness']);
    expect(rulesFor('LOW', { freshnessMs: 999 * MIN, lastSuccessAtMs: null })).toEqual(['freshness']);
    expect(rulesFor('LOW', { freshnessMs: 1, paused: true })).toEqual([]);
  });
});

describe('evaluateRunnerSilence', () => {
  it('reports a gap longer than the limit before this runner started, keyed by its start', () => {
    expect(evaluateRunnerSilence({ startedAtMs: NOW, lastSeenBeforeMs: NOW - 5 * MIN }, 5 * MIN)).toEqual([]);
    expect(evaluateRunnerSilence({ startedAtMs: NOW, lastSeenBeforeMs: null }, 5 * MIN)).toEqual([]);
    const [gap] = evaluateRunnerSilence({ startedAtMs: NOW, lastSeenBeforeMs: NOW - 150 * MIN - 1_000 }, 5 * MIN);
    expect(gap).toMatchObject({ rule: 'no-runner', conditionKey: 'runners:2026-11-29T09:29:59.000Z', endedAtMs: NOW, details: { gap: '2h30m1s' } });
  });

  it('formats elapsed time for people', () => {
    expect([0, 999, 61_000, 3_600_000, 5_400_000].map(formatElapsed)).toEqual(['0s', '1s', '1m1s', '1h', '1h30m']);
  });
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, type PolicyDefinition } from '../../src/compile/definition.js';
import { storablePolicy } from '../../src/plan/build-plan.js';
import { CLASSIFIED_POLICY_FIELDS, compareAlertTargets, comparePolicies, findingsForAlertMoves, findingsForPolicyMoves, stricterPolicy, type StoredPolicyValue } from '../../src/plan/policy-comparison.js';

const base = storablePolicy(DEFAULT_POLICY);
const withPolicy = (overrides: Partial<PolicyDefinition>) => ({ ...base, ...overrides });
const moves = (before: Partial<PolicyDefinition>, after: Partial<PolicyDefinition>) => comparePolicies(withPolicy(before), withPolicy(after)).map((m) => `${m.direction} ${m.field} ${m.before} → ${m.after}`);

/** Every leaf path of a Policy value, queues collapsed (they are compared by name). */
function leafPaths(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [prefix];
  if (prefix === 'queues' || prefix === 'alerts') return [prefix];
  return Object.entries(value).flatMap(([key, child]) => leafPaths(child, prefix ? `${prefix}.${key}` : key));
}

describe('comparePolicies', () => {
  it.each([
    { field: 'minInterval', before: { minIntervalMs: 60_000 }, after: { minIntervalMs: 1_000 }, loosened: 'loosened minInterval 1m → 1s' },
    { field: 'maxRunsPerDay', before: { maxRunsPerDay: 1440 }, after: { maxRunsPerDay: 86_400 }, loosened: 'loosened maxRunsPerDay 1440 → 86400' },
    { field: 'risk.runsPerDayIncreaseHigh', before: { risk: { runsPerDayIncreaseHigh: 10 } }, after: { risk: { runsPerDayIncreaseHigh: 1000 } }, loosened: 'loosened risk.runsPerDayIncreaseHigh 10 → 1000' },
    { field: 'risk.acceptanceMaxDays', before: { risk: { runsPerDayIncreaseHigh: 10 } }, after: { risk: { runsPerDayIncreaseHigh: 10, acceptanceMaxDays: 3650 } }, loosened: 'loosened risk.acceptanceMaxDays 90 days → 3650 days', tightened: 'tightened risk.acceptanceMaxDays 3650 days → 90 days' },
    { field: 'misfireThreshold', before: { misfireThresholdMs: 60_000 }, after: { misfireThresholdMs: 3_600_000 }, loosened: 'loosened misfireThreshold 1m → 1h' },
    { field: 'backfill.concurrency', before: { backfill: { concurrency: 2, priority: 'LOW' } }, after: { backfill: { concurrency: 50, priority: 'LOW' } }, loosened: 'loosened backfill.concurrency 2 → 50' },
    { field: 'backfill.priority', before: { backfill: { concurrency: 2, priority: 'LOW' } }, after: { backfill: { concurrency: 2, priority: 'CRITICAL' } }, loosened: 'loosened backfill.priority LOW → CRITICAL' },
    { field: 'retention.runs', before: {}, after: { retention: { runsMs: 30 * 86_400_000 } }, loosened: 'loosened retention.runs forever → 30d', tightened: 'tightened retention.runs 30d → forever' },
    { field: 'retention.runs shorter', before: { retention: { runsMs: 90 * 86_400_000 } }, after: { retention: { runsMs: 30 * 86_400_000 } }, loosened: 'loosened retention.runs 90d → 30d' },
    { field: 'retention.keepLast', before: { retention: { runsMs: 90 * 86_400_000, keepLast: 100 } }, after: { retention: { runsMs: 90 * 86_400_000, keepLast: 10 } }, loosened: 'loosened retention.keepLast 100 → 10' },
    { field: 'queues raised', before: { queues: { default: { concurrency: 5 } } }, after: { queues: { default: { concurrency: 500 } } }, loosened: 'loosened queues.default.concurrency 5 → 500' },
    { field: 'queues added', before: { queues: { default: { concurrency: 5 } } }, after: { queues: { default: { concurrency: 5 }, bulk: { concurrency: 1 } } }, loosened: 'loosened queues.bulk.concurrency (no queue) → 1', tightened: 'tightened queues.bulk.concurrency 1 → (no queue)' },
  ] as Array<{ field: string; before: Partial<PolicyDefinition>; after: Partial<PolicyDefinition>; loosened: string; tightened?: string }>)('$field: one way looser, the other tighter', ({ before, after, loosened, tightened }) => {
    expect(moves(before, after)).toEqual([loosened]);
    const [, field, from, , to] = loosened.split(' ');
    expect(moves(after, before)).toEqual([tightened ?? `tightened ${field} ${to} → ${from}`]);
  });

  it('classifies every field of the Policy (a new field must be added to the rules)', () => {
    const full = { ...base, risk: { ...base.risk, acceptanceMaxDays: 90 }, alerts: { targets: [] }, retention: { runsMs: 90 * 86_400_000, keepLast: 100 } };
    expect(leafPaths(full).sort()).toEqual([...CLASSIFIED_POLICY_FIELDS].sort());
  });

  it('lists loosened limits before tightened ones and finds nothing in an equal Policy', () => {
    expect(moves({}, {})).toEqual([]);
    expect(moves({ maxRunsPerDay: 1440, minIntervalMs: 60_000 }, { maxRunsPerDay: 100, minIntervalMs: 1_000 })).toEqual(['loosened minInterval 1m → 1s', 'tightened maxRunsPerDay 1440 → 100']);
  });

  it('turns moves into HIGH CF701 (loosened) and LOW CF702 (tightened) findings at the Policy file', () => {
    const location = { file: 'schedules/policy.yaml', line: 1, column: 1 };
    const findings = findingsForPolicyMoves(comparePolicies(withPolicy({ maxRunsPerDay: 1440, minIntervalMs: 60_000 }), withPolicy({ maxRunsPerDay: 100, minIntervalMs: 1_000 })), location);
    expect(findings.map((f) => `${f.code} ${f.level} ${f.message}`)).toEqual([
      'CF701 HIGH Policy loosened: minInterval 1m → 1s (schedules may fire more often)',
      'CF702 LOW Policy tightened: maxRunsPerDay 1440 → 100',
    ]);
    expect(findings.every((f) => f.location === location)).toBe(true);
  });
});

describe('stricterPolicy', () => {
  it('takes the stricter of each limit, so a change cannot relax what judges it but its tightening counts', () => {
    const inForce: PolicyDefinition = { ...DEFAULT_POLICY, minIntervalMs: 60_000, maxRunsPerDay: 1440, risk: { runsPerDayIncreaseHigh: 10 } };
    const proposed: PolicyDefinition = { ...DEFAULT_POLICY, minIntervalMs: 1_000, maxRunsPerDay: 100, risk: { runsPerDayIncreaseHigh: 1000, acceptanceMaxDays: 30 } };
    expect(stricterPolicy(inForce, proposed)).toMatchObject({ minIntervalMs: 60_000, maxRunsPerDay: 100, risk: { runsPerDayIncreaseHigh: 10, acceptanceMaxDays: 30 } });
  });
});

describe('compareAlertTargets', () => {
  const target = (name: string, url: string | { fromEnv: string }, type: 'webhook' | 'slack' = 'webhook') => ({ name, type, url });
  const alerts = (...targets: Array<ReturnType<typeof target>>) => withPolicy({ alerts: { targets } });
  const findings = (before: StoredPolicyValue, after: StoredPolicyValue) => findingsForAlertMoves(compareAlertTargets(before, after), null).map((f) => `${f.code} ${f.level} ${f.message}`);

  it.each([
    { case: 'url changed', before: alerts(target('oncall', 'https://a.example/hook')), after: alerts(target('oncall', 'https://b.example/hook')), found: ['CF704 HIGH alert target redirected: oncall webhook https://a.example/hook → webhook https://b.example/hook'] },
    { case: 'literal to fromEnv', before: alerts(target('oncall', 'https://a.example/hook')), after: alerts(target('oncall', { fromEnv: 'HOOK' })), found: ['CF704 HIGH alert target redirected: oncall webhook https://a.example/hook → webhook fromEnv HOOK'] },
    { case: 'other variable', before: alerts(target('team', { fromEnv: 'A' }, 'slack')), after: alerts(target('team', { fromEnv: 'B' }, 'slack')), found: ['CF704 HIGH alert target redirected: team slack fromEnv A → slack fromEnv B'] },
    { case: 'type changed', before: alerts(target('team', { fromEnv: 'A' }, 'slack')), after: alerts(target('team', { fromEnv: 'A' }, 'webhook')), found: ['CF704 HIGH alert target redirected: team slack fromEnv A → webhook fromEnv A'] },
    { case: 'removed', before: alerts(target('oncall', 'https://a.example/hook')), after: base, found: ['CF704 HIGH alert target removed: oncall (webhook https://a.example/hook)'] },
    { case: 'added', before: base, after: alerts(target('oncall', 'https://a.example/hook')), found: ['CF705 MEDIUM alert target added: oncall (webhook https://a.example/hook)'] },
    { case: 'unchanged', before: alerts(target('oncall', 'https://a.example/hook')), after: alerts(target('oncall', 'https://a.example/hook')), found: [] },
  ])('$case', ({ before, after, found }) => {
    expect(findings(before, after)).toEqual(found);
  });
});

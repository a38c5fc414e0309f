import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { compileSources, type CompileResult } from '../../src/compile/compile-sources.js';
import { buildPlan } from '../../src/plan/build-plan.js';
import { definitionsById, type StoredSchedule } from '../../src/compile/stored-schedule.js';
import type { Plan } from '../../src/plan/plan-types.js';
import { storedAfterApply } from '../support/stored-schedules.js';

const NOW_MS = Date.parse('2026-03-08T06:30:00Z');

function compile(specs: Array<[string, Record<string, unknown>]>): CompileResult {
  const text = specs.map(([name, spec]) => stringify({ apiVersion: 'cronform/v1', kind: 'Schedule', metadata: { name }, spec: { timezone: 'UTC', job: { type: 'command', command: ['true'] }, ...spec } })).join('---\n');
  const result = compileSources([{ file: 'schedules/all.yaml', text }], NOW_MS);
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return result;
}

function plan(desired: CompileResult, current: StoredSchedule[]): Plan {
  return buildPlan({ desired, current, storedDefinitions: definitionsById(current), history: new Map(), nowMs: NOW_MS, against: { kind: 'database', engine: 'pglite' } });
}

const change = (p: Plan, name: string) => p.changes.find((c) => c.name === name)!;

describe('plan of spec.after and spec.inputs', () => {
  const before = compile([['extract', { cron: '0 3 * * *' }], ['load', { cron: '0 5 * * *', criticality: 'HIGH' }]]);

  it('a new dependent says what it follows instead of runs per day', () => {
    const p = plan(compile([['extract', { cron: '0 3 * * *' }], ['load', { cron: '0 5 * * *', criticality: 'HIGH' }], ['publish', { after: [{ schedule: 'load' }], inputs: { day: '{{businessDate}}' } }]]), storedAfterApply(before));
    expect(change(p, 'publish').headline).toBe('new: follows load (one run per SUCCESS, up to 1 run/day)');
  });

  it('a dependency added to a schedule is a changed field named in the headline', () => {
    const p = plan(compile([['extract', { cron: '0 3 * * *' }], ['load', { after: [{ schedule: 'extract' }], criticality: 'HIGH', inputs: { from: '{{businessDate - 7d}}' } }]]), storedAfterApply(before));
    const load = change(p, 'load');
    expect(load.headline).toBe('follows extract (one run per SUCCESS, up to 1 run/day); changed inputs, cron, after');
    expect(load.changedPaths).toEqual(expect.arrayContaining(['after', 'cron', 'inputs']));
  });

  it('disabling an upstream that still has dependents is a finding, HIGH for a HIGH dependent', () => {
    const chained = compile([['extract', { cron: '0 3 * * *' }], ['load', { after: [{ schedule: 'extract' }], criticality: 'HIGH' }]]);
    const p = plan(compile([['extract', { cron: '0 3 * * *', enabled: false }], ['load', { after: [{ schedule: 'extract' }], criticality: 'HIGH' }]]), storedAfterApply(chained));
    const finding = change(p, 'extract').findings.find((f) => f.code === 'CF206');
    expect(finding).toMatchObject({ level: 'HIGH', message: 'disabling extract stops its dependents too: load (HIGH) run only after it succeeds' });
  });

  it('a join names every upstream; disabling any one of them is CF206', () => {
    const joined = compile([['extract', { cron: '0 3 * * *' }], ['prices', { cron: '0 4 * * *' }], ['load', { after: [{ schedule: 'extract' }, { schedule: 'prices' }], criticality: 'HIGH' }]]);
    const created = plan(joined, storedAfterApply(before));
    expect(change(created, 'prices').headline).toMatch(/^new: /);
    expect(change(created, 'load').headline).toBe('follows extract + prices (one run per business date once all succeed, up to 1 run/day); changed cron, after');
    const p = plan(compile([['extract', { cron: '0 3 * * *' }], ['prices', { cron: '0 4 * * *', enabled: false }], ['load', { after: [{ schedule: 'extract' }, { schedule: 'prices' }], criticality: 'HIGH' }]]), storedAfterApply(joined));
    expect(change(p, 'prices').findings.find((f) => f.code === 'CF206')).toMatchObject({ level: 'HIGH', message: 'disabling prices stops its dependents too: load (HIGH) run only after it succeeds' });
    expect(p.changes.flatMap((c) => c.findings).filter((f) => f.code === 'CF206')).toHaveLength(1);
    // Back to one upstream: the headline says so.
    const narrowed = plan(compile([['extract', { cron: '0 3 * * *' }], ['prices', { cron: '0 4 * * *' }], ['load', { after: [{ schedule: 'extract' }], criticality: 'HIGH' }]]), storedAfterApply(joined));
    expect(change(narrowed, 'load').headline).toBe('follows extract (one run per SUCCESS, up to 1 run/day); changed after');
  });

  it("the summary's runs/day counts a dependent at its upstream's rate, and a deadline as no run", () => {
    // Stored: extract (1/day) and load (1/day): 2. Load now follows a schedule of every 5 minutes.
    const p = plan(compile([['extract', { cron: '0 3 * * *' }], ['often', { cron: '*/5 * * * *' }], ['load', { after: [{ schedule: 'often' }] }]]), storedAfterApply(before));
    expect([p.summary.runsPerDayBefore, p.summary.runsPerDayAfter]).toEqual([2, 1 + 288 + 288]);
    // A join runs at most once a day; its own cron's slots are deadlines, which start no run.
    const joined = plan(compile([['extract', { cron: '0 3 * * *' }], ['often', { cron: '*/5 * * * *' }], ['load', { cron: '*/10 * * * *', after: [{ schedule: 'often' }, { schedule: 'extract' }] }]]), storedAfterApply(before));
    expect(joined.summary.runsPerDayAfter).toBe(1 + 288 + 1);
    // The stored side counts its dependents the same way: nothing changes, nothing moves.
    const chained = compile([['extract', { cron: '0 3 * * *' }], ['often', { cron: '*/5 * * * *' }], ['load', { after: [{ schedule: 'often' }] }]]);
    const again = plan(chained, storedAfterApply(chained));
    expect([again.summary.runsPerDayBefore, again.summary.runsPerDayAfter]).toEqual([577, 577]);
  });
});

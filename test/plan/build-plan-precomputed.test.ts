/**
 * The CLI's plan has its reading thread tally the stored totals and find the manifests' herds while
 * the main thread compiles, and hands them to buildPlan (src/operations/plan.ts
 * planWhileReading): the plan must be the one buildPlan makes by itself, herds, archives and
 * errors included.
 */
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { compileSources, type CompileResult } from '../../src/compile/compile-sources.js';
import { buildPlan, pairSchedules, type BuildPlanInput } from '../../src/plan/build-plan.js';
import { findDesiredSharedInstants, tallyStored } from '../../src/plan/repository-totals.js';
import { renderPlanJson } from '../../src/plan/render-json.js';
import { definitionsById, type StoredSchedule } from '../../src/compile/stored-schedule.js';
import { storedAfterApply } from '../support/stored-schedules.js';

const NOW_MS = Date.parse('2026-03-08T06:30:00Z');

function compile(specs: Array<[string, Record<string, unknown>]>): CompileResult {
  const text = specs.map(([name, spec]) => stringify({ apiVersion: 'cronform/v1', kind: 'Schedule', metadata: { name }, spec: { cron: '0 3 * * *', timezone: 'UTC', job: { type: 'command', command: ['true'] }, ...spec } })).join('---\n');
  return compileSources([{ file: 'schedules/all.yaml', text }], NOW_MS);
}

function planBothWays(desired: CompileResult, current: StoredSchedule[]): [string, string] {
  const input: BuildPlanInput = { desired, current, storedDefinitions: definitionsById(current), history: new Map(), nowMs: NOW_MS, against: { kind: 'database', engine: 'pglite' } };
  const precomputed = { pairings: pairSchedules(desired.schedules, current), desiredHerds: findDesiredSharedInstants(desired, NOW_MS), storedTally: tallyStored(current, NOW_MS) };
  return [renderPlanJson(buildPlan(input)), renderPlanJson(buildPlan({ ...input, precomputed }))];
}

describe('buildPlan with precomputed pairings, herds and stored totals', () => {
  // Twelve schedules on one instant: a herd that every created or updated one reports.
  const herd = Array.from({ length: 12 }, (_, index): [string, Record<string, unknown>] => [`herd-${index}`, { cron: '0 4 * * *' }]);
  const before = compile([...herd, ['nightly', {}], ['old-cleanup', { cron: '*/5 * * * *', timezone: 'Europe/Berlin' }]]);

  it('makes the same plan for updates, creates, archives and drift', () => {
    const after = compile([...herd.map(([name], index): [string, Record<string, unknown>] => [name, index < 3 ? { cron: '0 4 * * *', timeout: '5m' } : { cron: '0 4 * * *' }]), ['nightly', { cron: '30 2 * * *', timezone: 'Europe/Berlin' }], ['new-export', { cron: '0 4 * * *' }]]);
    const [alone, precomputed] = planBothWays(after, storedAfterApply(before, ['nightly', 'herd-7']));
    expect(precomputed).toBe(alone);
    expect(JSON.parse(alone).summary).toMatchObject({ create: 1, update: 4, archive: 1, drift: 2 });
  });

  it('makes the same plan when the manifests have errors (nothing planned, totals unchanged)', () => {
    const broken = compile([['nightly', { cron: 'not a cron' }]]);
    const [alone, precomputed] = planBothWays(broken, storedAfterApply(before));
    expect(precomputed).toBe(alone);
    expect(JSON.parse(alone).summary.runsPerDayAfter).toBe(JSON.parse(alone).summary.runsPerDayBefore);
  });

  it('refuses stored totals tallied at another instant', () => {
    const desired = compile([['nightly', {}]]);
    const current = storedAfterApply(before);
    const input: BuildPlanInput = { desired, current, storedDefinitions: definitionsById(current), history: new Map(), nowMs: NOW_MS, against: { kind: 'database', engine: 'pglite' } };
    expect(() => buildPlan({ ...input, precomputed: { storedTally: tallyStored(current, NOW_MS + 60_000) } })).toThrow(/another instant/);
  });
});

/**
 * The totals after a plan are the stored tally adjusted by the schedules that differ
 * (tallyDesired), not a second pass over every manifest: the adjusted tally must be exactly the
 * manifests' own, whatever the mix of changes, DST days, per-second crons and stored oddities.
 */
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { compileSources, type CompileResult } from '../../src/compile/compile-sources.js';
import { pairSchedules } from '../../src/plan/build-plan.js';
import { calendarForDefinition } from '../../src/time/timing-cache.js';
import { countRunsPerDay } from '../../src/time/runs-per-day.js';
import { slotsBetween } from '../../src/time/slots.js';
import { findDesiredSharedInstants, findSharedInstantsInColumns, herdColumnsOf, indexSharedInstants, tallyDesired, tallyStored, tallyTimings, totalsOf, type TimingTally } from '../../src/plan/repository-totals.js';
import type { StoredSchedule } from '../../src/compile/stored-schedule.js';
import { storedAfterApply } from '../support/stored-schedules.js';

// The US spring-forward day: New York's schedules have a gap today.
const NOW_MS = Date.parse('2026-03-08T06:30:00Z');

const CRONS = ['0 3 * * *', '30 2 * * *', '*/5 * * * *', '* * * * * *', '*/20 * * * * *', '15 9 * * 1-5', '0 0 1 * *', '0 2 * * 0', '0 */6 * * *', '45 1 * * *'];
const ZONES = ['UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'Australia/Lord_Howe'];

/** A deterministic spread of timings: index i picks its cron, zone, dst and enabled flag. */
function specFor(i: number, variant = 0): Record<string, unknown> {
  const pick = (n: number) => (i * 7 + variant * 3 + n) % 1000;
  return {
    cron: CRONS[pick(0) % CRONS.length],
    timezone: ZONES[pick(1) % ZONES.length],
    enabled: pick(2) % 9 !== 0,
    ...(pick(3) % 4 === 0 ? { dst: { gap: 'skip', fold: 'both' } } : {}),
  };
}

function compile(specs: Array<[string, Record<string, unknown>]>): CompileResult {
  const text = specs
    .map(([name, spec]) => stringify({ apiVersion: 'cronform/v1', kind: 'Schedule', metadata: { name, ...(spec.previousName ? { previousName: spec.previousName } : {}) }, spec: { timezone: 'UTC', job: { type: 'command', command: ['true'] }, ...Object.fromEntries(Object.entries(spec).filter(([key]) => key !== 'previousName')) } }))
    .join('---\n');
  // Per-second crons are over the default Policy's limits.
  const policy = 'apiVersion: cronform/v1\nkind: Policy\nmetadata: { name: default }\nspec: { minInterval: 1s, maxRunsPerDay: 100000 }\n';
  const compiled = compileSources([{ file: 'schedules/policy.yaml', text: policy }, { file: 'schedules/all.yaml', text }], NOW_MS);
  expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return compiled;
}

function plain(tally: TimingTally) {
  return { nowMs: tally.nowMs, windowRuns: tally.windowRuns, startMs: tally.minuteLoad.startMs, everyMinute: tally.minuteLoad.everyMinute, load: [...tally.minuteLoad.load] };
}

function expectAdjustedEqualsDirect(desired: CompileResult, current: StoredSchedule[]): void {
  const before = tallyStored(current, NOW_MS);
  const beforeCopy = plain(before);
  const adjusted = tallyDesired(before, pairSchedules(desired.schedules, current), current);
  const direct = tallyTimings(desired.schedules.map((s) => s.definition), NOW_MS);
  expect(plain(adjusted)).toEqual(plain(direct));
  expect(totalsOf(adjusted)).toEqual(totalsOf(direct));
  // The stored tally is read, never changed: the plan reports it as "before".
  expect(plain(before)).toEqual(beforeCopy);
}

describe('tallyDesired', () => {
  const base: Array<[string, Record<string, unknown>]> = Array.from({ length: 240 }, (_, i) => [`job-${String(i).padStart(3, '0')}`, specFor(i)]);
  const stored = storedAfterApply(compile(base));

  it('equals the manifests’ own tally after creates, updates, renames, archives and disables', () => {
    const desired = base.flatMap(([name, spec], i): Array<[string, Record<string, unknown>]> => {
      if (i % 10 === 0) return []; // archived
      if (i % 10 === 1) return [[name, specFor(i, 1)]]; // timing changed
      if (i % 10 === 2) return [[name, { ...spec, timeout: '5m' }]]; // changed, same timing
      if (i % 10 === 3) return [[`${name}-renamed`, { ...spec, previousName: name }]];
      if (i % 10 === 4) return [[name, { ...spec, enabled: !(spec.enabled as boolean) }]];
      return [[name, spec]];
    });
    const created = Array.from({ length: 30 }, (_, i): [string, Record<string, unknown>] => [`new-${i}`, specFor(i + 500, 2)]);
    const compiled = compile([...desired, ...created]);
    expectAdjustedEqualsDirect(compiled, stored);
    const actions = new Set(pairSchedules(compiled.schedules, stored).map((p) => p.action));
    expect([...actions].sort()).toEqual(['archive', 'create', 'rename', 'unchanged', 'update']);
  });

  it('takes out active stored schedules that no manifest owns (unmanaged) and adds restored ones', () => {
    const current: StoredSchedule[] = stored.map((s, i) => (i % 13 === 0 ? { ...s, managed: false } : i % 17 === 0 ? { ...s, status: 'ARCHIVED' } : s));
    const compiled = compile(base.filter((_, i) => i % 13 !== 0));
    expectAdjustedEqualsDirect(compiled, current);
    expect(pairSchedules(compiled.schedules, current).some((p) => p.action === 'restore')).toBe(true);
  });

  it('trusts the timings, not a stored digest that no longer describes the stored definition', () => {
    // Edited in the database behind apply's back: same digest, other timing.
    const current: StoredSchedule[] = stored.map((s, i) => (i % 5 === 0 ? { ...s, timing: { ...s.timing, cron: '* * * * *' } } : s));
    const compiled = compile(base);
    expect(pairSchedules(compiled.schedules, current).every((p) => p.action === 'unchanged')).toBe(true);
    expectAdjustedEqualsDirect(compiled, current);
  });

  it('empties to nothing when every manifest is gone', () => {
    const adjusted = tallyDesired(tallyStored(stored, NOW_MS), pairSchedules([], stored), stored);
    expect(totalsOf(adjusted)).toEqual({ runsPerDay: 0, peakRunsPerMinute: 0 });
  });

  it('counts the peak minute and the runs of the window as enumerating every slot does', () => {
    const definitions = compile(base).schedules.map((s) => s.definition);
    const tally = tallyTimings(definitions, NOW_MS);
    // Independently: every slot of the 1,440 minutes from NOW's minute, counted per UTC minute.
    const startMs = Math.floor(NOW_MS / 60_000) * 60_000;
    const perMinute = new Map<number, number>();
    for (const def of definitions.filter((d) => d.enabled)) {
      for (const slot of slotsBetween(calendarForDefinition(def), startMs, startMs + 86_400_000)) {
        const minute = Math.floor(slot / 60_000);
        perMinute.set(minute, (perMinute.get(minute) ?? 0) + 1);
      }
    }
    expect(totalsOf(tally).peakRunsPerMinute).toBe(Math.max(...perMinute.values()));
    const windowRuns = definitions.filter((d) => d.enabled).reduce((sum, def) => sum + countRunsPerDay(calendarForDefinition(def), NOW_MS).total, 0);
    expect(tally.windowRuns).toBe(windowRuns);
    expect(totalsOf(tally).runsPerDay).toBe(Math.round((windowRuns / 35) * 100) / 100);
  });
});

describe('findSharedInstantsInColumns', () => {
  it('finds the herds findDesiredSharedInstants finds, from the timing columns alone', () => {
    // Herds of daily schedules in several zones, some jittered (never a herd) or disabled.
    const specs = Array.from({ length: 120 }, (_, i): [string, Record<string, unknown>] => [
      `herd-${String(i).padStart(3, '0')}`,
      { cron: ['0 3 * * *', '30 2 * * *', '0 */6 * * *'][i % 3], timezone: ZONES[i % ZONES.length], ...(i % 11 === 0 ? { jitter: '30s' } : {}), ...(i % 13 === 0 ? { enabled: false } : {}) },
    ]);
    const desired = compile(specs);
    const herds = findSharedInstantsInColumns(structuredClone(herdColumnsOf(desired.schedules)), NOW_MS);
    expect(herds.length).toBeGreaterThan(0);
    expect(indexSharedInstants(herds)).toEqual(findDesiredSharedInstants(desired, NOW_MS));
    expect(herds.flatMap((h) => h.names)).not.toContain('herd-000'); // jittered and disabled
    // The reading thread sends only the herds of the schedules a plan changes.
    const all = findDesiredSharedInstants(desired, NOW_MS);
    const [first, second] = herds[0]!.names;
    expect(all.get(first!)!.length).toBeGreaterThan(0);
    expect(indexSharedInstants(herds, new Set([first!, second!, 'no-such-schedule']))).toEqual(new Map([[first, all.get(first!)], [second, all.get(second!)]]));
    expect([...all.values()].flat().every((herd) => herd.size >= 10)).toBe(true);
  });
});

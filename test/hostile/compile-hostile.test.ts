/**
 * Properties 1 and 2 of the hostile-input issue, on the pure pipeline (parse → schema → rules →
 * compile): whatever the text, compileSources returns within a bound, never throws, and explains
 * every problem at a file:line:column; what does compile is deterministic and schedulable.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSources, type CompileResult } from '../../src/compile/compile-sources.js';
import { calendarForDefinition } from '../../src/time/timing-cache.js';
import { buildPlan } from '../../src/plan/build-plan.js';
import { countRunsPerDay } from '../../src/time/runs-per-day.js';
import { nextSlots } from '../../src/time/slots.js';
import { hostileText, pathologicalTexts, exampleSources } from './hostile-texts.js';
import { errorsOf, expectLocated } from './located-diagnostics.js';
import { dstTrapCron, knownDstTraps, mutatedManifest, type DstTrap } from './manifest-mutations.js';
import { HOSTILE_NOW_MS, MAX_COMPILE_MS, runOptions } from './run-options.js';
import { runBounded } from './watchdog.js';

const FILE = 'schedules/hostile.yaml';

function compileBounded(sources: Array<{ file: string; text: string }>): CompileResult {
  return runBounded(sources.map((s) => s.text).join('\n#---\n'), MAX_COMPILE_MS, () => compileSources(sources, HOSTILE_NOW_MS));
}

/** What every compiled schedule must support: slots, runs per day, a plan. */
function expectSchedulable(result: CompileResult): void {
  for (const schedule of result.schedules) {
    // A queue that compiles is one the Policy defines (not something inherited by every object).
    expect(Object.keys(result.policy.queues)).toContain(schedule.definition.queue);
    const calendar = calendarForDefinition(schedule.definition);
    const { cron, timezone, dayMatch, dst } = schedule.definition;
    const slots = runBounded({ cron, timezone, dayMatch, dst }, MAX_COMPILE_MS, () => nextSlots(calendar, HOSTILE_NOW_MS, 5));
    // Validation promised a slot within five years (SPEC §3.2).
    expect(slots.length, schedule.definition.cron ?? 'no cron').toBeGreaterThan(0);
    expect(slots[0]!).toBeGreaterThan(HOSTILE_NOW_MS);
    expect(slots[0]!).toBeLessThan(HOSTILE_NOW_MS + 5 * 366 * 86_400_000);
    expect([...slots].sort((a, b) => a - b)).toEqual(slots);
    const perDay = runBounded({ cron, timezone, dayMatch, dst }, MAX_COMPILE_MS, () => countRunsPerDay(calendar, HOSTILE_NOW_MS));
    expect(Number.isFinite(perDay.average) && perDay.peak >= 0).toBe(true);
  }
  const plan = runBounded('buildPlan', MAX_COMPILE_MS, () => buildPlan({ desired: result, current: [], storedDefinitions: new Map(), history: new Map(), nowMs: HOSTILE_NOW_MS, against: { kind: 'database', engine: 'pglite' } }));
  if (errorsOf(result.diagnostics).length > 0) {
    expect(plan.errors.length).toBeGreaterThan(0);
    expect(plan.changes).toEqual([]);
  }
}

describe('property 1: arbitrary text as a manifest', () => {
  it.each(pathologicalTexts.map((p) => [p.name, p.text] as const))('%s: bounded, no throw, located diagnostics', (_name, text) => {
    const result = compileBounded([{ file: FILE, text }]);
    expectLocated(result.diagnostics, [FILE]);
    expectSchedulable(result);
  });

  it('random and spliced text: bounded, no throw, located diagnostics', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const result = compileBounded([{ file: FILE, text }]);
        expectLocated(result.diagnostics, [FILE]);
        expectSchedulable(result);
      }),
      runOptions(1_000),
    );
  });

  it('hostile text next to the valid examples spoils only itself', () => {
    const clean = compileSources(exampleSources, HOSTILE_NOW_MS);
    expect(clean.diagnostics).toEqual([]);
    fc.assert(
      fc.property(hostileText, (text) => {
        const result = compileBounded([...exampleSources, { file: FILE, text }]);
        expectLocated(result.diagnostics, [FILE, ...exampleSources.map((s) => s.file)]);
        // Another file can only collide with the examples by name or Policy; the examples stay compiled otherwise.
        const collisions = result.diagnostics.filter((d) => d.code === 'CF015' || d.code === 'CF016');
        if (collisions.length === 0) {
          for (const schedule of clean.schedules) expect(result.schedules.map((s) => s.digest)).toContain(schedule.digest);
        }
      }),
      runOptions(100),
    );
  });
});

describe('property 2: mutations of the valid examples', () => {
  it('compile to stable digests and schedulable definitions, or give located errors', () => {
    fc.assert(
      fc.property(mutatedManifest, ({ file, text }) => {
        const first = compileBounded([{ file, text }]);
        expectLocated(first.diagnostics, [file]);
        const second = compileSources([{ file, text }], HOSTILE_NOW_MS);
        expect(second.schedules.map((s) => s.digest)).toEqual(first.schedules.map((s) => s.digest));
        expect(second.diagnostics).toEqual(first.diagnostics);
        const errors = errorsOf(first.diagnostics);
        if (errors.length > 0) expect(first.schedules).toEqual([]);
        else expect(first.schedules).toHaveLength(1);
        expectSchedulable(first);
      }),
      runOptions(1_000),
    );
  });
});

function trapManifest(trap: DstTrap): string {
  return [
    'apiVersion: cronform/v1',
    'kind: Schedule',
    'metadata: { name: dst-trap }',
    'spec:',
    `  cron: ${JSON.stringify(trap.cron)}`,
    `  dayMatch: ${trap.dayMatch}`,
    `  timezone: ${trap.timezone}`,
    `  dst: { gap: ${trap.dst.gap}, fold: ${trap.dst.fold} }`,
    '  job: { type: command, command: ["true"] }',
    '',
  ].join('\n');
}

describe('property 2: fixed-time schedules on DST transition days', () => {
  it('either never fire (CF021) or have a next slot, found in bounded time', () => {
    fc.assert(
      fc.property(dstTrapCron, (trap) => {
        const result = compileBounded([{ file: FILE, text: trapManifest(trap) }]);
        expectLocated(result.diagnostics, [FILE]);
        expectSchedulable(result);
      }),
      runOptions(300, { examples: knownDstTraps.map((trap) => [trap]) }),
    );
  });

  it.each(knownDstTraps)('$cron in $timezone with gap: skip never fires: CF021 at spec.cron', (trap) => {
    const result = compileBounded([{ file: FILE, text: trapManifest(trap) }]);
    expect(result.schedules).toEqual([]);
    expect(result.diagnostics).toMatchObject([{ code: 'CF021', file: FILE, line: 5, column: 9, path: 'spec.cron' }]);
  });
});

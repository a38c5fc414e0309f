/**
 * Properties 3 and 5 on PGlite: with the example schedules applied, invalid or hostile manifests
 * never reach the database. plan (planAgainstDatabase, as the plan and apply commands call it) does
 * not throw, reports located errors and no change; apply refuses the plan, and a forged plan with
 * its errors removed; and the database stays byte-for-byte what it was.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSources } from '../../src/compile/compile-sources.js';
import type { Database } from '../../src/db/client.js';
import { applyPlan, InvalidPlanError } from '../../src/operations/apply.js';
import { planAgainstDatabase } from '../../src/operations/plan.js';
import { computePlanId } from '../../src/plan/build-plan.js';
import type { Plan } from '../../src/plan/plan-types.js';
import { ManualClock } from '../../src/shared/clock.js';
import { dumpDatabase, type DatabaseDump } from '../operations/database-dump.js';
import { createPgliteDatabase } from '../support/databases.js';
import { exampleSources, hostileText, pathologicalTexts } from './hostile-texts.js';
import { errorsOf, expectLocated } from './located-diagnostics.js';
import { mutatedManifest } from './manifest-mutations.js';
import { HOSTILE_NOW_MS, MAX_COMPILE_MS, runOptions } from './run-options.js';
import { runBoundedAsync } from './watchdog.js';

const HOSTILE_FILE = 'schedules/zz-hostile.yaml';
const author = { actor: 'hostile-test', reason: null, gitSha: null };

/** A forged plan: the errors dropped and the id recomputed, as someone editing plan.json would. */
function withoutErrors(plan: Plan): Plan {
  const { planId: _planId, createdAt, ...content } = plan;
  const forged = { ...content, errors: [], summary: { ...content.summary, errors: 0 } };
  return { ...forged, planId: computePlanId(forged), createdAt };
}

describe('plan and apply of invalid manifests change nothing (PGlite)', () => {
  let database: Database;
  let before: DatabaseDump;

  beforeAll(async () => {
    database = await createPgliteDatabase();
    const desired = compileSources(exampleSources, HOSTILE_NOW_MS);
    expect(desired.diagnostics).toEqual([]);
    const plan = await planAgainstDatabase(database, desired, { nowMs: HOSTILE_NOW_MS });
    await applyPlan(database, plan, { author, clock: new ManualClock(HOSTILE_NOW_MS), lockTimeoutMs: 1_000 });
    before = await dumpDatabase(database);
    expect(before.tables['public.schedules']).toHaveLength(exampleSources.length - 1);
  }, 60_000);
  afterAll(() => database?.close());

  /** Plans `sources` (which must contain an error) and checks that nothing can be applied from it. */
  async function expectRefused(sources: Array<{ file: string; text: string }>, label: unknown): Promise<void> {
    const desired = compileSources(sources, HOSTILE_NOW_MS);
    expectLocated(desired.diagnostics, sources.map((s) => s.file));
    if (errorsOf(desired.diagnostics).length === 0) return;
    const plan = await runBoundedAsync(label, MAX_COMPILE_MS, () => planAgainstDatabase(database, desired, { nowMs: HOSTILE_NOW_MS }));
    expect(plan.errors).toEqual(expect.arrayContaining(errorsOf(desired.diagnostics)));
    expect(plan.changes).toEqual([]);
    expect(plan.policyChange).toBeNull();
    const apply = (p: Plan) => applyPlan(database, p, { author, clock: new ManualClock(HOSTILE_NOW_MS), lockTimeoutMs: 1_000 });
    await expect(apply(plan)).rejects.toBeInstanceOf(InvalidPlanError);
    // Without its errors the plan has no change to make: applying it must not write anything either.
    await apply(withoutErrors(plan)).catch(() => undefined);
    expect(await dumpDatabase(database)).toEqual(before);
  }

  it('property 3: mutated examples', async () => {
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(mutatedManifest, async ({ file, text, edits }) => {
        const sources = exampleSources.map((source) => (source.file === file ? { file, text } : source));
        if (errorsOf(compileSources(sources, HOSTILE_NOW_MS).diagnostics).length > 0) refused += 1;
        await expectRefused(sources, { file, edits });
      }),
      runOptions(150),
    );
    // The property means something only if most mutations are invalid.
    expect(refused).toBeGreaterThan(75);
  }, 60_000);

  it('property 5: hostile text next to the examples', async () => {
    for (const { name, text } of pathologicalTexts) await expectRefused([...exampleSources, { file: HOSTILE_FILE, text }], name);
    await fc.assert(
      fc.asyncProperty(hostileText, async (text) => {
        await expectRefused([...exampleSources, { file: HOSTILE_FILE, text }], text);
      }),
      runOptions(150),
    );
  }, 60_000);
});

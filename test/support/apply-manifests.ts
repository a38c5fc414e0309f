/** Apply in-memory manifests through the real compile → plan → apply path (for runner tests). */
import { compileSources } from '../../src/compile/compile-sources.js';
import type { Database } from '../../src/db/client.js';
import { applyPlan } from '../../src/operations/apply.js';
import { planAgainstDatabase } from '../../src/operations/plan.js';
import type { Plan } from '../../src/plan/plan-types.js';
import { ManualClock } from '../../src/shared/clock.js';

export async function applyManifests(database: Database, files: Record<string, string>, nowMs: number): Promise<Plan> {
  const desired = compileSources(Object.entries(files).map(([file, text]) => ({ file, text })), nowMs);
  const errors = desired.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(`invalid test manifests: ${JSON.stringify(errors)}`);
  const plan = await planAgainstDatabase(database, desired, { nowMs });
  await applyPlan(database, plan, { author: { actor: 'test', reason: null, gitSha: null }, clock: new ManualClock(nowMs), lockTimeoutMs: 1000 });
  return plan;
}

/** A Schedule manifest with sensible test defaults; `spec` lines are indented by the caller's object. */
export function scheduleManifest(name: string, spec: Record<string, unknown>): string {
  const lines = Object.entries({ timezone: 'UTC', job: { type: 'command', command: [process.execPath, '-e', 'process.exit(0)'] }, ...spec }).map(([key, value]) => `  ${key}: ${JSON.stringify(value)}`);
  return `apiVersion: cronform/v1\nkind: Schedule\nmetadata:\n  name: ${name}\nspec:\n${lines.join('\n')}\n`;
}

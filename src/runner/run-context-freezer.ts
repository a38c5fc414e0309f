/**
 * Inputs frozen per run (docs/workflows.md, Inputs). `spec.inputs` are evaluated from what the run
 * was created with (business date, slot, schedule, trigger: input-templates.ts reads nothing else,
 * no clock), so evaluating them at the run's first claim gives the values its creation would have
 * given; storing them then (run_contexts, first write wins) pins them for every later attempt, on
 * any runner, however much later, even if the evaluator itself changes in a later release. The
 * definition is the run's own version, never the schedule's current one. Runs created by a slot,
 * a trigger, a backfill or an upstream are all frozen the same way, at one place.
 *
 * Only runs that need it cost a statement: those whose definition has inputs, and DEPENDENCY runs
 * (their upstream run id). Everything else starts without a round trip.
 */
import type { Definition } from '../compile/definition.js';
import { evaluateInputs } from '../compile/input-templates.js';
import type { Executor } from '../db/client.js';
import { freezeRunInputs } from '../db/dependency-queries.js';
import type { ClaimedRun } from '../db/worker-queries.js';
import type { FrozenContext } from './claimed-run.js';

export function needsFrozenContext(run: ClaimedRun, definition: Definition | undefined): boolean {
  return run.triggerType === 'DEPENDENCY' || (definition?.inputs !== undefined && Object.keys(definition.inputs).length > 0);
}

export async function freezeRunContexts(executor: Executor, runs: Array<{ run: ClaimedRun; definition: Definition | undefined }>): Promise<Map<number, FrozenContext>> {
  const result = new Map<number, FrozenContext>();
  const requests: Array<{ runId: number; inputs: Record<string, string> | null }> = [];
  for (const { run, definition } of runs) {
    const inputs = definition?.inputs;
    if (!inputs || Object.keys(inputs).length === 0) {
      requests.push({ runId: run.id, inputs: null });
      continue;
    }
    const evaluated = evaluateInputs(inputs, { businessDate: run.businessDate, scheduledFor: run.scheduledFor.toISOString(), schedule: run.scheduleName, trigger: run.triggerType });
    // A failed evaluation is not stored: the attempt fails naming the input, and the stored
    // inputs of an earlier attempt (if any) are still read back.
    if (!evaluated.ok) result.set(run.id, { error: evaluated.error });
    requests.push({ runId: run.id, inputs: evaluated.ok ? evaluated.values : null });
  }
  const stored = await freezeRunInputs(executor, requests);
  for (const context of stored) {
    const frozen: FrozenContext = {
      ...(context.inputs ? { inputs: context.inputs } : {}),
      ...(context.upstreamRunId !== null ? { upstreamRunId: context.upstreamRunId } : {}),
      ...(context.upstreamRunIds !== null ? { upstreamRunIds: context.upstreamRunIds } : {}),
    };
    const failed = result.get(context.runId);
    result.set(context.runId, failed && !context.inputs ? { ...frozen, ...failed } : frozen);
  }
  return result;
}

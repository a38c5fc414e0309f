/**
 * Where a workflow's attempt starts (docs/workflows.md): at the first step whose latest record is
 * not SUCCEEDED, with the results of the steps before it. Rows of every attempt count: a step that
 * succeeded in attempt 1 is not run again in attempt 3, and a RESET row (`retry --from-step`) or a
 * RUNNING row (a runner that died in the step) is not a success. A row whose name differs from the
 * step's at that position is from another list of steps and counts for nothing. Pure.
 */
export interface StepRecord {
  attempt: number;
  stepIndex: number;
  name: string;
  status: string;
  result: Record<string, unknown> | null;
}

export interface StepResume {
  /** Index of the first step to run; the number of steps when every step has succeeded. */
  startIndex: number;
  /** Results of the steps before startIndex that wrote one, by step name. */
  results: Record<string, Record<string, unknown>>;
}

export function planStepResume(stepNames: readonly string[], records: readonly StepRecord[]): StepResume {
  const latest = new Map<number, StepRecord>();
  for (const record of records) {
    const seen = latest.get(record.stepIndex);
    if (!seen || record.attempt > seen.attempt) latest.set(record.stepIndex, record);
  }
  const results: Record<string, Record<string, unknown>> = {};
  for (const [index, name] of stepNames.entries()) {
    const record = latest.get(index);
    if (!record || record.name !== name || record.status !== 'SUCCEEDED') return { startIndex: index, results };
    if (record.result !== null) results[name] = record.result;
  }
  return { startIndex: stepNames.length, results };
}

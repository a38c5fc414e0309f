/**
 * Rules for a workflow (`spec.job.steps`, docs/workflows.md) that JSON Schema cannot express:
 * step names unique (a result is addressed by name), a step's timeout within the schedule's (which
 * stays the budget of the whole attempt), and every `{{steps.NAME.output.KEY}}` naming an earlier
 * step, so a typo fails validation instead of the run that reaches it. Pure.
 */
import type { ScheduleJob, ScheduleManifest, StepsJob } from '../manifest/schema-types.js';
import { DiagnosticCodes } from '../shared/diagnostic-codes.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import { formatDurationMs, parseDurationMs } from './duration.js';
import type { LocatableDocument } from './schedule-rules.js';

/** `{{ steps.NAME.output.KEY }}`: what a step may read of an earlier step's result. */
export const STEP_REFERENCE = /^steps\.([^.{}\s]+)\.output\.([^.{}\s]+)$/;
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** Every string of a step a placeholder is substituted in, with its path inside the step. */
function placeholderStrings(step: Record<string, unknown>): Array<[Array<string | number>, string]> {
  const found: Array<[Array<string | number>, string]> = [];
  const walk = (value: unknown, path: Array<string | number>): void => {
    if (typeof value === 'string') found.push([path, value]);
    else if (Array.isArray(value)) value.forEach((item, index) => walk(item, [...path, index]));
    else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) walk(item, [...path, key]);
  };
  for (const field of ['command', 'env', 'url', 'headers', 'body'] as const) walk(step[field], [field]);
  return found;
}

export function checkStepRules(doc: LocatableDocument, manifest: ScheduleManifest, scheduleTimeoutMs: number): Diagnostic[] {
  const { job } = manifest.spec;
  if (!isStepsJob(job)) return [];
  const diagnostics: Diagnostic[] = [];
  const at = (path: Array<string | number>, target: 'key' | 'value' = 'value') => ({ file: doc.file, ...doc.locate(path, target), path: path.join('.') });
  const firstIndex = new Map<string, number>();
  job.steps.forEach((step, index) => {
    const base = ['spec', 'job', 'steps', index];
    const earlier = firstIndex.get(step.name);
    if (earlier === undefined) firstIndex.set(step.name, index);
    else {
      diagnostics.push({
        severity: 'error',
        code: DiagnosticCodes.DUPLICATE_STEP_NAME,
        message: `step name ${JSON.stringify(step.name)} is used twice (steps[${earlier}] and steps[${index}])`,
        hint: 'give every step its own name: results, retries (--from-step) and logs (--step) address steps by name',
        ...at([...base, 'name']),
      });
    }
    if (step.timeout !== undefined && parseDurationMs(step.timeout) > scheduleTimeoutMs) {
      diagnostics.push({
        severity: 'error',
        code: DiagnosticCodes.STEP_TIMEOUT_ABOVE_SCHEDULE,
        message: `step ${JSON.stringify(step.name)} has timeout ${step.timeout}, more than the schedule's timeout ${formatDurationMs(scheduleTimeoutMs)}, which bounds the whole attempt`,
        hint: `lower the step's timeout, or raise spec.timeout to at least ${step.timeout}`,
        ...at([...base, 'timeout']),
      });
    }
    for (const [path, text] of placeholderStrings(step as unknown as Record<string, unknown>)) {
      for (const match of text.matchAll(PLACEHOLDER)) {
        const name = match[1]!;
        if (!name.startsWith('steps.') && name !== 'steps') continue;
        const problem = describeReference(name, index, firstIndex, job.steps.map((s) => s.name));
        if (!problem) continue;
        diagnostics.push({
          severity: 'error',
          code: DiagnosticCodes.UNKNOWN_STEP_REFERENCE,
          message: `{{${name}}} in steps[${index}] ${problem}`,
          hint: 'write {{steps.NAME.output.KEY}} with NAME a step before this one; KEY is a key of the JSON object that step writes to $CRONFORM_STEP_OUTPUT',
          file: doc.file,
          ...doc.locateInScalar([...base, ...path], match.index ?? 0),
          path: [...base, ...path].join('.'),
        });
      }
    }
  });
  return diagnostics;
}

function describeReference(name: string, index: number, earlier: Map<string, number>, allNames: string[]): string | null {
  const parsed = STEP_REFERENCE.exec(name);
  if (!parsed) return 'is not a step reference: the form is {{steps.NAME.output.KEY}}';
  const target = parsed[1]!;
  const position = earlier.get(target);
  if (position !== undefined && position < index) return null;
  if (position === index) return `reads the step's own result: a step reads only earlier steps' results`;
  if (allNames.includes(target)) return `names step ${JSON.stringify(target)}, which runs later: a step reads only earlier steps' results`;
  return `names no step: there is no step ${JSON.stringify(target)}`;
}

/**
 * A workflow rather than one job. A test on the key alone, as validation leaves it: the generated
 * type of a queue job allows any key, so `'steps' in job` cannot narrow the union by itself.
 */
export function isStepsJob(job: ScheduleJob): job is StepsJob {
  return 'steps' in job;
}

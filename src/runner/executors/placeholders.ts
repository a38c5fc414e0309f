import { STEP_REFERENCE } from '../../compile/step-rules.js';
import type { RunContext } from '../run-types.js';

/**
 * The `{{…}}` placeholders a job definition may use, plus `{{inputs.NAME}}` for each frozen input
 * of the run (`spec.inputs`); anything else fails the attempt. upstreamRunId is set for DEPENDENCY runs only.
 */
export const PLACEHOLDER_NAMES = ['businessDate', 'scheduledFor', 'runId', 'attempt', 'idempotencyKey', 'schedule', 'trigger', 'upstreamRunId'] as const;
export type PlaceholderName = (typeof PLACEHOLDER_NAMES)[number];

export type Prepared<T> = { ok: true; value: T } | { ok: false; error: string };

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

function isPlaceholderName(name: string): name is PlaceholderName {
  return (PLACEHOLDER_NAMES as readonly string[]).includes(name);
}

/**
 * The values placeholders take for one run: the named ones, and in a workflow's step the results
 * of the earlier steps (`{{steps.NAME.output.KEY}}`). Results are data a job wrote: they are only
 * ever substituted as values (one argv element, one escaped URL part, a JSON string), never parsed
 * again, so a result holding `{{…}}`, quotes or shell syntax stays text.
 */
export type PlaceholderValues = Record<PlaceholderName, string | null> & { readonly [input: `inputs.${string}`]: string } & {
  stepResults?: Readonly<Record<string, Record<string, unknown>>>;
};

export function placeholderValues(context: RunContext): PlaceholderValues {
  const inputs = Object.fromEntries(Object.entries(context.inputs ?? {}).map(([name, value]) => [`inputs.${name}`, value]));
  return {
    ...inputs,
    ...(context.step ? { stepResults: context.step.results } : {}),
    businessDate: context.businessDate,
    scheduledFor: context.scheduledFor,
    runId: String(context.runId),
    attempt: String(context.attempt),
    idempotencyKey: context.idempotencyKey,
    schedule: context.schedule,
    trigger: context.trigger,
    upstreamRunId: context.upstreamRunId === undefined ? null : String(context.upstreamRunId),
  };
}

/**
 * Replaces every `{{name}}` in `text`. `where` names the field in errors (`command[2]`,
 * `headers.X-Date`); `encode` escapes values for their destination (a URL). An unknown name, or one
 * without a value for this run, is an error: a guessed value would run the job with wrong input.
 */
export function substitutePlaceholders(
  text: string,
  values: PlaceholderValues,
  where: string,
  encode: (value: string) => string = (value) => value,
): Prepared<string> {
  let error: string | null = null;
  const value = text.replace(PLACEHOLDER, (whole, name: string) => {
    if (error !== null) return whole;
    const reference = values.stepResults ? STEP_REFERENCE.exec(name) : null;
    if (reference) {
      const result = stepResultValue(values.stepResults!, reference[1]!, reference[2]!);
      if (typeof result !== 'string') {
        error = `placeholder {{${name}}} in ${where}: ${result.error}`;
        return whole;
      }
      return encode(result);
    }
    const isInput = name.startsWith('inputs.') && Object.hasOwn(values, name);
    if (!isPlaceholderName(name) && !isInput) {
      error = `unknown placeholder {{${name}}} in ${where} (known: ${[...PLACEHOLDER_NAMES, ...Object.keys(values).filter((key) => key.startsWith('inputs.'))].join(', ')})`;
      return whole;
    }
    const replacement = values[name as PlaceholderName];
    if (replacement === null) {
      error = `placeholder {{${name}}} in ${where} has no value for this run`;
      return whole;
    }
    return encode(replacement);
  });
  return error === null ? { ok: true, value } : { ok: false, error };
}

/**
 * One key of an earlier step's result as text: strings as they are, numbers and booleans as JSON
 * writes them, objects and arrays as compact JSON. A missing step result, key or a null value is an
 * error (the step would otherwise run with an empty argument).
 */
function stepResultValue(results: Readonly<Record<string, Record<string, unknown>>>, step: string, key: string): string | { error: string } {
  if (!Object.hasOwn(results, step)) return { error: `step ${JSON.stringify(step)} wrote no result (nothing in its CRONFORM_STEP_OUTPUT file)` };
  const result = results[step]!;
  if (!Object.hasOwn(result, key) || result[key] === null || result[key] === undefined) return { error: `the result of step ${JSON.stringify(step)} has no value for ${JSON.stringify(key)}` };
  const value = result[key];
  return typeof value === 'string' ? value : JSON.stringify(value);
}

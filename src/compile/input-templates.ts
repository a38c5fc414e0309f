/**
 * `spec.inputs`: named values computed once per run from its context and frozen (docs/workflows.md,
 * Inputs). The language is deliberately tiny, so a reviewer can read every value a job will get:
 * literal text with `{{ NAME }}` or `{{ businessDate ± N d }}` (days) or `{{ businessDate ± N w }}`
 * (weeks). NAME is one of INPUT_VARIABLES; nothing reads the wall clock, so a value depends only
 * on what the run was created with, and is the same on every retry, the next day included.
 * Pure: parsing (at validation) and evaluation (at the run's first claim) share this module.
 * Day arithmetic is civil.ts's, not luxon's: `validate` imports this module, and loading luxon
 * (a 260 kB module) was ~15 ms of its start-up (bench/cli-start).
 */
import { civilFromDays, daysFromCivil, daysInMonth, formatCivilDate } from '../time/civil.js';

/** The run context an input may read: fixed when the run is created, never changed by a retry. */
export const INPUT_VARIABLES = ['businessDate', 'scheduledFor', 'schedule', 'trigger'] as const;
export type InputVariable = (typeof INPUT_VARIABLES)[number];

export interface InputContext {
  businessDate: string | null;
  /** ISO instant (UTC) of the run's slot. */
  scheduledFor: string;
  schedule: string;
  trigger: string;
}

type Part = { kind: 'text'; text: string } | { kind: 'variable'; name: InputVariable; offsetDays: number };

export interface TemplateError {
  message: string;
  /** Character offset in the template where the problem starts. */
  offset: number;
}

const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
const EXPRESSION = /^\s*([A-Za-z]+)\s*(?:([+-])\s*(\d{1,4})\s*([dw]))?\s*$/;
/** Ten years either way: far enough for any window, near enough that no date overflows. */
const MAX_OFFSET_DAYS = 3660;

export function parseInputTemplate(template: string): { ok: true; parts: Part[] } | { ok: false; error: TemplateError } {
  const parts: Part[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const at = match.index;
    if (at > last) parts.push({ kind: 'text', text: template.slice(last, at) });
    const expression = EXPRESSION.exec(match[1]!);
    if (!expression) return { ok: false, error: { offset: at, message: `cannot read {{${match[1]}}}: write {{NAME}} or {{businessDate - 7d}}` } };
    const name = expression[1]!;
    if (!(INPUT_VARIABLES as readonly string[]).includes(name)) {
      return { ok: false, error: { offset: at, message: `unknown variable ${JSON.stringify(name)} (known: ${INPUT_VARIABLES.join(', ')})` } };
    }
    let offsetDays = 0;
    if (expression[2]) {
      if (name !== 'businessDate') return { ok: false, error: { offset: at, message: `date arithmetic applies to businessDate only (got ${name})` } };
      offsetDays = Number(expression[3]) * (expression[4] === 'w' ? 7 : 1) * (expression[2] === '-' ? -1 : 1);
      if (Math.abs(offsetDays) > MAX_OFFSET_DAYS) return { ok: false, error: { offset: at, message: `offset of ${Math.abs(offsetDays)} days is beyond ${MAX_OFFSET_DAYS}` } };
    }
    parts.push({ kind: 'variable', name: name as InputVariable, offsetDays });
    last = at + match[0].length;
  }
  const rest = template.slice(last);
  // A lone `{{` or `}}` is a typo that would otherwise reach the job as literal text.
  const stray = rest.search(/\{\{|\}\}/);
  if (stray >= 0) return { ok: false, error: { offset: last + stray, message: 'unbalanced {{ or }}' } };
  if (rest.length > 0) parts.push({ kind: 'text', text: rest });
  return { ok: true, parts };
}

function valueOf(part: Extract<Part, { kind: 'variable' }>, context: InputContext): string | { error: string } {
  if (part.name !== 'businessDate') return context[part.name];
  if (context.businessDate === null) return { error: 'the run has no business date' };
  if (part.offsetDays === 0) return context.businessDate;
  const day = businessDay(context.businessDate);
  if (day === null) return { error: `the run's business date ${JSON.stringify(context.businessDate)} is not a YYYY-MM-DD date` };
  return formatCivilDate(civilFromDays(day + part.offsetDays));
}

/** The day number of a run's business date as the database gives it (a `date` column, row-values.ts toDateOnly). */
function businessDay(text: string): number | null {
  const match = BUSINESS_DATE.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return daysFromCivil(year, month, day);
}

const BUSINESS_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Every input of a definition, evaluated against one run's context. An input that cannot be
 * evaluated (a run without a business date) is an error naming it: a guessed value would run the
 * job on the wrong data.
 */
export function evaluateInputs(inputs: Record<string, string>, context: InputContext): { ok: true; values: Record<string, string> } | { ok: false; error: string } {
  const values: Record<string, string> = {};
  for (const [name, template] of Object.entries(inputs)) {
    const parsed = parseInputTemplate(template);
    if (!parsed.ok) return { ok: false, error: `input ${name}: ${parsed.error.message}` };
    let value = '';
    for (const part of parsed.parts) {
      if (part.kind === 'text') {
        value += part.text;
        continue;
      }
      const resolved = valueOf(part, context);
      if (typeof resolved !== 'string') return { ok: false, error: `input ${name}: ${resolved.error}` };
      value += resolved;
    }
    values[name] = value;
  }
  return { ok: true, values };
}

/**
 * `--format json` and `--out plan.json`: the Plan is already the versioned value (STYLE rule 6),
 * so writing is plain JSON. Reading checks the version and the shape before anything trusts it,
 * because a plan file is user input: it may be from another cronform or not a plan at all.
 */
import { PLAN_FORMAT_VERSION, type ChangeAction, type Plan } from './plan-types.js';

const ACTIONS: ReadonlySet<ChangeAction> = new Set(['create', 'update', 'archive', 'restore', 'rename']);

/** Stable, diffable, newline-terminated: the same Plan always produces the same bytes. */
export function renderPlanJson(plan: Plan): string {
  return `${JSON.stringify(plan, null, 2)}\n`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function notAPlan(detail: string): Error {
  return new Error(`not a cronform plan file: ${detail}`);
}

/**
 * Parses a plan written by renderPlanJson. Checks the version first (a newer plan must say so,
 * not fail on some field it renamed), then the top-level shape and each change's identity. This
 * catches the wrong file; it is not a full schema check of every nested value.
 */
export function parsePlanJson(text: string): Plan {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw notAPlan(`invalid JSON (${(error as Error).message})`);
  }
  if (!isRecord(value) || !('formatVersion' in value)) throw notAPlan('formatVersion is missing');
  if (value.formatVersion !== PLAN_FORMAT_VERSION) {
    throw new Error(`plan formatVersion ${JSON.stringify(value.formatVersion)} is not supported by this cronform (expected ${PLAN_FORMAT_VERSION})`);
  }
  for (const key of ['planId', 'createdAt'] as const) {
    if (typeof value[key] !== 'string') throw notAPlan(`${key} must be a string`);
  }
  if (typeof value.unchanged !== 'number') throw notAPlan('unchanged must be a number');
  if (!isRecord(value.against)) throw notAPlan('against must be an object');
  if (!isRecord(value.summary)) throw notAPlan('summary must be an object');
  for (const key of ['changes', 'drift', 'errors'] as const) {
    if (!Array.isArray(value[key])) throw notAPlan(`${key} must be an array`);
  }
  (value.changes as unknown[]).forEach((change, index) => {
    if (!isRecord(change) || typeof change.name !== 'string' || !ACTIONS.has(change.action as ChangeAction)) {
      throw notAPlan(`changes[${index}] is not a planned change`);
    }
    if (!Array.isArray(change.findings) || !Array.isArray(change.fieldChanges)) {
      throw notAPlan(`changes[${index}] (${change.name}) lacks findings or fieldChanges`);
    }
  });
  return value as unknown as Plan;
}

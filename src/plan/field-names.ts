/**
 * Field changes in the terms of the manifest a reviewer wrote (`timeout: 15m → 20m`, not
 * `timeoutMs: 900000 → 1200000`), in an order an author cannot game: what runs first, then when
 * and whether it runs, then how, then the payload, and free text (descriptions, owner, labels)
 * last, where a budget may cut it. The order is by field, never by size or name.
 */
import { manifestPathOf } from '../compile/compile-schedule.js';
import { formatDurationMs } from '../compile/duration.js';
import { makeVisible } from '../shared/visible-text.js';
import type { FieldChange } from './plan-types.js';

/** Review order of the top-level Definition keys; a key not listed sorts with the settings. */
const FIELD_ORDER = [
  'job', 'inputs',
  'cron', 'after', 'timezone', 'dayMatch', 'dst', 'enabled', 'approval', 'safety', 'allowedFailures', 'queue', 'priority', 'criticality',
  'timeoutMs', 'overlap', 'misfire', 'maxCatchUp', 'gracePeriodMs', 'freshnessMs', 'retry', 'onStall', 'jitterMs', 'businessDate',
  'payload',
  'name', 'description', 'owner', 'labels',
];
const SETTINGS_RANK = FIELD_ORDER.indexOf('businessDate');
/** Author-written prose and tags: shown last, bounded, truncated first. */
export const FREE_TEXT_FIELDS = new Set(['description', 'owner', 'labels']);
/** Values that a budget may cut (with a note): the payload and free text. Everything else is shown whole. */
export const BOUNDED_FIELDS = new Set(['payload', ...FREE_TEXT_FIELDS]);

/** Whether a Definition path is part of what runs (`job`, `job.command[2]`, `job.env.TOKEN`). */
export function isJobPath(path: string): boolean {
  return path === 'job' || path.startsWith('job.') || path.startsWith('job[');
}

const topKey = (path: string): string => path.split('.')[0]!;

function rankOf(path: string): number {
  const rank = FIELD_ORDER.indexOf(topKey(path));
  return rank === -1 ? SETTINGS_RANK + 0.5 : rank;
}

/** The changes in review order (stable within a field, so `job.env.A` stays before `job.env.B`). */
export function orderFieldChanges<T extends Pick<FieldChange, 'path'>>(changes: readonly T[]): T[] {
  return changes.map((change, index) => ({ change, index })).sort((a, b) => rankOf(a.change.path) - rankOf(b.change.path) || a.index - b.index).map(({ change }) => change);
}

/** `timeoutMs` → `timeout`, `retry.initialDelayMs` → `retry.initialDelay`, `job.command.2` → `job.command[2]`; made visible. */
export function displayPath(definitionPath: string): string {
  const segments = manifestPathOf(definitionPath).slice(1);
  const text = segments.map((segment, index) => (index > 0 && /^\d+$/.test(segment) && INDEXED_FIELDS.has(segments[index - 1]!) ? `[${segment}]` : `${index > 0 ? '.' : ''}${segment}`)).join('');
  return makeVisible(text);
}

/** Lists whose items a path addresses by index: `job.command[2]`, `job.steps[1].env.MODE`. */
const INDEXED_FIELDS = new Set(['command', 'steps']);

const DURATION_LEAVES = new Set(['timeoutMs', 'gracePeriodMs', 'freshnessMs', 'jitterMs', 'initialDelayMs', 'maxDelayMs', 'runsMs']);

/** A value as the manifest writes it: durations as `20m`, status ranges as `200-299`. */
export function manifestValue(definitionPath: string, value: unknown): unknown {
  const leaf = definitionPath.split('.').at(-1)!;
  if (DURATION_LEAVES.has(leaf) && typeof value === 'number') return formatDurationMs(value);
  if (definitionPath === 'retention' && value !== null && typeof value === 'object') {
    const { runsMs, ...rest } = value as { runsMs?: number };
    return { ...(runsMs === undefined ? {} : { runs: formatDurationMs(runsMs) }), ...rest };
  }
  if (definitionPath === 'job.expectStatus' && Array.isArray(value)) return value.map(formatStatusRange);
  // A workflow's steps are compared whole (field-diff.ts): shown as the manifest writes each step.
  if (definitionPath === 'job.steps' && Array.isArray(value)) return value.map(stepInManifestTerms);
  return value;
}

function formatStatusRange(range: unknown): unknown {
  return Array.isArray(range) && range[0] === range[1] ? range[0] : Array.isArray(range) ? range.join('-') : range;
}

function stepInManifestTerms(step: unknown): unknown {
  if (step === null || typeof step !== 'object' || Array.isArray(step)) return step;
  return Object.fromEntries(
    Object.entries(step).map(([key, value]) => {
      if (key === 'expectStatus' && Array.isArray(value)) return [key, value.map(formatStatusRange)];
      if (key === 'retry' && value !== null && typeof value === 'object') {
        return [key, Object.fromEntries(Object.entries(value).map(([field, item]) => [RENAMED_LEAVES[field] ?? field, manifestValue(field, item)]))];
      }
      return [RENAMED_LEAVES[key] ?? key, manifestValue(key, value)];
    }),
  );
}

const RENAMED_LEAVES: Record<string, string> = { timeoutMs: 'timeout', initialDelayMs: 'initialDelay', maxDelayMs: 'maxDelay' };

/** A FieldChange in manifest terms: path and values as the manifest writes them. */
export function toManifestTerms(change: FieldChange): FieldChange {
  return { path: displayPath(change.path), before: manifestValue(change.path, change.before), after: manifestValue(change.path, change.after) };
}

/** Keys a headline names: `job.<field>` for the job, the top-level key otherwise; in review order. */
export function changedKeys(changes: readonly Pick<FieldChange, 'path'>[]): string[] {
  const keys = orderFieldChanges(changes).map(({ path }) => {
    const segments = path.split('.');
    return segments[0] === 'job' && segments.length > 1 ? `job.${segments[1]}` : segments[0]!;
  });
  return [...new Set(keys)].map(displayPath);
}

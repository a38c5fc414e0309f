/**
 * The words and numbers every plan format shares, so text and markdown never disagree about what a
 * symbol means or how a count is written: action symbols, counts with thousands separators, the
 * one-line lossless summary, finding locations and acceptances.
 */
import type { SourceLocation } from '../compile/definition.js';
import { formatDurationMs } from '../compile/duration.js';
import { makeVisible } from '../shared/visible-text.js';
import { isAcceptedForGate, planHasChanges, type ChangeAction, type Finding, type FindingLevel, type Plan, type PlanSummary } from './plan-types.js';

export const ACTION_SYMBOL: Record<ChangeAction, string> = {
  create: '+',
  update: '~',
  archive: '-',
  restore: '↺',
  rename: '→',
};

/** Order in which findings deserve attention; ERROR blocks apply, so it outranks HIGH. */
export const FINDING_LEVEL_RANK: Record<FindingLevel, number> = { ERROR: 0, HIGH: 1, MEDIUM: 2, LOW: 3 };

// Runs per day can be fractional (an average over a week of a weekly schedule), so allow two decimals.
const NUMBER_FORMAT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** `1234.5` → `1,234.5`. */
export function formatCount(value: number): string {
  return NUMBER_FORMAT.format(value);
}

function pluralize(count: number, singular: string, plural: string): string {
  return `${formatCount(count)} ${count === 1 ? singular : plural}`;
}

/**
 * Every field of PlanSummary appears (errors only when there are some), so the line alone is
 * enough to reconstruct the summary: `Plan: 2 to create, … · runs/day 1,234 → 2,345 · …`.
 */
export function formatSummaryLine(summary: PlanSummary): string {
  const counts = [
    `${formatCount(summary.create)} to create`,
    `${formatCount(summary.update)} to update`,
    `${formatCount(summary.archive)} to archive`,
    `${formatCount(summary.restore)} to restore`,
    `${formatCount(summary.rename)} to rename`,
    `${formatCount(summary.unchanged)} unchanged`,
    `${formatCount(summary.drift)} drift`,
  ];
  if (summary.errors > 0) counts.push(pluralize(summary.errors, 'error', 'errors'));
  return [
    `Plan: ${counts.join(', ')}`,
    `runs/day ${formatCount(summary.runsPerDayBefore)} → ${formatCount(summary.runsPerDayAfter)}`,
    `peak runs/min ${formatCount(summary.peakRunsPerMinuteBefore)} → ${formatCount(summary.peakRunsPerMinuteAfter)}`,
    formatHighestRisk(summary),
  ].join(' · ');
}

/**
 * `highest risk NONE (HIGH without acceptances)`: both figures whenever acceptances make a
 * difference, so a reviewer sees what was accepted away.
 */
export function formatHighestRisk(summary: Pick<PlanSummary, 'highestRisk' | 'highestRiskWithoutAcceptances'>): string {
  const without = summary.highestRiskWithoutAcceptances;
  return without === summary.highestRisk ? `highest risk ${summary.highestRisk}` : `highest risk ${summary.highestRisk} (${without} without acceptances)`;
}

/** Said whenever the thresholds are not a stored Policy's, so nobody assumes the repository's own. */
export function formatPolicyInForce(plan: Pick<Plan, 'policyInForce' | 'against'>): string | null {
  const where = plan.against.kind === 'git-ref' ? 'at the base ref' : 'in the database';
  if (plan.policyInForce === 'none-stored') return `risk judged by the default Policy (none stored ${where} yet)`;
  // A stored Policy equal to the defaults is a stored one: not worth a line on every plan.
  return null;
}

/** `No changes. 14 schedules unchanged.` plus drift and errors, which matter even without changes. */
export function formatNoChangesLine(summary: PlanSummary): string {
  const parts = [`No changes. ${pluralize(summary.unchanged, 'schedule', 'schedules')} unchanged.`];
  if (summary.drift > 0) parts.push(`${pluralize(summary.drift, 'drifted schedule', 'drifted schedules')}.`);
  if (summary.errors > 0) parts.push(`${pluralize(summary.errors, 'error', 'errors')}.`);
  return parts.join(' ');
}

/** The one line a plan is summarized by, in every format. */
export function formatPlanOutcome(plan: Plan): string {
  // Only where something was judged: a plan without changes has no risk to qualify.
  const judged = planHasChanges(plan) ? formatPolicyInForce(plan) : null;
  const outcome = formatOutcome(plan);
  return judged ? `${outcome} · ${judged}` : outcome;
}

function formatOutcome(plan: Plan): string {
  if (plan.changes.length === 0 && planHasChanges(plan)) {
    const what = [plan.policyChange ? 'Policy' : null, plan.riskAcceptanceChange ? 'risk acceptances' : null].filter(Boolean).join(' and ');
    const risk = plan.summary.highestRiskWithoutAcceptances === 'NONE' ? '' : ` ${formatHighestRisk(plan.summary)}.`;
    return `${what.charAt(0).toUpperCase()}${what.slice(1)} change;${risk} ${formatNoChangesLine(plan.summary).replace(/^No changes\. /, 'no schedule changes. ')}`;
  }
  return plan.changes.length === 0 ? formatNoChangesLine(plan.summary) : formatSummaryLine(plan.summary);
}

/** One line per changed Policy field (values are limits, never secrets; queue names made visible). */
export function formatPolicyChangeLines(plan: Plan): string[] {
  if (!plan.policyChange) return [];
  const fields = plan.policyChange.fieldChanges.map((c) => {
    const path = c.path.split('.').map((segment) => (segment.endsWith('Ms') ? segment.slice(0, -2) : segment)).join('.');
    const value = (v: unknown) => JSON.stringify(policyValueInManifestTerms(c.path.split('.').at(-1)!, v));
    return makeVisible(`  ${path}: ${c.before === null ? '(none)' : value(c.before)} → ${value(c.after)}`);
  });
  return [`~ policy${plan.policyChange.beforeDigest === null ? ' (first apply stores it)' : ''}`, ...fields];
}

/**
 * A Policy value as its manifest writes it: every `…Ms` field (minInterval, misfireThreshold,
 * retention.runs) as a duration such as `90d`, at any depth, not as milliseconds.
 */
function policyValueInManifestTerms(key: string, value: unknown): unknown {
  if (key.endsWith('Ms') && typeof value === 'number') return formatDurationMs(value);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([field, item]) => [field.endsWith('Ms') && typeof item === 'number' ? field.slice(0, -2) : field, policyValueInManifestTerms(field, item)]));
}

/** One line per acceptance added (`+`) or removed (`-`), by schedule. */
export function formatRiskAcceptanceChangeLines(plan: Plan): string[] {
  const change = plan.riskAcceptanceChange;
  if (!change) return [];
  const key = (a: { code: string; reason: string; until: string }) => JSON.stringify([a.code, a.reason, a.until]);
  const lines: string[] = [];
  for (const name of [...new Set([...Object.keys(change.before), ...Object.keys(change.after)])].sort()) {
    const [before, after] = [change.before[name] ?? [], change.after[name] ?? []];
    const [beforeKeys, afterKeys] = [new Set(before.map(key)), new Set(after.map(key))];
    for (const a of before) if (!afterKeys.has(key(a))) lines.push(`  - ${name} ${a.code} until ${a.until}: ${makeVisible(a.reason)}`);
    for (const a of after) if (!beforeKeys.has(key(a))) lines.push(`  + ${name} ${a.code} until ${a.until}: ${makeVisible(a.reason)}`);
  }
  return ['~ risk acceptances (apply stores them; until then they count for nothing)', ...lines];
}

/** `schedules/a.yaml:7:9`, or an empty string when the finding has no location. */
export function formatSourceLocation(location: SourceLocation | null | undefined): string {
  return location ? `${makeVisible(location.file)}:${location.line}:${location.column}` : '';
}

/**
 * `accepted until 2026-12-15: reason`, or null when the finding is not accepted. An acceptance
 * the change adds itself says so: it is shown, and it counts for nothing.
 */
export function formatAcceptance(finding: Finding): string | null {
  if (!finding.accepted) return null;
  const by = finding.accepted.addedInThisChange ? 'accepted by the author in this change (not counted: needs a stored acceptance or the accept label)' : 'accepted';
  return makeVisible(`${by} until ${finding.accepted.until}: ${finding.accepted.reason}`);
}

/** Findings that still count first (they need attention), then by level; stable within ties. */
export function compareFindingsByAttention(a: Finding, b: Finding): number {
  return Number(isAcceptedForGate(a)) - Number(isAcceptedForGate(b)) || FINDING_LEVEL_RANK[a.level] - FINDING_LEVEL_RANK[b.level];
}

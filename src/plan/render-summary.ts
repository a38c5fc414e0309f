/**
 * The words and numbers every plan format shares, so text and markdown never disagree about what a
 * symbol means or how a count is written: action symbols, counts with thousands separators, the
 * one-line lossless summary, finding locations and acceptances.
 */
import type { SourceLocation } from '../compile/definition.js';
import { makeVisible } from '../shared/visible-text.js';
import type { ChangeAction, Finding, FindingLevel, Plan, PlanSummary } from './plan-types.js';

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
    `highest risk ${summary.highestRisk}`,
  ].join(' · ');
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
  if (plan.changes.length === 0 && plan.policyChange) return `Policy changes; ${formatNoChangesLine(plan.summary).replace(/^No changes\. /, 'no schedule changes. ')}`;
  return plan.changes.length === 0 ? formatNoChangesLine(plan.summary) : formatSummaryLine(plan.summary);
}

/** One line per changed Policy field (values are limits, never secrets; queue names made visible). */
export function formatPolicyChangeLines(plan: Plan): string[] {
  if (!plan.policyChange) return [];
  const fields = plan.policyChange.fieldChanges.map((c) => makeVisible(`  ${c.path}: ${c.before === null ? '(none)' : JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`));
  return [`~ policy${plan.policyChange.beforeDigest === null ? ' (first apply stores it)' : ''}`, ...fields];
}

/** `schedules/a.yaml:7:9`, or an empty string when the finding has no location. */
export function formatSourceLocation(location: SourceLocation | null | undefined): string {
  return location ? `${makeVisible(location.file)}:${location.line}:${location.column}` : '';
}

/** `accepted until 2026-12-15: reason`, or null when the finding is not accepted. */
export function formatAcceptance(finding: Finding): string | null {
  return finding.accepted ? makeVisible(`accepted until ${finding.accepted.until}: ${finding.accepted.reason}`) : null;
}

/** Unaccepted findings first (they need attention), then by level; stable within ties. */
export function compareFindingsByAttention(a: Finding, b: Finding): number {
  return Number(Boolean(a.accepted)) - Number(Boolean(b.accepted)) || FINDING_LEVEL_RANK[a.level] - FINDING_LEVEL_RANK[b.level];
}

/**
 * The bodies cronform posts on pull requests, pure. Each kind starts with its own hidden marker
 * line so later runs find their comment again; the plan comment also carries the risk it reported
 * (`<!-- cronform:risk=HIGH -->`), because an edit does not notify reviewers and a risk that rises
 * must (see `operations/github-comment.ts`).
 */
import { planHasChanges, type Plan } from '../plan/plan-types.js';
import { PLAN_COMMENT_MARKER, renderPlanMarkdown } from '../plan/render-markdown.js';
import { escapeMarkdown } from '../plan/render-markdown-table.js';

export const APPLY_COMMENT_MARKER = '<!-- cronform:apply -->';
export const RISK_NOTICE_MARKER = '<!-- cronform:risk-notice -->';
export const GITHUB_COMMENT_MAX_CHARS = 65_536;
/** Kept free in the plan comment for the risk marker and the acceptance note. */
const PLAN_EXTRAS_RESERVE_CHARS = 1_500;

export const RISK_LEVELS = ['NONE', 'LOW', 'MEDIUM', 'HIGH', 'ERROR'] as const;
export type CommentRisk = (typeof RISK_LEVELS)[number];

export function rankRisk(risk: CommentRisk): number {
  return RISK_LEVELS.indexOf(risk);
}

/** A plan that cannot be applied (validation errors, ERROR findings) ranks above HIGH. */
export function riskOfPlan(plan: Plan): CommentRisk {
  return plan.errors.length > 0 ? 'ERROR' : plan.summary.highestRisk;
}

export function formatRiskMarker(risk: CommentRisk): string {
  return `<!-- cronform:risk=${risk} -->`;
}

export function readRiskMarker(body: string): CommentRisk | null {
  const value = /<!-- cronform:risk=([A-Z]+) -->/.exec(body)?.[1];
  return RISK_LEVELS.find((level) => level === value) ?? null;
}

/** Only a body that starts with the marker is ours: a quote or a mention further down is not. */
export function startsWithMarker(body: string | null | undefined, marker: string): boolean {
  return (body ?? '').trimStart().startsWith(marker);
}

/** Whether a plan deserves a new comment; an existing one is always brought up to date. */
export function planWarrantsComment(plan: Plan): boolean {
  return planHasChanges(plan) || plan.errors.length > 0;
}

export interface RiskAcceptance {
  label: string;
  /** Short commit the acceptance applies to, and who ran the workflow. */
  commit: string | null;
  actor: string | null;
  runUrl: string | null;
}

export function composePlanComment(plan: Plan, acceptance: RiskAcceptance | null): { body: string; risk: CommentRisk } {
  const risk = riskOfPlan(plan);
  const markdown = renderPlanMarkdown(plan, { maxChars: GITHUB_COMMENT_MAX_CHARS - PLAN_EXTRAS_RESERVE_CHARS });
  const lines = markdown.split('\n');
  // The risk marker goes right after the plan marker, so both are found without reading the plan.
  const head = lines[0] === PLAN_COMMENT_MARKER ? [lines.shift()!] : [PLAN_COMMENT_MARKER];
  const body = [...head, formatRiskMarker(risk), ...lines].join('\n').trimEnd();
  const note = acceptance && planHasChanges(plan) ? `\n\n${formatAcceptanceNote(acceptance, risk)}` : '';
  return { body: `${body}${note}\n`, risk };
}

export function formatAcceptanceNote(acceptance: RiskAcceptance, risk: CommentRisk): string {
  const by = [
    acceptance.commit ? `for commit \`${escapeMarkdown(acceptance.commit)}\`` : null,
    acceptance.runUrl ? `by [this workflow run](${acceptance.runUrl})` : null,
    acceptance.actor ? `started by @${escapeMarkdown(acceptance.actor)}` : null,
  ].filter(Boolean);
  return [
    `> **Risk accepted** with the \`${escapeMarkdown(acceptance.label)}\` label: findings at or above the failing level do not fail the check (highest risk in this plan: ${risk}).`,
    by.length > 0 ? `> Recorded ${by.join(' ')}. Remove the label to make the check strict again.` : '> Remove the label to make the check strict again.',
  ].join('\n');
}

/** A user-supplied body (`--body-file`): marked, and cut to what GitHub accepts. */
export function composeCustomComment(text: string, marker: string, risk: CommentRisk | null): string {
  const withoutMarker = startsWithMarker(text, marker) ? text.trimStart().slice(marker.length).replace(/^\n/, '') : text;
  const head = [marker, ...(risk ? [formatRiskMarker(risk)] : [])].join('\n');
  return fitToCommentLimit(`${head}\n${withoutMarker.trimEnd()}\n`);
}

export function fitToCommentLimit(body: string): string {
  if (body.length <= GITHUB_COMMENT_MAX_CHARS) return body;
  const note = '\n\n> ⚠ Truncated to fit GitHub\'s comment limit; see the job summary or the artifact for the rest.\n';
  return body.slice(0, GITHUB_COMMENT_MAX_CHARS - note.length) + note;
}

export function composeRiskNotice(previous: CommentRisk, current: CommentRisk, planUrl: string): string {
  return `${RISK_NOTICE_MARKER}\n⚠ **cronform plan risk rose from ${previous} to ${current}** with the latest push: see the [updated plan](${planUrl}).\n`;
}

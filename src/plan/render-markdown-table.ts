/**
 * The parts of the PR comment that stay outside `<details>`: escaping of user-provided text, the
 * risk table rows, and the error and drift lists. Each row is returned separately so the caller
 * can stop at any row when the comment would overflow GitHub's limit.
 */
import { formatLocation, type Diagnostic } from '../shared/diagnostics.js';
import { makeVisible } from '../shared/visible-text.js';
import { isAcceptedForGate, type DriftItem, type Finding, type Plan } from './plan-types.js';
import { truncateText } from './render-field-diff.js';
import { compareFindingsByAttention, formatAcceptance, formatSourceLocation } from './render-summary.js';

/** Messages can quote manifests at length; a table cell is a summary, details hold the rest. */
const MAX_CELL_CHARS = 300;

/**
 * For text inside HTML elements such as `<summary>`, where markdown is not interpreted. Control,
 * line-breaking, bidi and invisible characters are made visible first (`\r`, `\u202E`): none
 * survives to end a line, a row or a heading, or to reorder what the reviewer reads.
 */
export function escapeHtml(text: string): string {
  return makeVisible(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * For user text in markdown paragraphs, list items and table cells: HTML is neutralized (a
 * `<script>` or `<details>` in a message must not change the page), markdown punctuation is
 * backslash-escaped (`|` would split a table cell, backticks would open code), and every line
 * break (`\n`, a lone `\r`, U+2028…) is written visibly by escapeHtml, because any of them ends a
 * table row and can start a forged heading.
 */
export function escapeMarkdown(text: string): string {
  return escapeHtml(text).replace(/[\\`*_[\]|~#!]/g, (char) => `\\${char}`);
}

/** Escaped and bounded, for one table cell or list item. */
export function formatMarkdownCell(text: string): string {
  return escapeMarkdown(truncateText(text, MAX_CELL_CHARS));
}

export interface RiskRow {
  schedule: string;
  finding: Finding;
}

/** Every finding of the plan, change and drift alike, in the order reviewers should read them. */
export function collectRiskRows(plan: Plan): RiskRow[] {
  const rows: RiskRow[] = [
    ...plan.changes.flatMap((change) => change.findings.map((finding) => ({ schedule: change.name, finding }))),
    ...plan.drift.map((item) => ({ schedule: item.name, finding: item.finding })),
    ...(plan.policyChange?.findings ?? []).map((finding) => ({ schedule: '(Policy)', finding })),
    ...(plan.riskAcceptanceChange?.findings ?? []).map((finding) => ({ schedule: '(risk acceptances)', finding })),
  ];
  return rows.sort((a, b) => compareFindingsByAttention(a.finding, b.finding));
}

export const RISK_TABLE_HEADER = ['| Risk | Code | Schedule | Message | Location |', '|---|---|---|---|---|'];

export function formatRiskRow(row: RiskRow): string {
  const { finding } = row;
  const acceptance = formatAcceptance(finding);
  const risk = isAcceptedForGate(finding) ? `${finding.level} (accepted)` : acceptance ? `**${finding.level}** (self-accepted)` : `**${finding.level}**`;
  const message = formatMarkdownCell(finding.message) + (acceptance ? `<br>${formatMarkdownCell(acceptance)}` : '');
  const cells = [risk, escapeMarkdown(finding.code), escapeMarkdown(row.schedule), message, formatMarkdownCell(formatSourceLocation(finding.location))];
  return `| ${cells.join(' | ')} |`;
}

/** A finding as a list item inside a change's details: level, code, message, location, fix. */
export function formatFindingItem(finding: Finding): string {
  const acceptance = formatAcceptance(finding);
  const location = formatSourceLocation(finding.location);
  let item = `- ${isAcceptedForGate(finding) ? finding.level : `**${finding.level}**`} ${escapeMarkdown(finding.code)} ${formatMarkdownCell(finding.message)}`;
  if (location) item += ` · ${formatMarkdownCell(location)}`;
  if (acceptance) item += ` · _${formatMarkdownCell(acceptance)}_`;
  if (finding.hint) item += ` — fix: ${formatMarkdownCell(finding.hint)}`;
  return item;
}

export function formatErrorItem(diagnostic: Diagnostic): string {
  const location = formatLocation(diagnostic);
  let item = `- **${diagnostic.severity}** ${escapeMarkdown(diagnostic.code)} ${formatMarkdownCell(diagnostic.message)}`;
  if (location) item += ` · ${formatMarkdownCell(location)}`;
  if (diagnostic.hint) item += ` — fix: ${formatMarkdownCell(diagnostic.hint)}`;
  return item;
}

export function formatDriftItem(item: DriftItem): string {
  const { finding } = item;
  const acceptance = formatAcceptance(finding);
  let line = `- ! ${escapeMarkdown(item.name)} ${formatMarkdownCell(item.message)} (${escapeMarkdown(finding.code)} ${finding.level})`;
  if (acceptance) line += ` · _${formatMarkdownCell(acceptance)}_`;
  if (finding.hint) line += ` — fix: ${formatMarkdownCell(finding.hint)}`;
  return line;
}

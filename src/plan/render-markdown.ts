/**
 * `cronform plan --format markdown` for PR comments. GitHub rejects comments over 65,536
 * characters, so the comment is built in priority order (header, errors, risk table, drift, change
 * details) and stops at the first piece that would not fit, ending with a note that says exactly
 * what was left out. Size depends on the changes only; unchanged schedules are just a count.
 */
import { BOUNDED_FIELDS, isJobPath, orderFieldChanges, toManifestTerms } from './field-names.js';
import { codeSpan, fencedBlock } from './markdown-code.js';
import { planHasChanges, type Plan, type PlannedChange } from './plan-types.js';
import { UNCUT_DIFF_LIMITS, describeNextSlots, renderFieldChange, type FieldDiffLimits } from './render-field-diff.js';
import { describeJob } from './render-job.js';
import {
  RISK_TABLE_HEADER,
  collectRiskRows,
  escapeHtml,
  escapeMarkdown,
  formatDriftItem,
  formatErrorItem,
  formatFindingItem,
  formatRiskRow,
} from './render-markdown-table.js';
import { ACTION_SYMBOL, formatCount, formatHighestRisk, formatPlanOutcome, formatPolicyChangeLines, formatRiskAcceptanceChangeLines } from './render-summary.js';

export interface MarkdownRenderOptions {
  /** Largest allowed length of the whole comment, in UTF-16 code units (≥ GitHub's characters). */
  maxChars?: number;
}

/** The hidden line CI looks for to update one sticky comment instead of adding a new one. */
export const PLAN_COMMENT_MARKER = '<!-- cronform:plan -->';
const GITHUB_COMMENT_MAX_CHARS = 65_536;
/** Kept free for the truncation note, which is written last and must always fit. */
const NOTE_RESERVE_CHARS = 600;
const MARKDOWN_DIFF_LIMITS: FieldDiffLimits = { contextLines: 3, maxLines: 60, maxLineChars: 300 };
/**
 * The payload and free text of one change stop growing here, so no single value can crowd out the
 * others. Only they are budgeted: the job and the settings are always shown, before them.
 */
const MAX_DIFF_BLOCK_CHARS = 12_000;

/** Appends pieces while they fit; the first refusal is final, so output never has holes. */
class CommentBuilder {
  readonly pieces: string[] = [];
  private used = 0;
  full = false;

  constructor(private readonly budget: number) {}

  tryAppend(piece: string): boolean {
    if (this.full || this.used + piece.length + 1 > this.budget) {
      this.full = true;
      return false;
    }
    this.pieces.push(piece);
    this.used += piece.length + 1;
    return true;
  }

  /** Appends a heading and as many items as fit; returns how many items were shown. */
  appendSection(heading: string[], items: string[]): number {
    if (items.length === 0 || !this.tryAppend(heading.join('\n'))) return 0;
    let shown = 0;
    while (shown < items.length && this.tryAppend(items[shown]!)) shown += 1;
    return shown;
  }
}

export function renderPlanMarkdown(plan: Plan, options: MarkdownRenderOptions = {}): string {
  const maxChars = options.maxChars ?? GITHUB_COMMENT_MAX_CHARS;
  const builder = new CommentBuilder(maxChars - NOTE_RESERVE_CHARS);
  builder.tryAppend(renderHeader(plan));

  const errorItems = plan.errors.map(formatErrorItem);
  const errorsShown = builder.appendSection(['', `### Errors (${formatCount(errorItems.length)})`, ''], errorItems);

  const riskRows = collectRiskRows(plan).map(formatRiskRow);
  const rowsShown = builder.appendSection(['', '### Risk', '', ...RISK_TABLE_HEADER], riskRows);
  if (riskRows.length === 0) builder.tryAppend('\nNo risk findings.');

  const driftItems = plan.drift.map(formatDriftItem);
  const driftShown = builder.appendSection(['', `### Drift (${formatCount(driftItems.length)})`, ''], driftItems);

  if (plan.policyChange) builder.tryAppend(['', '### Policy', '', fencedBlock('diff', formatPolicyChangeLines(plan))].join('\n'));
  if (plan.riskAcceptanceChange) builder.tryAppend(['', '### Risk acceptances', '', fencedBlock('diff', formatRiskAcceptanceChangeLines(plan))].join('\n'));

  const detailsShown = builder.appendSection(['', '### Changes', ''], plan.changes.map(renderChangeDetails));

  const cut = {
    errors: errorItems.length - errorsShown,
    rows: riskRows.length - rowsShown,
    drift: driftItems.length - driftShown,
    details: plan.changes.length - detailsShown,
  };
  if (cut.errors + cut.rows + cut.drift + cut.details > 0) {
    builder.pieces.push('', renderTruncationNote(plan, cut, rowsShown, riskRows.length));
  }
  return clampToLength(`${builder.pieces.join('\n').trimEnd()}\n`, maxChars);
}

function renderHeader(plan: Plan): string {
  // A Policy or acceptance change alone is a change too: "no changes" would hide a loosening.
  const title = !planHasChanges(plan) ? 'no changes' : formatHighestRisk(plan.summary);
  const against = plan.against.kind === 'database' ? `the ${plan.against.engine} database` : `git ref ${escapeMarkdown(plan.against.ref)}`;
  return [
    PLAN_COMMENT_MARKER,
    `## cronform plan: ${title}`,
    '',
    `**${formatPlanOutcome(plan)}**`,
    '',
    `<sub>Planned against ${against} at ${escapeHtml(plan.createdAt)} · plan ${escapeHtml(plan.planId)}</sub>`,
  ].join('\n');
}

function renderTruncationNote(
  plan: Plan,
  cut: { errors: number; rows: number; drift: number; details: number },
  rowsShown: number,
  rowsTotal: number,
): string {
  const parts = [
    `${formatCount(cut.details)} of ${formatCount(plan.changes.length)} changes not shown in detail (the risk table lists ${formatCount(rowsShown)} of ${formatCount(rowsTotal)} findings)`,
  ];
  if (cut.errors > 0) parts.push(`${formatCount(cut.errors)} of ${formatCount(plan.errors.length)} errors not listed`);
  if (cut.drift > 0) parts.push(`${formatCount(cut.drift)} of ${formatCount(plan.drift.length)} drift items not listed`);
  return `> ⚠ Output truncated: ${parts.join('; ')}. Run \`cronform plan\` locally or download the plan artifact for the full plan.`;
}

/** Only reachable with a tiny maxChars (the header alone does not fit); the limit still holds. */
function clampToLength(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const note = '\n> ⚠ Output truncated.\n';
  return text.slice(0, Math.max(0, maxChars - note.length)) + note.slice(0, maxChars);
}

function renderChangeDetails(change: PlannedChange): string {
  // Inside <summary> GitHub renders HTML, not markdown: escape as HTML only.
  let title = `<code>${escapeHtml(change.name)}</code>`;
  if (change.action === 'rename' && change.previousName) title += ` (from <code>${escapeHtml(change.previousName)}</code>)`;
  const badge = change.risk === 'NONE' ? '' : ` [${change.risk}]`;
  const summary = `${ACTION_SYMBOL[change.action]} ${title}${badge} ${escapeHtml(change.headline)}`;
  const body: string[] = [`<details><summary>${summary}</summary>`, ''];

  // A created or restored schedule shows everything it will run, first.
  if ((change.action === 'create' || change.action === 'restore') && change.after) body.push(renderJob(change.after), '');
  const diff = renderDiffBlock(change);
  if (diff) body.push(diff, '');
  if (change.history) {
    const lastRun = change.history.lastRunAt ?? 'never';
    body.push(`Last run ${escapeMarkdown(lastRun)} · ${formatCount(change.history.runsLast30Days)} runs in the last 30 days`, '');
  }
  if (change.findings.length > 0) body.push(...change.findings.map(formatFindingItem), '');
  if (body.length === 2) body.push('No field changes and no findings.', '');
  // The trailing blank line keeps consecutive <details> blocks apart in the raw comment.
  body.push('</details>', '');
  return body.join('\n');
}

/** `**Job** (runs)` and one list item per field, each value in its own code span. */
function renderJob(after: NonNullable<PlannedChange['after']>): string {
  const items = describeJob(after.job, after.inputs, after.payload).map((line) => `- ${line.field}: ${line.values.length > 0 ? line.values.map(codeSpan).join(' ') : '(none)'}`);
  return ['**Job** (what will run)', '', ...items].join('\n');
}

/**
 * A fenced ```diff block of the field changes in review order and manifest terms, or null when no
 * field changed. The job and the settings are shown whole; the payload and free text share a
 * budget, and what it cuts is counted in a note.
 */
function renderDiffBlock(change: PlannedChange): string | null {
  const lines: string[] = [];
  let boundedSize = 0;
  let fieldsCut = 0;
  for (const fieldChange of orderFieldChanges(change.fieldChanges)) {
    const field = fieldChange.path.split('.')[0]!;
    const bounded = BOUNDED_FIELDS.has(field);
    if (bounded && boundedSize > MAX_DIFF_BLOCK_CHARS) {
      fieldsCut += 1;
      continue;
    }
    const rendered = renderFieldChange(toManifestTerms(fieldChange), isJobPath(fieldChange.path) ? UNCUT_DIFF_LIMITS : MARKDOWN_DIFF_LIMITS);
    const fieldLines =
      rendered.kind === 'inline'
        ? [`- ${rendered.path}: ${rendered.before}`, `+ ${rendered.path}: ${rendered.after}`]
        : [`  ${rendered.path}:`, ...rendered.lines.map((line) => `${line.kind === '…' ? ' ' : line.kind}   ${line.text}`)];
    lines.push(...fieldLines);
    if (bounded) boundedSize += fieldLines.reduce((total, line) => total + line.length + 1, 0);
  }
  if (fieldsCut > 0) lines.push(`  … ${fieldsCut} more changed payload or free-text fields not shown`);
  const slots = describeNextSlots(change);
  if (slots) lines.push(`- next slots: ${slots.before}`, `+ next slots: ${slots.after}`);
  if (lines.length === 0) return null;
  // A fence longer than any backtick run in the content cannot be closed by the content.
  return fencedBlock('diff', lines);
}

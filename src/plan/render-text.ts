/**
 * `cronform plan` for terminals. Pure: the command decides `color` (shared/terminal.ts: a TTY or
 * FORCE_COLOR, never with NO_COLOR) and prints the string. Order is the reading order of a review:
 * what blocks apply (errors), what changes (in the plan's risk order), what drifted, then one
 * summary line.
 */
import { Ansis } from 'ansis';
import { formatDiagnostic, type Diagnostic } from '../shared/diagnostics.js';
import { makeVisible } from '../shared/visible-text.js';
import { isJobPath, orderFieldChanges, toManifestTerms } from './field-names.js';
import { isAcceptedForGate, type DriftItem, type Finding, type FindingLevel, type Plan, type PlannedChange, type RiskLevel } from './plan-types.js';
import { UNCUT_DIFF_LIMITS, describeNextSlots, renderFieldChange, type DiffLine, type FieldDiffLimits } from './render-field-diff.js';
import { describeJob, formatJobLineText } from './render-job.js';
import {
  ACTION_SYMBOL,
  formatAcceptance,
  formatCount,
  formatPlanOutcome,
  formatPolicyChangeLines,
  formatRiskAcceptanceChangeLines,
  formatSourceLocation,
} from './render-summary.js';

export interface TextRenderOptions {
  color: boolean;
}

/**
 * Generous but finite: a terminal is no place for a 100 KB payload, and `--format json` carries
 * every value in full.
 */
const TEXT_DIFF_LIMITS: FieldDiffLimits = { contextLines: 3, maxLines: 200, maxLineChars: 1_000 };

export function renderPlanText(plan: Plan, options: TextRenderOptions): string {
  const paint = new Ansis(options.color ? 3 : 0);
  const blocks: string[] = [];

  if (plan.errors.length > 0) {
    blocks.push(plan.errors.map((diagnostic) => paintDiagnostic(paint, formatDiagnostic(visibleDiagnostic(diagnostic)))).join('\n'));
  }
  for (const change of plan.changes) blocks.push(renderChange(paint, change));
  if (plan.policyChange) blocks.push([...formatPolicyChangeLines(plan), ...plan.policyChange.findings.flatMap((finding) => renderFinding(paint, finding, '  '))].join('\n'));
  if (plan.riskAcceptanceChange) blocks.push([...formatRiskAcceptanceChangeLines(plan), ...(plan.riskAcceptanceChange.findings ?? []).flatMap((finding) => renderFinding(paint, finding, '  '))].join('\n'));
  if (plan.drift.length > 0) {
    blocks.push([paint.bold('Drift'), ...plan.drift.map((item) => renderDrift(paint, item))].join('\n'));
  }
  blocks.push(paint.bold(formatPlanOutcome(plan)));
  return `${blocks.join('\n\n')}\n`;
}

/** The diagnostic's own text made visible; formatDiagnostic's line break before the hint stays. */
function visibleDiagnostic(diagnostic: Diagnostic): Diagnostic {
  return {
    ...diagnostic,
    message: makeVisible(diagnostic.message),
    ...(diagnostic.file !== undefined ? { file: makeVisible(diagnostic.file) } : {}),
    ...(diagnostic.hint !== undefined ? { hint: makeVisible(diagnostic.hint) } : {}),
  };
}

/** Colour the severity word only; the rest of the diagnostic stays readable in any theme. */
function paintDiagnostic(paint: Ansis, text: string): string {
  return text.replace(/ (error|warning) (CF\d+)/, (_match, severity: string, code: string) =>
    ` ${severity === 'error' ? paint.red(severity) : paint.yellow(severity)} ${code}`,
  );
}

function paintLevel(paint: Ansis, level: FindingLevel | RiskLevel, text: string): string {
  if (level === 'HIGH' || level === 'ERROR') return paint.red(text);
  if (level === 'MEDIUM') return paint.yellow(text);
  return text;
}

function paintAction(paint: Ansis, change: PlannedChange, text: string): string {
  if (change.action === 'create') return paint.green(text);
  if (change.action === 'update') return paint.yellow(text);
  if (change.action === 'archive') return paint.red(text);
  return paint.cyan(text);
}

function renderChange(paint: Ansis, change: PlannedChange): string {
  const name = makeVisible(change.action === 'rename' && change.previousName ? `${change.name} (from ${change.previousName})` : change.name);
  const badge = change.risk === 'NONE' ? '' : ` ${paintLevel(paint, change.risk, `[${change.risk}]`)}`;
  const lines = [`${paintAction(paint, change, `${ACTION_SYMBOL[change.action]} ${name}`)}${badge} ${makeVisible(change.headline)}`];

  // A created or restored schedule shows everything it will run, first.
  if ((change.action === 'create' || change.action === 'restore') && change.after) {
    lines.push('  job:', ...describeJob(change.after.job, change.after.inputs, change.after.payload).map((line) => `    ${formatJobLineText(line)}`));
  }
  for (const fieldChange of orderFieldChanges(change.fieldChanges)) {
    const limits = isJobPath(fieldChange.path) ? UNCUT_DIFF_LIMITS : TEXT_DIFF_LIMITS;
    const rendered = renderFieldChange(toManifestTerms(fieldChange), limits);
    if (rendered.kind === 'inline') {
      lines.push(`  ${rendered.path}: ${rendered.before} → ${rendered.after}`);
    } else {
      lines.push(`  ${rendered.path}:`, ...rendered.lines.map((line) => renderDiffLine(paint, line)));
    }
  }
  const slots = describeNextSlots(change);
  if (slots) lines.push(`  next slots before: ${slots.before}`, `  next slots after:  ${slots.after}`);
  if (change.history) {
    const lastRun = change.history.lastRunAt ?? 'never';
    lines.push(`  last run ${lastRun} · ${formatCount(change.history.runsLast30Days)} runs in the last 30 days`);
  }
  for (const finding of change.findings) lines.push(...renderFinding(paint, finding, '  '));
  return lines.join('\n');
}

function renderDiffLine(paint: Ansis, line: DiffLine): string {
  if (line.kind === '+') return paint.green(`    + ${line.text}`);
  if (line.kind === '-') return paint.red(`    - ${line.text}`);
  if (line.kind === '…') return paint.dim(`      ${line.text}`);
  return `      ${line.text}`;
}

/** `[HIGH] CF101 message  file:line:col [accepted until …: reason]` and an indented `fix:` line. */
function renderFinding(paint: Ansis, finding: Finding, indent: string): string[] {
  const location = formatSourceLocation(finding.location);
  const acceptance = formatAcceptance(finding);
  // An accepted finding keeps its level (it is still that risky) but loses its alarm colour,
  // unless the change accepted it itself.
  const badge = isAcceptedForGate(finding) ? `[${finding.level}]` : paintLevel(paint, finding.level, `[${finding.level}]`);
  let line = `${indent}${badge} ${makeVisible(finding.code)} ${makeVisible(finding.message)}`;
  if (location) line += `  ${location}`;
  if (acceptance) line += ` ${paint.dim(`[${acceptance}]`)}`;
  return finding.hint ? [line, `${indent}  fix: ${makeVisible(finding.hint)}`] : [line];
}

function renderDrift(paint: Ansis, item: DriftItem): string {
  const { finding } = item;
  const lines = [`${paint.magenta('!')} ${makeVisible(item.name)}  ${makeVisible(item.message)}  (${makeVisible(finding.code)} ${finding.level})`];
  const acceptance = formatAcceptance(finding);
  if (acceptance) lines.push(`    [${acceptance}]`);
  if (finding.hint) lines.push(`    fix: ${makeVisible(finding.hint)}`);
  return lines.join('\n');
}

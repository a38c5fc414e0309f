/**
 * `cronform report` as text (a terminal) or markdown (a daily digest posted to chat, an issue or a
 * wiki). Schedule names pass validation, but a digest is read where markup acts, so every name is
 * escaped like any user text in a PR comment (plan/render-markdown-table.ts).
 */
import { escapeMarkdown } from '../../plan/render-markdown-table.js';
import { formatElapsed } from '../../shared/format-elapsed.js';
import { makeVisible } from '../../shared/visible-text.js';
import type { ScheduleReport, ScheduleReportEntry } from './schedule-report.js';

const HEADER = ['SCHEDULE', 'CRITICALITY', 'RUNS', 'OK', 'FAILED', 'SKIPPED', 'MISSED', 'OTHER', 'SUCCESS', 'P95 DELAY', 'LAST SUCCESS'];
const MARKDOWN_HEADER = ['Schedule', 'Criticality', 'Runs', 'OK', 'Failed', 'Skipped', 'Missed', 'Other', 'Success', 'p95 delay', 'Last success'];

function formatRate(rate: number | null): string {
  return rate === null ? '-' : `${(rate * 100).toFixed(1)}%`;
}

function formatFreshness(entry: ScheduleReportEntry): string {
  return entry.freshnessMs === null ? 'never' : `${formatElapsed(entry.freshnessMs)} ago`;
}

/** Cancelled and not yet final runs: counted, but neither a success nor a failure. */
const otherRuns = (entry: ScheduleReportEntry) => entry.cancelled + entry.unfinished;

function cells(entry: ScheduleReportEntry): string[] {
  return [
    String(entry.runs),
    String(entry.succeeded),
    String(entry.failed),
    String(entry.skipped),
    String(entry.missed),
    String(otherRuns(entry)),
    formatRate(entry.successRate),
    formatElapsed(entry.p95StartDelayMs),
    formatFreshness(entry),
  ];
}

function describeWindow(report: ScheduleReport): string {
  return `Schedules from ${report.since} to ${report.until}`;
}

function describeTotals(report: ScheduleReport): string {
  const t = report.totals;
  return `${t.runs} run(s): ${t.succeeded} succeeded, ${t.failed} failed, ${t.skipped} skipped, ${t.missed} missed, ${t.cancelled} cancelled, ${t.unfinished} not finished.`;
}

export function renderScheduleReportText(report: ScheduleReport): string {
  if (report.schedules.length === 0) return `${describeWindow(report)}: no active schedules.`;
  const rows = [HEADER, ...report.schedules.map((entry) => [makeVisible(entry.name), entry.criticality, ...cells(entry)])];
  const widths = HEADER.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const lines = rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : column >= 2 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!))).join('  '));
  return [`${describeWindow(report)}.`, '', ...lines, '', describeTotals(report)].join('\n');
}

export function renderScheduleReportMarkdown(report: ScheduleReport): string {
  const title = `### cronform report: ${report.since} to ${report.until}`;
  if (report.schedules.length === 0) return `${title}\n\nNo active schedules.`;
  const header = `| ${MARKDOWN_HEADER.join(' | ')} |`;
  const align = `|---|---|${'---:|'.repeat(MARKDOWN_HEADER.length - 2)}`;
  const rows = report.schedules.map((entry) => {
    // A schedule that failed or missed a slot is what the reader looks for first.
    const name = entry.failed + entry.missed > 0 ? `**${escapeMarkdown(entry.name)}**` : escapeMarkdown(entry.name);
    return `| ${[name, escapeMarkdown(entry.criticality), ...cells(entry)].join(' | ')} |`;
  });
  return [title, '', header, align, ...rows, '', describeTotals(report)].join('\n');
}

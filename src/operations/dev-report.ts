/**
 * What `cronform dev` says after a re-plan and where the next runs fall: short lines for a person
 * watching a terminal, computed from the plan, the apply result and the status report.
 */
import type { Plan } from '../plan/plan-types.js';
import type { ApplyResult } from './apply.js';
import type { ScheduleStatusReport } from './runs/schedule-status.js';

const PAST_TENSE: Record<ApplyResult['applied'][number]['action'], string> = {
  create: 'created',
  update: 'updated',
  archive: 'archived',
  restore: 'restored',
  rename: 'renamed',
};

/** One line per applied change: `applied v3 weekly-report: updated (schedule, timeout)`. */
export function describeApplied(plan: Plan, result: ApplyResult): string[] {
  const lines = result.applied.map((applied) => {
    const change = plan.changes.find((candidate) => candidate.name === applied.name);
    const what = change?.action === 'update' && change.changedPaths.length > 0 ? ` (${change.changedPaths.join(', ')})` : change?.action === 'rename' ? ` (from ${change.previousName ?? '?'})` : '';
    return `applied v${applied.version} ${applied.name}: ${PAST_TENSE[applied.action]}${what}`;
  });
  if (plan.policyChange) lines.push('applied: policy changed');
  if (plan.riskAcceptanceChange) lines.push('applied: risk acceptances changed');
  return lines;
}

/** The plan's errors, one located line each. */
export function describePlanErrors(plan: Plan): string[] {
  return plan.errors.map((error) => {
    const where = error.file ? `${error.file}${error.line ? `:${error.line}${error.column ? `:${error.column}` : ''}` : ''}: ` : '';
    return `not applied: ${where}${error.message} [${error.code}]`;
  });
}

/** "in 4m", "in 2h 5m", "in 3d 1h", "now". */
export function formatWait(waitMs: number): string {
  const minutes = Math.round(waitMs / 60_000);
  if (minutes <= 0) return 'now';
  if (minutes < 60) return `in ${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `in ${hours}h${minutes % 60 ? ` ${minutes % 60}m` : ''}`;
  const days = Math.floor(hours / 24);
  return `in ${days}d${hours % 24 ? ` ${hours % 24}h` : ''}`;
}

/** At most `limit` schedules by next run, soonest first; paused and disabled ones say so at the end. */
export function renderNextRuns(report: ScheduleStatusReport, nowMs: number, limit = 10): string[] {
  const upcoming = report.schedules.filter((entry) => entry.enabled && !entry.paused && entry.nextRunAt).sort((a, b) => Date.parse(a.nextRunAt!) - Date.parse(b.nextRunAt!));
  const idle = report.schedules.length - upcoming.length;
  if (report.schedules.length === 0) return ['next runs: none (no schedules)'];
  const lines = ['next runs:'];
  const nameWidth = Math.max(...upcoming.slice(0, limit).map((entry) => entry.name.length), 0);
  for (const entry of upcoming.slice(0, limit)) {
    lines.push(`  ${entry.name.padEnd(nameWidth)}  ${entry.nextRunAt!.slice(0, 16).replace('T', ' ')}Z  ${formatWait(Date.parse(entry.nextRunAt!) - nowMs)}`);
  }
  if (upcoming.length > limit) lines.push(`  … and ${upcoming.length - limit} more (cronform status)`);
  if (idle > 0) lines.push(`  ${idle} paused or disabled`);
  return lines;
}

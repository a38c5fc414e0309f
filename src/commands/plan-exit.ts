import { planHasChanges, type Plan } from '../plan/plan-types.js';
import { ExitCodes } from '../shared/exit-codes.js';

const LEVELS = { medium: ['MEDIUM', 'HIGH', 'ERROR'], high: ['HIGH', 'ERROR'] } as const;

/** Errors win over risk, risk over "changes present" (SPEC §5 exit codes). */
export function exitCodeForPlan(plan: Plan, options: { detailedExitCode?: boolean; failOn?: 'medium' | 'high' | undefined }): number {
  if (plan.errors.length > 0) return ExitCodes.ERROR;
  if (options.failOn) {
    const levels: readonly string[] = LEVELS[options.failOn];
    const findings = [...plan.changes.flatMap((c) => c.findings), ...plan.drift.map((d) => d.finding)];
    if (findings.some((f) => !f.accepted && levels.includes(f.level))) return ExitCodes.RISK_NOT_ACCEPTED;
  }
  if (options.detailedExitCode && planHasChanges(plan)) return ExitCodes.CHANGES_PRESENT;
  return ExitCodes.SUCCESS;
}

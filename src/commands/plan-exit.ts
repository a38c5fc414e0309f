import { isAcceptedForGate, planHasChanges, type Finding, type Plan } from '../plan/plan-types.js';
import { ExitCodes } from '../shared/exit-codes.js';

export type FailOn = 'medium' | 'high';

const LEVELS = { medium: ['MEDIUM', 'HIGH', 'ERROR'], high: ['HIGH', 'ERROR'] } as const;

/** A finding that holds the gate shut, and what it is about (a schedule, or the Policy). */
export interface GateFinding {
  subject: string;
  finding: Finding;
}

/**
 * The findings at or above `failOn` that no stored acceptance covers: an acceptance added by the
 * change itself does not open the gate (the accept label, applied by someone else, does in CI).
 */
export function findingsAtOrAbove(plan: Plan, failOn: FailOn): GateFinding[] {
  const levels: readonly string[] = LEVELS[failOn];
  const all: GateFinding[] = [
    ...(plan.policyChange?.findings ?? []).map((finding) => ({ subject: 'policy', finding })),
    ...(plan.riskAcceptanceChange?.findings ?? []).map((finding) => ({ subject: 'risk acceptances', finding })),
    ...plan.changes.flatMap((c) => c.findings.map((finding) => ({ subject: c.name, finding }))),
    ...plan.drift.map((d) => ({ subject: d.name, finding: d.finding })),
  ];
  return all.filter(({ finding }) => !isAcceptedForGate(finding) && levels.includes(finding.level));
}

/** Errors win over risk, risk over "changes present" (SPEC §5 exit codes). */
export function exitCodeForPlan(plan: Plan, options: { detailedExitCode?: boolean; failOn?: FailOn | undefined }): number {
  if (plan.errors.length > 0) return ExitCodes.ERROR;
  if (options.failOn && findingsAtOrAbove(plan, options.failOn).length > 0) return ExitCodes.RISK_NOT_ACCEPTED;
  if (options.detailedExitCode && planHasChanges(plan)) return ExitCodes.CHANGES_PRESENT;
  return ExitCodes.SUCCESS;
}

/**
 * Why `plan --fail-on` exits 3, for stderr: one line per finding (level, code, subject, message),
 * control characters shown escaped so a message cannot forge lines of its own.
 */
export function formatFailOnReason(failing: GateFinding[], failOn: FailOn): string {
  const oneLine = (text: string) => JSON.stringify(text).slice(1, -1);
  const lines = failing.map(({ subject, finding }) => {
    const self = finding.accepted?.addedInThisChange ? ' (accepted by the author in this change: not counted)' : '';
    return `  ${finding.level} ${finding.code} ${oneLine(subject)}: ${oneLine(finding.message)}${self}`;
  });
  const count = failing.length === 1 ? '1 finding' : `${failing.length} findings`;
  return [`cronform plan: exit 3: ${count} at or above --fail-on ${failOn} not accepted:`, ...lines, 'Accept a reviewed risk with the accept label, or with a metadata.riskAccepted already applied.'].join('\n');
}

/**
 * A plan is a value (STYLE rule 6): versioned, serializable, and carrying per change the
 * version/digest of the state it was made against, so apply can refuse a stale one.
 */
import type { Definition, PolicyDefinition, RiskAcceptance, SourceLocation } from '../compile/definition.js';
import type { Diagnostic } from '../shared/diagnostics.js';

export const PLAN_FORMAT_VERSION = 1;

export type ChangeAction = 'create' | 'update' | 'archive' | 'restore' | 'rename';
export type RiskLevel = 'LOW' | 'MEDIUM' | 'HIGH';
/** ERROR findings block apply (e.g. over maxRunsPerDay); the others inform review. */
export type FindingLevel = RiskLevel | 'ERROR';

export interface Finding {
  /** Stable code: CF1xx frequency, CF2xx archive/prune, CF3xx time/DST, CF4xx secrets, CF5xx execution, CF6xx drift, CF7xx Policy. */
  code: string;
  level: FindingLevel;
  message: string;
  location?: SourceLocation;
  hint?: string;
  /**
   * Set when the manifest accepts this finding (`metadata.riskAccepted`); still shown, never hidden.
   * `addedInThisChange`: no stored acceptance (the database's, or the base ref's) covers it, so the
   * author of the change accepted their own risk: shown, but it does not lower the risk nor
   * satisfy `--fail-on` (a second person does, with the accept label).
   */
  accepted?: { reason: string; until: string; addedInThisChange?: true };
}

export interface FieldChange {
  /** Dotted path inside the definition, e.g. `job.command` or `retry.maxAttempts`. */
  path: string;
  before: unknown;
  after: unknown;
}

export interface ScheduleFigures {
  runsPerDayPeak: number;
  runsPerDayAverage: number;
  /** Largest number of slots in any one minute (same-instant bursts count fully). */
  peakRunsPerMinute: number;
  minIntervalMs: number;
  /** The next few slots (ISO UTC) from the plan's `createdAt`. */
  nextSlots: string[];
  /** The same slots in the schedule's local time. */
  nextSlotsLocal: string[];
}

export interface PlannedChange {
  action: ChangeAction;
  name: string;
  /** For `rename`: the stored name it had before. */
  previousName?: string;
  scheduleId: number | null;
  /** Version and digest of the stored schedule the change was planned against (null for create). */
  beforeVersion: number | null;
  beforeDigest: string | null;
  /** Digest of the definition after the change (null for archive). */
  afterDigest: string | null;
  before: Definition | null;
  after: Definition | null;
  changedPaths: string[];
  fieldChanges: FieldChange[];
  /** One semantic sentence: runs/day before → after, DST effect, what archiving loses. */
  headline: string;
  figures: { before: ScheduleFigures | null; after: ScheduleFigures | null };
  findings: Finding[];
  /** Highest finding level not accepted by a stored acceptance (ERROR counts as HIGH for ordering), NONE without findings. */
  risk: RiskLevel | 'NONE';
  source: SourceLocation | null;
  /** Archive only: what the schedule did recently. */
  history?: { lastRunAt: string | null; runsLast30Days: number };
}

export interface PolicyChange {
  beforeDigest: string | null;
  afterDigest: string;
  after: Omit<PolicyDefinition, 'source'>;
  fieldChanges: FieldChange[];
  /** Every limit the change moves: loosened ones are HIGH (CF701), tightened ones LOW (CF702). */
  findings: Finding[];
}

/** The schedules' risk acceptances (`metadata.riskAccepted`) by schedule name, as apply stores them. */
export type StoredRiskAcceptances = Record<string, RiskAcceptance[]>;

/** The repository's risk acceptances, when they differ from the stored ones (stored so a later plan can tell a reviewed acceptance from a new one). */
export interface RiskAcceptanceChange {
  beforeDigest: string | null;
  afterDigest: string;
  before: StoredRiskAcceptances;
  after: StoredRiskAcceptances;
  /**
   * CF706 for each acceptance added that accepts no finding of this plan: stored, it would waive a
   * later finding of that code (a new host next month) that nobody accepted for what it is.
   * Absent in plans written before it existed.
   */
  findings?: Finding[];
}

/**
 * Which Policy the plan's risk was judged by: the stored one (the database's, or the base ref's
 * with --against-ref), the defaults because the stored one is the defaults, or the defaults
 * because none is stored yet. Never the Policy of the change itself (see stricterPolicy).
 */
export type PolicyInForce = 'stored' | 'defaults' | 'none-stored';

export type DriftKind = 'paused' | 'modified' | 'unmanaged';

export interface DriftItem {
  name: string;
  scheduleId: number;
  kind: DriftKind;
  message: string;
  finding: Finding;
}

export interface PlanSummary {
  create: number;
  update: number;
  archive: number;
  restore: number;
  rename: number;
  unchanged: number;
  drift: number;
  runsPerDayBefore: number;
  runsPerDayAfter: number;
  peakRunsPerMinuteBefore: number;
  peakRunsPerMinuteAfter: number;
  /** Highest risk after the acceptances that count (stored ones; not those added in this change). */
  highestRisk: RiskLevel | 'NONE';
  /** Highest risk as if nothing were accepted. */
  highestRiskWithoutAcceptances: RiskLevel | 'NONE';
  errors: number;
}

export interface Plan {
  formatVersion: typeof PLAN_FORMAT_VERSION;
  /** Digest of the plan's content (everything except planId and createdAt). */
  planId: string;
  createdAt: string;
  /** What the desired state was compared against. */
  against: { kind: 'database'; engine: 'postgres' | 'pglite' } | { kind: 'git-ref'; ref: string };
  /** Ordered by risk (highest first), then action, then name. */
  changes: PlannedChange[];
  /** The repository Policy, when it differs from the stored one (null: unchanged). */
  policyChange: PolicyChange | null;
  /** The Policy the findings were judged by. */
  policyInForce: PolicyInForce;
  riskAcceptanceChange: RiskAcceptanceChange | null;
  drift: DriftItem[];
  unchanged: number;
  summary: PlanSummary;
  /** Problems that block apply: validation errors, mass-archive guard, ERROR findings. */
  errors: Diagnostic[];
}

/** Whether applying the plan would write anything. */
export function planHasChanges(plan: Pick<Plan, 'changes' | 'policyChange' | 'riskAcceptanceChange'>): boolean {
  return plan.changes.length > 0 || Boolean(plan.policyChange) || Boolean(plan.riskAcceptanceChange);
}

/** Whether an acceptance lowers the risk and satisfies --fail-on: only one a reviewer already saw (stored). */
export function isAcceptedForGate(finding: Finding): boolean {
  return Boolean(finding.accepted) && !finding.accepted?.addedInThisChange;
}

/**
 * The diff: desired schedules (compiled manifests) against stored ones → a Plan value.
 * Pure: the stored state, run history and `nowMs` are inputs.
 */
import type { CompileResult } from '../compile/compile-sources.js';
import { DEFAULT_POLICY, type CompiledSchedule, type Definition, type PolicyDefinition, type RiskAcceptance } from '../compile/definition.js';
import { digestOf } from '../compile/digest.js';
import type { RunHistory, StoredScheduleSummary } from '../compile/stored-schedule.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import { findDrift } from './drift.js';
import { diffFields } from './field-diff.js';
import { computeFigures } from './figures.js';
import { checkMassArchive } from './mass-archive.js';
import { computePlanId } from './plan-id.js';
import { PLAN_FORMAT_VERSION, type ChangeAction, type Finding, type Plan, type PlannedChange, type PlanSummary, type PolicyChange, type PolicyInForce, type RiskAcceptanceChange, type RiskLevel, type StoredRiskAcceptances } from './plan-types.js';
import { compareAlertTargets, comparePolicies, findingsForAlertMoves, findingsForPolicyMoves, stricterPolicy } from './policy-comparison.js';
import { findDesiredSharedInstants, tallyDesired, tallyStored, totalsOf, type RepositoryTotals, type SharedInstants, type TimingTally } from './repository-totals.js';
import { RUNS_PER_DAY_WINDOW_DAYS } from '../time/runs-per-day.js';
import { runsInWindow } from '../time/timing-cache.js';
import { assessChange, headlineFor, highestRisk, RiskCodes, type RiskInput } from './risk.js';

export { computePlanId };

export interface BuildPlanInput {
  desired: CompileResult;
  current: StoredScheduleSummary[];
  /** Definitions of the stored schedules the plan changes, by id (see findStoredToLoad); others are not read. */
  storedDefinitions: ReadonlyMap<number, Definition>;
  /** Run history of the schedules that would be archived (see findArchiveCandidates). */
  history: Map<number, RunHistory>;
  nowMs: number;
  against: Plan['against'];
  allowMassArchive?: boolean;
  /**
   * The Policy in force: stored by the last apply, or the base ref's with --against-ref (null: none
   * stored yet, the defaults are in force). Risk is judged by it, never by the change's own Policy.
   * Absent only for callers without stored state: then the change's Policy is taken as in force.
   */
  storedPolicy?: { policy: Omit<PolicyDefinition, 'source'>; digest: string } | null;
  /**
   * The risk acceptances stored by the last apply (or the base ref's manifests'), by schedule name
   * (null: none stored yet). An acceptance they do not cover was added by this change's author.
   */
  storedRiskAcceptances?: { acceptances: StoredRiskAcceptances; digest: string } | null;
  /**
   * Parts of the plan already computed from one side alone (pairSchedules, findDesiredSharedInstants
   * and tallyStored of the same inputs and `nowMs`), so a caller can compute them while it waits
   * for the other side; buildPlan computes what is missing. `desiredHerds` needs only the names of
   * the manifests the plan changes (a name it lacks has no herd); the stored tally's instant is
   * checked against `nowMs`.
   */
  precomputed?: { pairings?: Pairing[]; desiredHerds?: Map<string, SharedInstants>; storedTally?: TimingTally };
}

/** The Policy as stored: without its source location, so moving the file is not a change. */
export function storablePolicy(policy: PolicyDefinition): Omit<PolicyDefinition, 'source'> {
  const { source: _source, ...rest } = policy;
  return rest;
}

/** The Policy in force before this change: the stored one, or the defaults when none is stored. */
function policyInForceOf(input: BuildPlanInput): PolicyDefinition {
  if (input.storedPolicy === undefined) return input.desired.policy;
  return input.storedPolicy ? { ...input.storedPolicy.policy, source: null } : DEFAULT_POLICY;
}

const DEFAULT_POLICY_DIGEST = digestOf(storablePolicy(DEFAULT_POLICY));

function describePolicyInForce(input: BuildPlanInput): PolicyInForce {
  if (input.storedPolicy === null) return 'none-stored';
  if (input.storedPolicy === undefined) return 'stored';
  return input.storedPolicy.digest === DEFAULT_POLICY_DIGEST ? 'defaults' : 'stored';
}

function diffPolicy(input: BuildPlanInput): PolicyChange | null {
  if (input.storedPolicy === undefined) return null;
  const after = storablePolicy(input.desired.policy);
  const afterDigest = digestOf(after);
  if (input.storedPolicy?.digest === afterDigest) return null;
  const inForce = storablePolicy(policyInForceOf(input));
  const location = input.desired.policy.source;
  const findings = [...findingsForPolicyMoves(comparePolicies(inForce, after), location), ...findingsForAlertMoves(compareAlertTargets(inForce, after), location)];
  return { beforeDigest: input.storedPolicy?.digest ?? null, afterDigest, after, fieldChanges: diffFields(input.storedPolicy?.policy ?? {}, after), findings };
}

/** The manifests' acceptances by schedule name, as apply stores them (schedules without any are left out). */
export function collectRiskAcceptances(schedules: CompiledSchedule[]): StoredRiskAcceptances {
  const entries = schedules.filter((s) => s.riskAccepted.length > 0).map((s) => [s.definition.name, s.riskAccepted] as const);
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}

function diffRiskAcceptances(input: BuildPlanInput): RiskAcceptanceChange | null {
  if (input.storedRiskAcceptances === undefined) return null;
  const after = collectRiskAcceptances(input.desired.schedules);
  const before = input.storedRiskAcceptances?.acceptances ?? {};
  const afterDigest = digestOf(after);
  // Nothing stored and nothing to store is no change: most repositories accept no risk.
  if ((input.storedRiskAcceptances?.digest ?? digestOf({})) === afterDigest) return null;
  return { beforeDigest: input.storedRiskAcceptances?.digest ?? null, afterDigest, before, after };
}

/**
 * An acceptance added for a finding this plan does not raise accepts nothing today; once stored
 * it would waive the next finding of that code on that schedule (another host, another variable)
 * until its date, though nobody accepted that one: CF706, MEDIUM, so the reviewer sees it as such.
 */
function withDormantAcceptances(change: RiskAcceptanceChange | null, changes: PlannedChange[]): RiskAcceptanceChange | null {
  if (!change) return change;
  const raised = new Set(changes.flatMap((c) => c.findings.map((f) => `${c.name} ${f.code}`)));
  const key = (a: RiskAcceptance) => JSON.stringify([a.code, a.reason, a.until]);
  const findings: Finding[] = [];
  for (const [name, acceptances] of Object.entries(change.after).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const before = new Set((change.before[name] ?? []).map(key));
    for (const acceptance of acceptances) {
      if (before.has(key(acceptance)) || raised.has(`${name} ${acceptance.code}`)) continue;
      const meaning = (RiskCodes as Record<string, { meaning: string }>)[acceptance.code]?.meaning ?? 'a finding of that code';
      findings.push({
        code: 'CF706',
        level: 'MEDIUM',
        message: `${name}: the acceptance of ${acceptance.code} added here accepts no finding of this plan; stored, it would waive the next ${acceptance.code} of ${name} (${meaning}) until ${acceptance.until}`,
        hint: 'add an acceptance in the change that raises the finding it accepts, not ahead of it',
      });
    }
  }
  return findings.length > 0 ? { ...change, findings } : change;
}

export interface Pairing {
  action: ChangeAction | 'unchanged';
  desired: CompiledSchedule | null;
  stored: StoredScheduleSummary | null;
}

/** Match manifests to stored schedules: by name, then by declared previousName. */
export function pairSchedules(desired: CompiledSchedule[], current: StoredScheduleSummary[]): Pairing[] {
  const byName = new Map(current.map((s) => [s.name, s]));
  // Names are claimed before any previousName, whatever the file order: a manifest that keeps a
  // stored name owns that schedule, so a rename can never pair with it a second time.
  const claimed = new Set(desired.flatMap((schedule) => byName.get(schedule.definition.name)?.id ?? []));
  const pairings: Pairing[] = [];
  for (const schedule of desired) {
    const sameName = byName.get(schedule.definition.name);
    const renamedFrom = schedule.previousName ? byName.get(schedule.previousName) : undefined;
    if (sameName) {
      const action = sameName.status === 'ARCHIVED' ? 'restore' : sameName.digest === schedule.digest ? 'unchanged' : 'update';
      pairings.push({ action, desired: schedule, stored: sameName });
    } else if (renamedFrom && !claimed.has(renamedFrom.id)) {
      claimed.add(renamedFrom.id);
      pairings.push({ action: 'rename', desired: schedule, stored: renamedFrom });
    } else {
      pairings.push({ action: 'create', desired: schedule, stored: null });
    }
  }
  for (const stored of current) {
    // Only schedules cronform created are ever archived, and an archived one stays archived.
    if (!claimed.has(stored.id) && stored.managed && stored.status === 'ACTIVE') pairings.push({ action: 'archive', desired: null, stored });
  }
  return pairings;
}

export function findArchiveCandidates(desired: CompiledSchedule[], current: StoredScheduleSummary[]): StoredScheduleSummary[] {
  return pairSchedules(desired, current).flatMap((p) => (p.action === 'archive' && p.stored ? [p.stored] : []));
}

/** What a plan reads beyond the summaries: the definitions of the stored schedules it changes, the run history of those it archives. */
export function findStoredToLoad(desired: CompiledSchedule[], current: StoredScheduleSummary[]): { definitionIds: number[]; archiveIds: number[] } {
  return storedToLoad(pairSchedules(desired, current));
}

export function storedToLoad(pairings: Pairing[]): { definitionIds: number[]; archiveIds: number[] } {
  const changed = pairings.filter((p) => p.action !== 'unchanged' && p.stored);
  return { definitionIds: changed.map((p) => p.stored!.id), archiveIds: changed.filter((p) => p.action === 'archive').map((p) => p.stored!.id) };
}

function storedDefinition(stored: StoredScheduleSummary, input: BuildPlanInput): Definition {
  const definition = input.storedDefinitions.get(stored.id);
  if (!definition) throw new Error(`the definition of stored schedule ${stored.name} (id ${stored.id}) was not loaded`);
  return definition;
}

const RISK_RANK: Record<RiskLevel | 'NONE', number> = { HIGH: 0, MEDIUM: 1, LOW: 2, NONE: 3 };
const ACTION_RANK: Record<ChangeAction, number> = { archive: 0, update: 1, rename: 2, restore: 3, create: 4 };

function riskRank(change: PlannedChange): number {
  return change.findings.some((f) => f.level === 'ERROR') ? -1 : RISK_RANK[change.risk];
}

/** Desired schedules by the upstream their `spec.after` names: indexed once, not searched per change. */
function indexDependents(input: BuildPlanInput): Map<string, Definition[]> {
  const byUpstream = new Map<string, Definition[]>();
  for (const { definition } of input.desired.schedules) {
    for (const entry of definition.after ?? []) byUpstream.set(entry.schedule, [...(byUpstream.get(entry.schedule) ?? []), definition]);
  }
  return byUpstream;
}

/** A schedule's peak runs/day, through the schedules it follows; null when it follows none. */
type FollowedRate = (def: Definition) => number | null;

/**
 * The rate of a dependent is its upstreams': one run per SUCCESS of a single upstream, and for a
 * join at most one per business date (one a day) and never more than its slowest upstream. A
 * disabled or unknown upstream runs nothing. `definitions` is one side (stored or desired) by name.
 */
function followedRate(definitions: ReadonlyMap<string, Definition>, nowMs: number, ownRate: (def: Definition) => number = (def) => computeFigures(def, nowMs).runsPerDayPeak): FollowedRate {
  const memo = new Map<string, number>();
  const rateOf = (def: Definition, visiting: Set<string>): number => {
    if (!def.after || def.after.length === 0) return ownRate(def);
    const upstreamRates = def.after.map(({ schedule }) => {
      const upstream = definitions.get(schedule);
      // A cycle is a validation error; on a stored side it counts as nothing rather than recursing.
      if (!upstream || !upstream.enabled || visiting.has(schedule)) return 0;
      if (!memo.has(schedule)) memo.set(schedule, rateOf(upstream, new Set([...visiting, schedule])));
      return memo.get(schedule)!;
    });
    return def.after.length > 1 ? Math.min(1, ...upstreamRates) : upstreamRates[0]!;
  };
  return (def) => (def.after && def.after.length > 0 ? rateOf(def, new Set([def.name])) : null);
}

/** Both sides by name: stored definitions of changed schedules (active ones), desired ones of the rest. */
function sidesByName(pairings: Pairing[], input: BuildPlanInput): { stored: Map<string, Definition>; desired: Map<string, Definition> } {
  const stored = new Map<string, Definition>();
  for (const pairing of pairings) {
    if (!pairing.stored || pairing.stored.status !== 'ACTIVE') continue;
    const definition = pairing.action === 'unchanged' ? pairing.desired?.definition : input.storedDefinitions.get(pairing.stored.id);
    if (definition) stored.set(pairing.stored.name, definition);
  }
  return { stored, desired: new Map(input.desired.schedules.map(({ definition }) => [definition.name, definition])) };
}

/** The followed rates of both sides. */
function followedRates(sides: ReturnType<typeof sidesByName>, nowMs: number): { before: FollowedRate; after: FollowedRate } {
  return { before: followedRate(sides.stored, nowMs), after: followedRate(sides.desired, nowMs) };
}

/**
 * The runs per day the repository totals miss on one side. The totals tally cron slots only: none
 * for a dependent without a cron, and a dependent's deadlines for one with a cron, though a deadline
 * starts no run. A dependent runs as often as what it follows: its followed rate (by the totals'
 * measure, the window's mean) replaces what the tally counted for it. Peak runs per minute are left
 * to cron slots: a dependent starts when its upstream ends, not on a minute of its own.
 */
function dependentsRunsPerDayCorrection(definitions: ReadonlyMap<string, Definition>, nowMs: number): number {
  const meanPerDay = (def: Definition) => runsInWindow(def, nowMs) / RUNS_PER_DAY_WINDOW_DAYS;
  const rate = followedRate(definitions, nowMs, meanPerDay);
  let correction = 0;
  for (const def of definitions.values()) {
    if (!def.enabled || !def.after || def.after.length === 0) continue;
    correction += (rate(def) ?? 0) - meanPerDay(def);
  }
  return correction;
}

function buildChange(
  pairing: Pairing & { action: ChangeAction },
  input: BuildPlanInput,
  sharedInstantsByName: Map<string, SharedInstants> | undefined,
  policyInForce: PolicyDefinition,
  dependentsByUpstream: Map<string, Definition[]>,
  rates: { before: FollowedRate; after: FollowedRate },
): PlannedChange {
  const { desired, stored } = pairing;
  const before: Definition | null = stored ? storedDefinition(stored, input) : null;
  const after: Definition | null = desired ? desired.definition : null;
  const beforeFigures = before && stored?.status === 'ACTIVE' ? computeFigures(before, input.nowMs) : null;
  const afterFigures = after ? computeFigures(after, input.nowMs) : null;
  const history = stored && pairing.action === 'archive' ? input.history.get(stored.id) ?? { lastRunAt: null, runsLast30Days: 0 } : undefined;
  const name = (after ?? before)!.name;
  const sharedInstants = sharedInstantsByName ? sharedInstantsByName.get(name) ?? [] : undefined;
  const riskInput: RiskInput = {
    action: pairing.action,
    name,
    before,
    after,
    beforeFigures,
    afterFigures,
    policy: input.desired.policy,
    policyInForce,
    nowMs: input.nowMs,
    riskAccepted: desired?.riskAccepted ?? [],
    // By the stored name: a rename keeps what was accepted before it.
    storedRiskAccepted: (stored && input.storedRiskAcceptances?.acceptances[stored.name]) || [],
    locate: (path) => desired?.locateField(path),
    ...(history ? { history } : {}),
    ...(sharedInstants ? { sharedInstants } : {}),
    dependents: dependentsByUpstream.get(name) ?? [],
    followedRunsPerDay: { before: before && stored?.status === 'ACTIVE' ? rates.before(before) : null, after: after ? rates.after(after) : null },
  };
  const findings = assessChange(riskInput);
  const fieldChanges = before && after ? diffFields(before, after) : [];
  return {
    action: pairing.action,
    name: riskInput.name,
    ...(pairing.action === 'rename' && stored ? { previousName: stored.name } : {}),
    scheduleId: stored?.id ?? null,
    beforeVersion: stored?.version ?? null,
    beforeDigest: stored?.digest ?? null,
    afterDigest: desired?.digest ?? null,
    before,
    after,
    changedPaths: fieldChanges.map((c) => c.path),
    fieldChanges,
    headline: headlineFor(riskInput),
    figures: { before: beforeFigures, after: afterFigures },
    findings,
    risk: highestRisk(findings),
    source: desired?.source ?? null,
    ...(history ? { history } : {}),
  };
}

export function buildPlan(input: BuildPlanInput): Plan {
  const { desired, current, nowMs, precomputed = {} } = input;
  const errors: Diagnostic[] = desired.diagnostics.filter((d) => d.severity === 'error');
  const createdAt = new Date(nowMs).toISOString();
  // Invalid manifests are never planned: a schedule that failed to compile would look deleted.
  const pairings = errors.length > 0 ? [] : precomputed.pairings ?? pairSchedules(desired.schedules, current);
  errors.push(...checkMassArchive(pairings.filter((p) => p.action === 'archive').length, current, desired.scheduleDocuments, input.allowMassArchive ?? false));
  const changed = pairings.filter((p): p is Pairing & { action: ChangeAction } => p.action !== 'unchanged');
  const needsHerd = changed.some((p) => p.desired);
  const sharedInstants = needsHerd ? precomputed.desiredHerds ?? findDesiredSharedInstants(desired, nowMs) : undefined;
  const policyInForce = stricterPolicy(policyInForceOf(input), desired.policy);
  const dependentsByUpstream = indexDependents(input);
  const sides = sidesByName(pairings, input);
  const rates = followedRates(sides, nowMs);
  const changes = changed.map((p) => buildChange(p, input, sharedInstants, policyInForce, dependentsByUpstream, rates));
  changes.sort((a, b) => riskRank(a) - riskRank(b) || ACTION_RANK[a.action] - ACTION_RANK[b.action] || a.name.localeCompare(b.name));
  for (const change of changes) {
    for (const finding of change.findings) {
      if (finding.level === 'ERROR') errors.push({ severity: 'error', code: finding.code, message: `${change.name}: ${finding.message}`, ...(finding.location ?? {}), ...(finding.hint ? { hint: finding.hint } : {}) });
    }
  }
  const drift = errors.length > 0 && pairings.length === 0 ? [] : findDrift(current);
  if (precomputed.storedTally && precomputed.storedTally.nowMs !== nowMs) throw new Error('the precomputed stored tally is of another instant than the plan');
  const beforeTally = precomputed.storedTally ?? tallyStored(current, nowMs);
  const withDependents = (totals: RepositoryTotals, definitions: ReadonlyMap<string, Definition>): RepositoryTotals => ({
    ...totals,
    runsPerDay: Math.round((totals.runsPerDay + dependentsRunsPerDayCorrection(definitions, nowMs)) * 100) / 100,
  });
  const before = withDependents(totalsOf(beforeTally), sides.stored);
  // When nothing was planned, nothing changes: the totals after are the totals before. Otherwise
  // they are the manifests' totals, from the stored ones and the schedules that differ.
  const after = errors.length > 0 && pairings.length === 0 ? before : withDependents(totalsOf(tallyDesired(beforeTally, pairings, current)), sides.desired);
  const unchanged = pairings.filter((p) => p.action === 'unchanged').length;
  const count = (action: ChangeAction) => changes.filter((c) => c.action === action).length;
  const summary: PlanSummary = {
    create: count('create'),
    update: count('update'),
    archive: count('archive'),
    restore: count('restore'),
    rename: count('rename'),
    unchanged,
    drift: drift.length,
    runsPerDayBefore: before.runsPerDay,
    runsPerDayAfter: after.runsPerDay,
    peakRunsPerMinuteBefore: before.peakRunsPerMinute,
    peakRunsPerMinuteAfter: after.peakRunsPerMinute,
    highestRisk: 'NONE',
    highestRiskWithoutAcceptances: 'NONE',
    errors: errors.length,
  };
  const policyChange = errors.length > 0 ? null : diffPolicy(input);
  const riskAcceptanceChange = errors.length > 0 ? null : withDormantAcceptances(diffRiskAcceptances(input), changes);
  const allFindings = [...changes.flatMap((c) => c.findings), ...(policyChange?.findings ?? []), ...(riskAcceptanceChange?.findings ?? [])];
  summary.highestRisk = highestRisk(allFindings);
  summary.highestRiskWithoutAcceptances = highestRisk(allFindings, { ignoreAcceptances: true });
  const policyInForceKind = describePolicyInForce(input);
  const content: Omit<Plan, 'planId' | 'createdAt'> = { formatVersion: PLAN_FORMAT_VERSION, against: input.against, changes, policyChange, policyInForce: policyInForceKind, riskAcceptanceChange, drift, unchanged, summary, errors };
  const { formatVersion: _version, ...rest } = content;
  return { formatVersion: PLAN_FORMAT_VERSION, planId: computePlanId(content), createdAt, ...rest };
}

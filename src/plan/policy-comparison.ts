/**
 * Which way a Policy change moves each limit (SPEC §5 trust model: "loosening the Policy is itself
 * HIGH"). A pull request that carries its own Policy must not set the thresholds it is judged by,
 * so every field is classified here, by hand: a field missing from this table fails the
 * exhaustiveness test in test/plan/policy-comparison.test.ts. Pure.
 */
import { acceptanceMaxDaysOf, DEFAULT_ACCEPTANCE_MAX_DAYS, DEFAULT_RETENTION_KEEP_LAST, type PolicyDefinition, type Priority } from '../compile/definition.js';
import { formatDurationMs } from '../compile/duration.js';
import type { SourceLocation } from '../compile/definition.js';
import type { AlertTargetDefinition } from '../compile/definition.js';
import type { Finding } from './plan-types.js';

export type StoredPolicyValue = Omit<PolicyDefinition, 'source'>;

/** One Policy limit that moved, in manifest terms (`minInterval 1m → 1s`). */
export interface PolicyFieldMove {
  /** Manifest path: `minInterval`, `risk.runsPerDayIncreaseHigh`, `queues.reports.concurrency`… */
  field: string;
  before: string;
  after: string;
  direction: 'loosened' | 'tightened';
  /** What the looser value lets through, for a reviewer who does not know the field. */
  effect: string;
}

/** CRITICAL is claimed first: a higher backfill priority lets backfills crowd out scheduled runs. */
const PRIORITY_RANK: Record<Priority, number> = { LOW: 0, NORMAL: 1, HIGH: 2, CRITICAL: 3 };

interface ScalarRule {
  field: string;
  read: (policy: StoredPolicyValue) => number;
  format: (value: number) => string;
  /** `higher`: a larger value relaxes the limit. */
  looserWhen: 'higher' | 'lower';
  effect: string;
}

const count = (value: number) => String(value);

/**
 * Every scalar field of the Policy and the direction that relaxes it. misfireThreshold: a larger
 * one runs late slots as if on time and notices missed starts later, so larger is looser.
 */
const SCALAR_RULES: ScalarRule[] = [
  { field: 'minInterval', read: (p) => p.minIntervalMs, format: formatDurationMs, looserWhen: 'lower', effect: 'schedules may fire more often' },
  { field: 'maxRunsPerDay', read: (p) => p.maxRunsPerDay, format: count, looserWhen: 'higher', effect: 'schedules may run more times a day' },
  { field: 'risk.runsPerDayIncreaseHigh', read: (p) => p.risk.runsPerDayIncreaseHigh, format: count, looserWhen: 'higher', effect: 'a larger jump in runs/day passes without a HIGH finding' },
  { field: 'risk.acceptanceMaxDays', read: acceptanceMaxDaysOf, format: (days) => `${days} days`, looserWhen: 'higher', effect: 'risk acceptances may last longer' },
  { field: 'misfireThreshold', read: (p) => p.misfireThresholdMs, format: formatDurationMs, looserWhen: 'higher', effect: 'late slots count as on time, missed starts are noticed later' },
  { field: 'backfill.concurrency', read: (p) => p.backfill.concurrency, format: count, looserWhen: 'higher', effect: 'more backfill runs execute at once' },
  // A shorter retention is looser: the runner deletes history for good once it is applied.
  { field: 'retention.runs', read: (p) => p.retention?.runsMs ?? Number.POSITIVE_INFINITY, format: (ms) => (Number.isFinite(ms) ? formatDurationMs(ms) : 'forever'), looserWhen: 'lower', effect: 'older runs of every schedule are deleted for good' },
  { field: 'retention.keepLast', read: (p) => p.retention?.keepLast ?? DEFAULT_RETENTION_KEEP_LAST, format: count, looserWhen: 'lower', effect: 'fewer of each schedule\'s latest runs are always kept' },
  { field: 'backfill.priority', read: (p) => PRIORITY_RANK[p.backfill.priority], format: (rank) => Object.keys(PRIORITY_RANK)[rank]!, looserWhen: 'higher', effect: 'backfill runs are claimed ahead of more scheduled runs' },
];

/** The Policy fields the rules above and the queue comparison cover (for the exhaustiveness test). */
export const CLASSIFIED_POLICY_FIELDS = ['minIntervalMs', 'maxRunsPerDay', 'risk.runsPerDayIncreaseHigh', 'risk.acceptanceMaxDays', 'misfireThresholdMs', 'backfill.concurrency', 'backfill.priority', 'queues', 'alerts', 'retention.runsMs', 'retention.keepLast'];

function compareScalar(rule: ScalarRule, before: StoredPolicyValue, after: StoredPolicyValue): PolicyFieldMove[] {
  const [from, to] = [rule.read(before), rule.read(after)];
  if (from === to) return [];
  const looser = rule.looserWhen === 'higher' ? to > from : to < from;
  return [{ field: rule.field, before: rule.format(from), after: rule.format(to), direction: looser ? 'loosened' : 'tightened', effect: rule.effect }];
}

/**
 * Queues: a raised concurrency, and a new queue (capacity that did not exist: more runs at once
 * across the repository), are looser; a lowered or removed one is tighter (schedules of a removed
 * queue fail validation).
 */
function compareQueues(before: StoredPolicyValue, after: StoredPolicyValue): PolicyFieldMove[] {
  const names = [...new Set([...Object.keys(before.queues), ...Object.keys(after.queues)])].sort();
  return names.flatMap((name): PolicyFieldMove[] => {
    const [from, to] = [before.queues[name]?.concurrency, after.queues[name]?.concurrency];
    if (from === to) return [];
    const field = `queues.${name}.concurrency`;
    const show = (value: number | undefined) => (value === undefined ? '(no queue)' : String(value));
    const looser = from === undefined || (to !== undefined && to > from);
    return [{ field, before: show(from), after: show(to), direction: looser ? 'loosened' : 'tightened', effect: 'more runs of this queue execute at once' }];
  });
}

/** Every limit that differs between the Policy in force and the proposed one, loosened first. */
export function comparePolicies(inForce: StoredPolicyValue, proposed: StoredPolicyValue): PolicyFieldMove[] {
  const moves = [...SCALAR_RULES.flatMap((rule) => compareScalar(rule, inForce, proposed)), ...compareQueues(inForce, proposed)];
  return moves.sort((a, b) => Number(a.direction === 'tightened') - Number(b.direction === 'tightened'));
}

/**
 * The Policy a change is judged by: per limit, the stricter of the one in force and the proposed
 * one. A change cannot relax the rules it is judged by, and a tightening it brings counts at once.
 */
export function stricterPolicy(inForce: PolicyDefinition, proposed: PolicyDefinition): PolicyDefinition {
  const acceptanceMaxDays = Math.min(acceptanceMaxDaysOf(inForce), acceptanceMaxDaysOf(proposed));
  return {
    ...proposed,
    minIntervalMs: Math.max(inForce.minIntervalMs, proposed.minIntervalMs),
    maxRunsPerDay: Math.min(inForce.maxRunsPerDay, proposed.maxRunsPerDay),
    risk: { runsPerDayIncreaseHigh: Math.min(inForce.risk.runsPerDayIncreaseHigh, proposed.risk.runsPerDayIncreaseHigh), ...(acceptanceMaxDays === DEFAULT_ACCEPTANCE_MAX_DAYS ? {} : { acceptanceMaxDays }) },
  };
}

/**
 * One finding per moved limit: loosened is HIGH (CF701), since the change would otherwise set the
 * thresholds it is judged by; tightened is LOW (CF702), shown so nothing about the Policy is silent.
 */
export function findingsForPolicyMoves(moves: PolicyFieldMove[], location: SourceLocation | null): Finding[] {
  const at = location ? { location } : {};
  return moves.map((move) =>
    move.direction === 'loosened'
      ? { code: 'CF701', level: 'HIGH', message: `Policy loosened: ${move.field} ${move.before} → ${move.after} (${move.effect})`, hint: 'a Policy change is reviewed on its own: keep the limit, or loosen it in a separate change a second person accepts', ...at }
      : { code: 'CF702', level: 'LOW', message: `Policy tightened: ${move.field} ${move.before} → ${move.after}`, hint: 'existing schedules over the new limit fail validation: check them', ...at },
  );
}

/** One alert target that was removed, added or now delivers elsewhere (by target name). */
export interface AlertTargetMove {
  name: string;
  change: 'removed' | 'redirected' | 'added';
  /** `webhook https://…` or `slack fromEnv SLACK_URL`: a literal url is shown, a fromEnv one by its variable. */
  before: string | null;
  after: string | null;
}

function describeTarget(target: AlertTargetDefinition): string {
  return `${target.type} ${typeof target.url === 'string' ? target.url : `fromEnv ${target.url.fromEnv}`}`;
}

/**
 * Alert targets by name. A changed url or type is a redirect: the same variable name read from
 * another environment is not visible here, but a new variable name is.
 */
export function compareAlertTargets(inForce: StoredPolicyValue, proposed: StoredPolicyValue): AlertTargetMove[] {
  const before = new Map((inForce.alerts?.targets ?? []).map((t) => [t.name, t]));
  const after = new Map((proposed.alerts?.targets ?? []).map((t) => [t.name, t]));
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  return names.flatMap((name): AlertTargetMove[] => {
    const [from, to] = [before.get(name), after.get(name)];
    const [shownFrom, shownTo] = [from ? describeTarget(from) : null, to ? describeTarget(to) : null];
    if (shownFrom === shownTo) return [];
    const change = !to ? 'removed' : !from ? 'added' : 'redirected';
    return [{ name, change, before: shownFrom, after: shownTo }];
  });
}

/**
 * A removed or redirected target is HIGH (CF704): whoever was paged stops hearing about failures,
 * and with a new url the failure reports (schedule names, errors) go to a receiver the author
 * chose; a pull request can silence the on-call before it breaks a job. An added target is
 * MEDIUM (CF705): nobody loses their alerts, but failure reports leave for a new receiver.
 */
export function findingsForAlertMoves(moves: AlertTargetMove[], location: SourceLocation | null): Finding[] {
  const at = location ? { location } : {};
  return moves.map((move): Finding => {
    if (move.change === 'added') {
      return { code: 'CF705', level: 'MEDIUM', message: `alert target added: ${move.name} (${move.after})`, hint: 'failure reports of every schedule will be sent there: check who receives them', ...at };
    }
    const what = move.change === 'removed' ? `alert target removed: ${move.name} (${move.before})` : `alert target redirected: ${move.name} ${move.before} → ${move.after}`;
    return { code: 'CF704', level: 'HIGH', message: what, hint: 'alerts for failed and missed runs stop reaching their receiver: have its owner confirm the change', ...at };
  });
}

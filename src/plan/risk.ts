/**
 * Risk findings and the headline of one planned change (SPEC §5). Pure: figures, history and shared
 * instants are computed by the caller; time is `nowMs`. Codes are public: never reuse or renumber.
 */
import { describeQueueTarget } from '../compile/queue-job.js';
import { effectiveRetention, executableJobsOf, type AllowedFailures, type Definition, type EnvValue, type JobDefinition, type PolicyDefinition, type RetentionDefinition, type RiskAcceptance, type SourceLocation } from '../compile/definition.js';
import { formatDurationMs } from '../compile/duration.js';
import { canonicalJson } from '../compile/digest.js';
import { MS_PER_HOUR, MS_PER_MINUTE } from '../time/civil.js';
import { findDstExposure, type DstExposure } from '../time/dst-exposure.js';
import { nextSlots } from '../time/slots.js';
import { calendarForDefinition } from '../time/timing-cache.js';
import { computeFigures, countCatchUpRuns, formatLocalSlot } from './figures.js';
import { changedKeys } from './field-names.js';
import { diffFields } from './field-diff.js';
import { assessJob, JobRiskCodes } from './job-risk.js';
import { isAcceptedForGate, type ChangeAction, type Finding, type FindingLevel, type RiskLevel, type ScheduleFigures } from './plan-types.js';

export interface RiskInput {
  action: ChangeAction;
  name: string;
  before: Definition | null;
  after: Definition | null;
  beforeFigures: ScheduleFigures | null;
  afterFigures: ScheduleFigures | null;
  /** The Policy this change proposes (in force after apply): its limits are ERRORs. */
  policy: PolicyDefinition;
  /**
   * The Policy the change is judged by: per limit the stricter of the stored one and `policy`
   * (stricterPolicy), so a change cannot loosen its own thresholds. Absent: `policy`.
   */
  policyInForce?: PolicyDefinition;
  nowMs: number;
  riskAccepted: RiskAcceptance[];
  /**
   * The acceptances stored for this schedule (the database's, or the base ref's manifest): an
   * acceptance none of them covers was added in this change (absent: none stored).
   */
  storedRiskAccepted?: RiskAcceptance[];
  /** Where a Definition path (`cron`, `job.env.TOKEN`, `timeoutMs`…) is in the manifest. */
  locate: (path: string) => SourceLocation | undefined;
  history?: { lastRunAt: string | null; runsLast30Days: number };
  /**
   * The instants of `findSharedInstants` (over all desired schedules) whose names include this
   * schedule, in its order, each with its number of schedules (this one included): the caller
   * indexes them by name once for all changes.
   */
  sharedInstants?: Array<{ instant: string; size: number }>;
  /** The desired schedules whose `spec.after` names this one (build-plan indexes them once). */
  dependents?: Array<Pick<Definition, 'name' | 'criticality' | 'enabled'>>;
  /**
   * Peak runs/day of a side that follows other schedules (`spec.after`): its upstreams' rate, not
   * its own cron's (whose slots are only deadlines); null on a side without `spec.after`.
   */
  followedRunsPerDay?: { before: number | null; after: number | null };
}

export const RiskCodes = {
  CF101: { level: 'HIGH', meaning: 'peak runs/day grows by at least the Policy ratio risk.runsPerDayIncreaseHigh' },
  CF102: { level: 'HIGH', meaning: 'a new schedule fires more often than once a minute' },
  CF103: { level: 'ERROR', meaning: 'peak runs/day is over the Policy maxRunsPerDay' },
  CF104: { level: 'ERROR', meaning: 'the shortest interval is under the Policy minInterval' },
  CF105: { level: 'MEDIUM', meaning: 'thundering herd: fires in the same second as many other schedules' },
  CF106: { level: 'MEDIUM', meaning: 'peak runs/day at least doubles (below the HIGH ratio)' },
  CF201: { level: 'LOW|MEDIUM', meaning: 'archiving a schedule (MEDIUM when it ran in the last 30 days)' },
  CF202: { level: 'HIGH', meaning: 'archiving or disabling a CRITICAL or HIGH criticality schedule' },
  CF203: { level: 'MEDIUM', meaning: 'disabling a schedule' },
  CF206: { level: 'MEDIUM|HIGH', meaning: 'archiving or disabling an upstream that still has dependents (HIGH when one is CRITICAL or HIGH)' },
  CF207: { level: 'MEDIUM|HIGH', meaning: "retention shortened: the runner deletes history (HIGH under 30 days or on a CRITICAL schedule)" },
  CF208: { level: 'MEDIUM|HIGH', meaning: 'enabling a disabled schedule: its runs (and its dependents\' runs) start again (HIGH at 100 runs/day or more)' },
  CF209: { level: 'MEDIUM', meaning: 'criticality lowered: alerts come later or not at all, and later changes are judged at the lower level' },
  CF301: { level: 'MEDIUM', meaning: 'timezone change: runs move to other UTC instants' },
  CF302: { level: 'LOW', meaning: 'DST transitions in the next 12 months touch a fixed-time schedule' },
  CF303: { level: 'MEDIUM', meaning: 'cron change moves the next slots' },
  CF304: { level: 'MEDIUM', meaning: 'the schedules it runs after changed (spec.after added, changed or removed): it runs at other times' },
  CF401: { level: 'LOW', meaning: 'new secret reference: runners must provide the environment variable' },
  CF402: { level: 'HIGH', meaning: 'a secret reference was replaced by a literal value' },
  CF501: { level: 'MEDIUM|HIGH', meaning: 'timeout ≥ shortest interval: overlap is certain for long runs (HIGH with overlap ALLOW)' },
  CF502: { level: 'LOW|MEDIUM|HIGH', meaning: 'catch-up blast radius of a 1h and a 24h outage (MEDIUM ≥ 24 runs, HIGH ≥ 100)' },
  CF503: { level: 'HIGH', meaning: 'approval removed: runs no longer wait for a human' },
  CF504: { level: 'MEDIUM', meaning: 'job target changed (command, script, url or method)' },
  CF505: { level: 'LOW', meaning: 'a non-idempotent http method is retried' },
  CF514: { level: 'HIGH', meaning: 'safety.maxAffected removed or raised: runs change more records without a human looking' },
  CF517: { level: 'MEDIUM', meaning: 'allowedFailures added or raised: runs with failed items end PARTIAL_SUCCESS, without a failure or an alert' },
  CF519: { level: 'MEDIUM', meaning: 'runs repeat or overlap more freely: retry.maxAttempts raised, overlap to ALLOW, or onStall to retry' },
  ...JobRiskCodes,
  CF701: { level: 'HIGH', meaning: 'the change loosens a Policy limit (before → after)' },
  CF702: { level: 'LOW', meaning: 'the change tightens a Policy limit (before → after)' },
  CF703: { level: 'HIGH', meaning: 'a schedule is over a limit of the Policy in force, allowed only by the Policy loosened in this change' },
  CF704: { level: 'HIGH', meaning: 'an alert target is removed or redirected (another url, variable or type)' },
  CF705: { level: 'MEDIUM', meaning: 'an alert target is added: failure reports go to a new receiver' },
  CF706: { level: 'MEDIUM', meaning: 'a risk acceptance added that accepts no finding of the plan: stored, it would waive a later one of that code' },
} as const;
export type RiskCode = keyof typeof RiskCodes;

type AddFinding = (code: RiskCode, level: FindingLevel, message: string, hint: string, paths?: string[]) => void;

const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const formatCount = (n: number): string => numberFormat.format(n);
const plural = (n: number, word: string): string => `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;

/** `2026-06-02T10:30Z`, seconds only when they are not zero. */
function formatUtc(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.slice(17, 19) === '00' ? `${iso.slice(0, 16)}Z` : `${iso.slice(0, 19)}Z`;
}

const formatUtcClock = (ms: number): string => formatUtc(ms).slice(11);

/** `2026-06-02 19:30` (with the date) or `19:30`, seconds only when they are not zero: the zone's wall clock, cut from formatLocalSlot's `2026-06-02 19:30:00 +09:00`. */
function formatLocal(ms: number, zone: string, withDate: boolean): string {
  const slot = formatLocalSlot(ms, zone);
  const seconds = slot.slice(17, 19);
  return `${withDate ? `${slot.slice(0, 10)} ` : ''}${slot.slice(11, 16)}${seconds === '00' ? '' : `:${seconds}`}`;
}

/** Definition fields that differ, for deciding which findings a change re-raises. */
function differs(a: Definition, b: Definition, keys: Array<keyof Definition>): boolean {
  return keys.some((key) => canonicalJson(a[key] ?? null) !== canonicalJson(b[key] ?? null));
}

/** New or restored schedules, and updates touching `keys`, are (re)assessed; others stay quiet. */
function isRelevant(input: RiskInput, keys: Array<keyof Definition>): boolean {
  return !input.before || input.action === 'restore' || (!!input.after && differs(input.before, input.after, keys));
}

const figuresOf = (def: Definition, given: ScheduleFigures | null, nowMs: number) => given ?? computeFigures(def, nowMs);

const firstSlot = (def: Definition, nowMs: number): number | undefined => nextSlots(calendarForDefinition(def), nowMs, 1)[0];

/** Enabling a schedule that fires this often a day (or more) is HIGH, like a catch-up of 100 runs (CF502). */
const ENABLING_HIGH_RUNS_PER_DAY = 100;

function checkFrequency(input: RiskInput, add: AddFinding): void {
  const { before, after, policy, nowMs } = input;
  const inForce = input.policyInForce ?? policy;
  if (!after) return;
  const figures = figuresOf(after, input.afterFigures, nowMs);
  // A dependent runs once per upstream SUCCESS: its upstreams' frequency is its own.
  const peak = input.followedRunsPerDay?.after ?? figures.runsPerDayPeak;
  if (before && before.enabled && after.enabled) {
    const previous = input.followedRunsPerDay?.before ?? figuresOf(before, input.beforeFigures, nowMs).runsPerDayPeak;
    const ratio = previous === 0 ? Number.POSITIVE_INFINITY : peak / previous;
    // A dependent of a single upstream runs once per upstream SUCCESS: it speeds up as much.
    const following = (input.dependents ?? []).filter((d) => d.enabled).map((d) => d.name);
    const alsoDependents = following.length > 0 ? `; its dependents run after it: ${following.join(', ')}` : '';
    const message = `runs/day ${formatCount(previous)} → ${formatCount(peak)} (${previous === 0 ? 'none before' : `×${formatCount(ratio)}`})${alsoDependents}`;
    if (peak > previous && ratio >= inForce.risk.runsPerDayIncreaseHigh) add('CF101', 'HIGH', message, `confirm the new frequency is intended (a ×${inForce.risk.runsPerDayIncreaseHigh} increase is HIGH risk by Policy); accept it with metadata.riskAccepted`, ['cron']);
    else if (peak > previous && ratio >= 2) add('CF106', 'MEDIUM', message, 'confirm the job and its downstream can absorb the extra runs', ['cron']);
  }
  // A disabled schedule runs nothing: enabling it starts every run again, and its dependents'.
  if (before && !before.enabled && after.enabled) {
    const resumed = (input.dependents ?? []).filter((d) => d.enabled).map((d) => d.name);
    const also = resumed.length > 0 ? `; its dependents run again too: ${resumed.join(', ')}` : '';
    add('CF208', peak >= ENABLING_HIGH_RUNS_PER_DAY ? 'HIGH' : 'MEDIUM', `enabled again: runs/day 0 → ${formatCount(peak)}${also}`, 'confirm why it was disabled no longer holds, and that the job is safe to run at this rate', ['enabled']);
  }
  if (input.action === 'create' && figures.minIntervalMs < MS_PER_MINUTE) {
    add('CF102', 'HIGH', `new schedule fires more often than once a minute: shortest interval ${formatDurationMs(figures.minIntervalMs)}, up to ${figures.peakRunsPerMinute} runs/minute, ${formatCount(peak)} runs/day`, 'use a 5-field (minute-level) cron unless sub-minute runs are really needed', ['cron']);
  }
  if (peak > policy.maxRunsPerDay) add('CF103', 'ERROR', `peak runs/day ${formatCount(peak)} is over the Policy maximum ${formatCount(policy.maxRunsPerDay)}`, 'lower the frequency, or raise maxRunsPerDay in the Policy', ['cron']);
  if (figures.minIntervalMs < policy.minIntervalMs) add('CF104', 'ERROR', `shortest interval ${formatDurationMs(figures.minIntervalMs)} is under the Policy minimum ${formatDurationMs(policy.minIntervalMs)}`, 'space the slots further apart, or lower minInterval in the Policy', ['cron']);
  // Within the proposed Policy (so apply is consistent) but outside the one in force: only this
  // change's own loosening lets it through, which a reviewer must see as such.
  if (peak <= policy.maxRunsPerDay && peak > inForce.maxRunsPerDay) add('CF703', 'HIGH', `peak runs/day ${formatCount(peak)} is over the maxRunsPerDay in force (${formatCount(inForce.maxRunsPerDay)}): only this change's Policy (${formatCount(policy.maxRunsPerDay)}) allows it`, 'lower the frequency, or raise maxRunsPerDay in a reviewed Policy change first', ['cron']);
  if (figures.minIntervalMs >= policy.minIntervalMs && figures.minIntervalMs < inForce.minIntervalMs) add('CF703', 'HIGH', `shortest interval ${formatDurationMs(figures.minIntervalMs)} is under the minInterval in force (${formatDurationMs(inForce.minIntervalMs)}): only this change's Policy (${formatDurationMs(policy.minIntervalMs)}) allows it`, 'space the slots further apart, or lower minInterval in a reviewed Policy change first', ['cron']);
  const herds = input.sharedInstants ?? [];
  if (after.jitterMs === 0 && herds.length > 0) {
    const largest = herds.reduce((best, herd) => (herd.size > best.size ? herd : best));
    const more = herds.length > 1 ? ` (${plural(herds.length, 'such instant')} in the next 24h)` : '';
    add('CF105', 'MEDIUM', `fires at ${formatUtc(Date.parse(largest.instant))} in the same second as ${plural(largest.size - 1, 'other schedule')}${more}`, 'set spec.jitter (e.g. 30s) so starts are spread', ['jitterMs', 'cron']);
  }
}

function describeHistory(history: RiskInput['history']): string {
  if (!history) return 'run history unknown';
  if (!history.lastRunAt) return 'never ran';
  const last = `last run ${formatUtc(Date.parse(history.lastRunAt))}`;
  return history.runsLast30Days > 0 ? `${last}, ${plural(history.runsLast30Days, 'run')} in 30 days` : `${last}, no runs in 30 days`;
}

const CRITICALITY_RANK: Record<Definition['criticality'], number> = { CRITICAL: 0, HIGH: 1, MEDIUM: 2, LOW: 3 };

/**
 * A lower criticality alerts later and less loudly, and lowers what later changes are judged by:
 * CRITICAL → LOW now makes disabling it next week a MEDIUM finding instead of CF202's HIGH.
 */
function checkCriticality(input: RiskInput, add: AddFinding): void {
  const { before, after } = input;
  if (!before || !after || CRITICALITY_RANK[after.criticality] <= CRITICALITY_RANK[before.criticality]) return;
  add('CF209', 'MEDIUM', `criticality lowered ${before.criticality} → ${after.criticality}: its failures and missed starts alert later or not at all, and later changes to it are judged as ${after.criticality}`, 'keep the criticality unless the job really matters less; lower it in a change of its own', ['criticality']);
}

function checkArchive(input: RiskInput, add: AddFinding): void {
  const { action, before, after } = input;
  if (!before) return;
  const archiving = action === 'archive';
  const disabling = before.enabled && after?.enabled === false;
  if (archiving) {
    const ranRecently = (input.history?.runsLast30Days ?? 0) > 0;
    add('CF201', ranRecently ? 'MEDIUM' : 'LOW', `archiving stops all runs: ${describeHistory(input.history)}`, 'intended? nothing to do; otherwise restore the manifest file (history is kept either way)');
  }
  if (!archiving && !disabling) return;
  const critical = [before, after].find((def) => def?.criticality === 'CRITICAL' || def?.criticality === 'HIGH');
  if (critical) add('CF202', 'HIGH', `${archiving ? 'archiving' : 'disabling'} a ${critical.criticality} criticality schedule: its runs and alerts stop`, 'make sure its work is done elsewhere, or use `cronform pause --until` for a temporary stop', ['enabled', 'criticality']);
  else if (disabling) add('CF203', 'MEDIUM', 'disabling stops new runs until the schedule is enabled again (history kept)', 'for a temporary stop prefer `cronform pause --until`', ['enabled']);
}

/**
 * A dependent runs only after its upstream succeeds: stopping the upstream silently stops them too,
 * which the reviewer of the upstream's change may not know about.
 */
function checkDependents(input: RiskInput, add: AddFinding): void {
  const { before, after } = input;
  const stopping = input.action === 'archive' || (before?.enabled === true && after?.enabled === false);
  const dependents = (input.dependents ?? []).filter((d) => d.enabled);
  if (!stopping || dependents.length === 0) return;
  const critical = dependents.some((d) => d.criticality === 'CRITICAL' || d.criticality === 'HIGH');
  const names = dependents.map((d) => `${d.name} (${d.criticality})`).join(', ');
  add('CF206', critical ? 'HIGH' : 'MEDIUM', `${input.action === 'archive' ? 'archiving' : 'disabling'} ${input.name} stops its dependents too: ${names} run only after it succeeds`, 'point their spec.after at another upstream, give them a cron of their own, or stop them in the same change', ['enabled']);
}

/** Under this, a shortened retention is HIGH: a month of history is what incident reviews reach back for. */
const SHORT_RETENTION_MS = 30 * 86_400_000;

const describeRetention = (retention: RetentionDefinition | null) => (retention ? `${formatDurationMs(retention.runsMs)} (latest ${retention.keepLast} always kept)` : 'forever');

/**
 * A schedule's own retention made shorter (runs or keepLast lower, or set where runs were kept
 * forever): once applied, the runner deletes the history beyond it for good. A Policy-wide
 * change is judged with the Policy (CF701).
 */
function checkRetentionChange(input: RiskInput, add: AddFinding): void {
  const { before, after, policy } = input;
  if (!before || !after) return;
  const [from, to] = [effectiveRetention(policy.retention, before.retention), effectiveRetention(policy.retention, after.retention)];
  if (!to) return;
  const shorter = !from || to.runsMs < from.runsMs || to.keepLast < from.keepLast;
  if (!shorter) return;
  const high = to.runsMs < SHORT_RETENTION_MS || after.criticality === 'CRITICAL';
  add('CF207', high ? 'HIGH' : 'MEDIUM', `retention shortened: runs kept ${describeRetention(from)} → ${describeRetention(to)}; older runs are deleted for good (daily counts are kept for report)`, 'keep the longer retention unless the history is really not needed; export what must be kept first', ['retention.runsMs', 'retention.keepLast', 'retention']);
}

function describeExposure(exposure: DstExposure): string {
  const example = exposure.examples[0];
  const runsAt = example ? ` (${example.local.slice(0, 5)} local → ${example.utc.map((iso) => formatUtc(Date.parse(iso))).join(' and ') || 'no run'})` : '';
  return `${formatUtc(Date.parse(exposure.transitionAt))}: ${exposure.description}${runsAt}`;
}

function checkTime(input: RiskInput, add: AddFinding): void {
  const { before, after, nowMs } = input;
  if (!after) return;
  if (before && before.timezone !== after.timezone) {
    const describe = (def: Definition) => {
      const slot = firstSlot(def, nowMs);
      return slot === undefined ? `no slot (${def.timezone})` : `${formatLocal(slot, def.timezone, false)} ${def.timezone} = ${formatUtcClock(slot)}`;
    };
    add('CF301', 'MEDIUM', `timezone change moves the next slot: ${describe(before)} → ${describe(after)}`, 'confirm the job should follow the new zone; consumers see runs at other UTC times', ['timezone']);
  }
  const calendar = calendarForDefinition(after);
  if (!calendar.rules.cron.intervalLike && isRelevant(input, ['cron', 'timezone', 'dst', 'dayMatch'])) {
    const exposures = findDstExposure(calendar, nowMs);
    if (exposures.length > 0) add('CF302', 'LOW', `DST touches this schedule ${plural(exposures.length, 'time')} in the next 12 months: ${exposures.map(describeExposure).join('; ')}`, 'check spec.dst (gap: shift|skip, fold: first|second|both), or pick a local time outside the transition hours', ['dst', 'cron']);
  }
  if (before && differs(before, after, ['after'])) {
    const upstreams = (def: Definition) => (def.after ?? []).map((a) => a.schedule).join(' + ');
    const [was, now] = [upstreams(before), upstreams(after)];
    const message = now === '' ? `no longer runs after ${was}: runs on its own cron` : `now runs after ${now} (${was === '' ? 'was on its own cron' : `was after ${was}`})`;
    add('CF304', 'MEDIUM', message, 'confirm it should run when the new upstreams succeed, as often as they do', ['after']);
  }
  if (before && differs(before, after, ['cron', 'dayMatch'])) {
    const slotsBefore = nextSlots(calendarForDefinition(before), nowMs, 3).map(formatUtc);
    const slotsAfter = nextSlots(calendar, nowMs, 3).map(formatUtc);
    // A dependent without a cron has no slots of its own; a cron that matches no date has none either.
    const describe = (def: Definition, slots: string[]) =>
      def.cron === null ? `none of its own (runs after ${(def.after ?? []).map((a) => a.schedule).join(' + ')})` : slots.length === 0 ? 'none in the next year' : slots.join(', ');
    if (slotsBefore.join() !== slotsAfter.join() || before.cron !== after.cron && (before.cron === null || after.cron === null)) {
      add('CF303', 'MEDIUM', `cron change moves the next slots: ${describe(before, slotsBefore)} → ${describe(after, slotsAfter)}`, 'confirm the new times against whatever depends on the old ones', ['cron']);
    }
  }
}

/**
 * Env and header values by a key that names the step (`fetch/env.TOKEN`), so a reordered
 * workflow compares each step with itself, and the Definition path that locates the value.
 */
function jobValues(def: Definition | null): Map<string, { path: string; value: EnvValue }> {
  if (!def) return new Map();
  return new Map(
    executableJobsOf(def.job).flatMap(({ path, stepName, job }) => {
      // A queue job has no env or headers: nothing of the runner's environment reaches a queue row.
      if (job.type === 'queue') return [];
      const [field, values] = job.type === 'command' ? ['env', job.env] : ['headers', job.headers];
      return Object.entries(values).map(([key, value]): [string, { path: string; value: EnvValue }] => [`${stepName ?? ''}/${field}.${key}`, { path: `${path}.${field}.${key}`, value }]);
    }),
  );
}

/** Only names of environment variables are ever printed, never values. */
function checkSecrets(input: RiskInput, add: AddFinding): void {
  const beforeValues = jobValues(input.before);
  const knownVariables = new Set([...beforeValues.values()].flatMap(({ value }) => (typeof value === 'string' ? [] : [value.fromEnv])));
  for (const [key, { path, value }] of jobValues(input.after)) {
    const previous = beforeValues.get(key)?.value;
    if (typeof value !== 'string' && !knownVariables.has(value.fromEnv)) {
      add('CF401', 'LOW', `${path} reads a secret from environment variable ${value.fromEnv}`, `every runner must have ${value.fromEnv} set in its environment`, [path]);
    } else if (typeof value === 'string' && previous !== undefined && typeof previous !== 'string') {
      add('CF402', 'HIGH', `${path} was read from environment variable ${previous.fromEnv} and is now a literal value (not shown)`, `restore { fromEnv: ${previous.fromEnv} }: a literal is stored in the database and shown to reviewers`, [path]);
    }
  }
}

const OVERLAP_EFFECT: Record<Definition['overlap'], string> = {
  SKIP_NEW: 'overlap SKIP_NEW skips the slots that fall during a run',
  QUEUE_NEW: 'overlap QUEUE_NEW queues them as PENDING and the queue can keep growing',
  ALLOW: 'overlap ALLOW runs them concurrently',
};

function checkExecution(input: RiskInput, add: AddFinding): void {
  const { before, after, nowMs } = input;
  if (!after) return;
  const intervalMs = figuresOf(after, input.afterFigures, nowMs).minIntervalMs;
  if (after.timeoutMs >= intervalMs && isRelevant(input, ['timeoutMs', 'cron', 'dayMatch', 'overlap'])) {
    add('CF501', after.overlap === 'ALLOW' ? 'HIGH' : 'MEDIUM', `timeout ${formatDurationMs(after.timeoutMs)} ≥ shortest interval ${formatDurationMs(intervalMs)}: a run that uses its timeout overlaps the next slot; ${OVERLAP_EFFECT[after.overlap]}`, `set spec.timeout below ${formatDurationMs(intervalMs)}, or space the slots further apart`, ['timeoutMs', 'overlap']);
  }
  const next = firstSlot(after, nowMs);
  if (next !== undefined && isRelevant(input, ['cron', 'dayMatch', 'misfire', 'maxCatchUp', 'gracePeriodMs'])) {
    // The outage ends just after the next slot, so it always misses at least one.
    const hour = countCatchUpRuns(after, next + 1, MS_PER_HOUR);
    const day = countCatchUpRuns(after, next + 1, 24 * MS_PER_HOUR);
    const level: FindingLevel = day.runs >= 100 ? 'HIGH' : day.runs >= 24 ? 'MEDIUM' : 'LOW';
    const waiting = after.misfire === 'MANUAL' ? ' waiting for approval' : '';
    const cap = after.misfire === 'CATCH_UP_ALL' ? `, maxCatchUp ${after.maxCatchUp}` : '';
    add('CF502', level, `a 1h outage leads to ${plural(hour.runs, 'run')}${waiting}, a 24h outage to ${plural(day.runs, 'run')}${waiting} (misfire ${after.misfire}${cap}, gracePeriod ${formatDurationMs(after.gracePeriodMs)}; ${formatCount(hour.slots)} and ${formatCount(day.slots)} slots missed)`, level === 'LOW' ? 'nothing to do unless the job cannot absorb these runs' : 'lower spec.maxCatchUp or spec.gracePeriod, or use misfire: RUN_ONCE', ['misfire', 'maxCatchUp', 'gracePeriodMs']);
  }
  if (before?.approval === 'required' && after.approval === 'none') add('CF503', 'HIGH', 'approval removed: runs start without waiting for a human (MANUAL_REQUIRED)', 'keep approval: required unless the job is safe to run unattended', ['approval']);
  // SPEC §8a: the threshold is what stops a destructive run for a human; loosening it is a change to what may run unattended.
  const beforeMax = before?.safety?.maxAffected;
  const afterMax = after.safety?.maxAffected;
  if (beforeMax !== undefined && (afterMax === undefined || afterMax > beforeMax)) {
    const what = afterMax === undefined ? `safety.maxAffected removed (was ${formatCount(beforeMax)}): runs change any number of records without stopping for a human` : `safety.maxAffected raised ${formatCount(beforeMax)} → ${formatCount(afterMax)}: runs change that many records without stopping for a human`;
    add('CF514', 'HIGH', what, 'keep the limit and approve the one run that needs more (cronform approve <runId>)', ['safety']);
  }
  if (before && allowsMoreFailures(before.allowedFailures, after.allowedFailures)) {
    add('CF517', 'MEDIUM', `allowedFailures ${describeAllowed(before.allowedFailures)} → ${describeAllowed(after.allowedFailures)}: runs whose items fail within it end PARTIAL_SUCCESS, without a failure or an alert`, 'keep failures failing unless the owner accepts them; alert on cronform_runs_total{status="PARTIAL_SUCCESS"} if they matter', ['allowedFailures']);
  }
  if (before) {
    // Each loosening makes the job run more often or at once with itself, unasked.
    const loosened = [
      after.retry.maxAttempts > before.retry.maxAttempts ? `retry.maxAttempts ${before.retry.maxAttempts} → ${after.retry.maxAttempts} (a failed run is run again)` : '',
      after.overlap === 'ALLOW' && before.overlap !== 'ALLOW' ? `overlap ${before.overlap} → ALLOW (runs of this schedule may now run at the same time)` : '',
      after.onStall === 'retry' && before.onStall !== 'retry' ? `onStall ${before.onStall} → retry (a run whose runner died is started again, though its job may have done its work)` : '',
    ].filter(Boolean);
    if (loosened.length > 0) add('CF519', 'MEDIUM', `runs again or at once more freely: ${loosened.join('; ')}`, 'confirm the job is safe to repeat and to overlap (idempotent, no shared state it corrupts)', ['retry', 'overlap', 'onStall']);
  }
  if (before && describeTarget(before, true) !== describeTarget(after, true)) add('CF504', 'MEDIUM', `job target changed: ${describeTarget(before, false)} → ${describeTarget(after, false)}`, 'check the new target exists where the runners run and does the intended work', ['job']);
  const method = executableJobsOf(after.job).map(({ job }) => (job.type === 'http' ? job.method.toUpperCase() : '')).find((m) => m === 'POST' || m === 'PATCH') ?? '';
  if ((method === 'POST' || method === 'PATCH') && after.retry.maxAttempts > 1 && isRelevant(input, ['retry', 'job'])) {
    add('CF505', 'LOW', `${method} is retried up to ${after.retry.maxAttempts} attempts: a retry after a timeout may repeat the side effect`, 'make the endpoint honour the Idempotency-Key header cronform sends, or set retry.maxAttempts: 1', ['retry.maxAttempts']);
  }
}

const describeAllowed = (allowed: AllowedFailures | undefined): string => (allowed?.count !== undefined ? formatCount(allowed.count) : allowed?.percent !== undefined ? `${formatCount(allowed.percent)}%` : 'none');

/** Unset allows no failed item; a count and a percent cannot be compared, so switching counts as raising. */
function allowsMoreFailures(before: AllowedFailures | undefined, after: AllowedFailures | undefined): boolean {
  if (!after || (after.count ?? after.percent ?? 0) === 0) return false;
  if (!before) return true;
  if (before.count !== undefined && after.count !== undefined) return after.count > before.count;
  if (before.percent !== undefined && after.percent !== undefined) return after.percent > before.percent;
  return true;
}

/** What runs, field by field (job-risk.ts): a created or restored schedule's whole job, an update's changes. */
function checkJob(input: RiskInput, add: AddFinding): void {
  const { before, after } = input;
  const wholeJob = !before || input.action === 'restore';
  const targetChanged = !!before && !!after && describeTarget(before, true) !== describeTarget(after, true);
  for (const concern of assessJob(before, after, { wholeJob, targetChanged })) add(concern.code, concern.level, concern.message, concern.hint, [concern.path, 'job']);
}

/** What a job runs: argv[0] plus the script (first argument that is not a flag or template), or method and url; each step's, for a workflow. */
function describeTarget(def: Definition, exact: boolean): string {
  return executableJobsOf(def.job).map(({ stepName, job }) => (stepName === null ? '' : `${stepName}: `) + describeJobTarget(job, exact)).join('; ');
}

function describeJobTarget(job: JobDefinition, exact: boolean): string {
  if (job.type === 'http') return `${job.method.toUpperCase()} ${exact ? job.url : job.url.replace(/[?#].*$/, '?…')}`;
  if (job.type === 'queue') return describeQueueTarget(job);
  const script = job.command.slice(1).find((arg) => !arg.startsWith('-') && !arg.includes('{{'));
  return [job.command[0], script].filter((part) => part !== undefined).join(' ');
}

/** A stored acceptance covers a new one with the same code and reason that lasts at least as long. */
function isCovered(acceptance: RiskAcceptance, stored: RiskAcceptance[], today: string): boolean {
  return stored.some((s) => s.code === acceptance.code && s.reason === acceptance.reason && s.until >= acceptance.until && s.until.slice(0, 10) >= today);
}

/**
 * ERROR findings break Policy limits: the fix is the Policy or the schedule, never a per-manifest
 * waiver. An acceptance no stored one covers is the author accepting their own risk: marked
 * `addedInThisChange`, it is shown but counts for nothing (highestRisk, --fail-on).
 */
function applyAcceptance(findings: Finding[], accepted: RiskAcceptance[], stored: RiskAcceptance[], nowMs: number): Finding[] {
  const today = new Date(nowMs).toISOString().slice(0, 10);
  return findings.map((finding) => {
    const match = finding.level === 'ERROR' ? undefined : accepted.find((a) => a.code === finding.code && a.until.slice(0, 10) >= today);
    if (!match) return finding;
    const addedInThisChange = !isCovered(match, stored, today);
    return { ...finding, accepted: { reason: match.reason, until: match.until, ...(addedInThisChange ? { addedInThisChange: true as const } : {}) } };
  });
}

export function assessChange(input: RiskInput): Finding[] {
  const findings: Finding[] = [];
  const add: AddFinding = (code, level, message, hint, paths = []) => {
    // The first path that resolves; locating one costs a walk of the manifest, so no more than needed.
    let location: ReturnType<RiskInput['locate']>;
    for (const path of paths) if ((location = input.locate(path)) !== undefined) break;
    findings.push({ code, level, message, hint, ...(location ? { location } : {}) });
  };
  for (const check of [checkFrequency, checkArchive, checkCriticality, checkDependents, checkRetentionChange, checkTime, checkSecrets, checkExecution, checkJob]) check(input, add);
  return applyAcceptance(findings, input.riskAccepted, input.storedRiskAccepted ?? [], input.nowMs);
}

const RISK_ORDER: RiskLevel[] = ['LOW', 'MEDIUM', 'HIGH'];

/** The highest level among findings not accepted for the gate (or among all, with `ignoreAcceptances`). */
export function highestRisk(findings: Finding[], options: { ignoreAcceptances?: boolean } = {}): RiskLevel | 'NONE' {
  let highest: RiskLevel | 'NONE' = 'NONE';
  for (const finding of findings) {
    if (!options.ignoreAcceptances && isAcceptedForGate(finding)) continue;
    const level: RiskLevel = finding.level === 'ERROR' ? 'HIGH' : finding.level;
    if (highest === 'NONE' || RISK_ORDER.indexOf(level) > RISK_ORDER.indexOf(highest)) highest = level;
  }
  return highest;
}

function describeDst(def: Definition, nowMs: number): string | undefined {
  const calendar = calendarForDefinition(def);
  if (calendar.rules.cron.intervalLike) return undefined;
  const exposures = findDstExposure(calendar, nowMs);
  if (exposures.length === 0) return undefined;
  return `DST: ${plural(exposures.length, 'transition')} in 12 months (${[...new Set(exposures.map((e) => `${e.kind} ${e.effect}`))].join(', ')})`;
}

/**
 * `follows extract (one run per SUCCESS)`, or for a join `follows a + b (one run per business
 * date once all succeed)`, with the deadline when there is a cron too.
 */
function describeDependency(def: Definition, runsPerDay?: number | null): string | undefined {
  if (!def.after || def.after.length === 0) return undefined;
  const join = def.after.length > 1;
  const upstreams = def.after.map((a) => a.schedule).join(join ? ' + ' : ', ');
  const rate = runsPerDay === undefined || runsPerDay === null ? '' : `, up to ${plural(runsPerDay, 'run')}/day`;
  return `follows ${upstreams} (${join ? 'one run per business date once all succeed' : 'one run per SUCCESS'}${rate}${def.cron === null ? '' : '; own cron slots are deadlines'})`;
}

function describeNew(def: Definition, figures: ScheduleFigures, nowMs: number, followedRunsPerDay?: number | null): string {
  if (def.cron === null) return `${describeDependency(def, followedRunsPerDay)}${def.enabled ? '' : ' (disabled)'}`;
  const next = firstSlot(def, nowMs);
  const when = next === undefined ? 'never fires' : `next ${formatLocal(next, def.timezone, true)} ${def.timezone}`;
  const runs = `${plural(figures.runsPerDayAverage, 'run')}/day (peak ${formatCount(figures.runsPerDayPeak)}), ${when}${def.enabled ? '' : ' (disabled)'}`;
  return [runs, describeDst(def, nowMs)].filter((part) => part !== undefined).join('; ');
}

function describeUpdate(input: RiskInput, before: Definition, after: Definition): string[] {
  const { nowMs } = input;
  const parts: string[] = [];
  const followed = input.followedRunsPerDay;
  const peakBefore = followed?.before ?? figuresOf(before, input.beforeFigures, nowMs).runsPerDayPeak;
  const peakAfter = followed?.after ?? figuresOf(after, input.afterFigures, nowMs).runsPerDayPeak;
  // A dependent without a cron runs as often as its upstream succeeds: without that rate its own
  // figures (no slots) would read as if it stopped running, so "follows X" alone says it then.
  const ownSlots = after.cron !== null;
  const knownRate = ownSlots || (followed?.after !== undefined && followed.after !== null);
  if (knownRate && peakBefore !== peakAfter) parts.push(`runs/day ${formatCount(peakBefore)} → ${formatCount(peakAfter)}`);
  const [slotBefore, slotAfter] = [firstSlot(before, nowMs), firstSlot(after, nowMs)];
  if (ownSlots && slotBefore !== slotAfter) {
    const sameDay = slotBefore !== undefined && slotAfter !== undefined && formatUtc(slotBefore).slice(0, 10) === formatUtc(slotAfter).slice(0, 10);
    const show = (ms: number | undefined) => (ms === undefined ? 'none' : sameDay ? formatUtcClock(ms) : formatUtc(ms));
    parts.push(`next slot ${show(slotBefore)} → ${show(slotAfter)}`);
  }
  if (before.enabled !== after.enabled) parts.push(after.enabled ? 'enabled' : 'disabled');
  if (differs(before, after, ['after'])) parts.push(describeDependency(after, followed?.after) ?? `no longer follows ${(before.after ?? []).map((a) => a.schedule).join(', ')}`);
  const dst = differs(before, after, ['cron', 'timezone', 'dst', 'dayMatch']) ? describeDst(after, nowMs) : undefined;
  if (dst) parts.push(dst);
  // The changed keys are always named, job first: a timing change cannot hide a job change.
  const keys = describeChangedKeys(before, after);
  if (parts.length > 0) return keys ? [...parts, keys] : parts;
  // Jitter moves each start by up to its value, and the DST policy adds or drops runs on
  // transition days: neither moves the next slot, so "timing unchanged" would not be true.
  if (differs(before, after, ['jitterMs', 'dst'])) return keys ? [`${keys}; start times move (jitter or DST policy)`] : [];
  return keys ? [`${keys}; timing unchanged`] : [];
}

/** `changed job.command, timeout, description`, in manifest terms and review order; undefined when nothing but the name changed. */
function describeChangedKeys(before: Definition, after: Definition): string | undefined {
  const keys = changedKeys(diffFields(before, after)).filter((key) => key !== 'name');
  return keys.length > 0 ? `changed ${keys.join(', ')}` : undefined;
}

/** One semantic sentence per change: what it does to runs, not which fields moved. */
export function headlineFor(input: RiskInput): string {
  const { action, before, after, nowMs } = input;
  if (action === 'archive') {
    const stops = input.history && input.history.runsLast30Days > 0 ? ' will stop' : '';
    return `archive: ${describeHistory(input.history)}${stops}`;
  }
  if (!after) return action;
  if (!before || action === 'create' || action === 'restore') {
    const keys = before && action === 'restore' ? describeChangedKeys(before, after) : undefined;
    return `${action === 'restore' ? 'restore' : 'new'}: ${describeNew(after, figuresOf(after, input.afterFigures, nowMs), nowMs, input.followedRunsPerDay?.after)}${keys ? `; ${keys}` : ''}`;
  }
  const parts = describeUpdate(input, before, after);
  if (action === 'rename') return [`renamed from ${before.name} (history kept)`, ...parts].join('; ');
  return parts.length > 0 ? parts.join('; ') : 'no semantic change';
}

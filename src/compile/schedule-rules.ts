/**
 * Semantic rules for one schema-valid Schedule (SPEC §3.2) that JSON Schema cannot express:
 * time zone, cron grammar and reachability, day-of-month/day-of-week semantics, cadence limits
 * from the Policy, and contradictory policies. Pure: `nowMs` is an input.
 */
import type { ScheduleManifest } from '../manifest/schema-types.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import { DiagnosticCodes } from '../shared/diagnostic-codes.js';
import { parseCron, type CronExpression } from '../time/cron-parse.js';
import { timesPerDay } from '../time/day-match.js';
import { minIntervalSeconds } from '../time/interval.js';
import { MS_PER_DAY } from '../time/civil.js';
import { createSlotCalendar, firesWithinDays, nextSlot } from '../time/slots.js';
import { isValidTimezone, suggestTimezone } from '../time/zone.js';
import { formatDurationMs, parseDurationMs } from './duration.js';
import { checkRetention } from './retention-rules.js';
import { acceptanceMaxDaysOf, type PolicyDefinition } from './definition.js';
import { defaultTimeoutMs } from './compile-schedule.js';
import { checkStepRules } from './step-rules.js';
import { INPUT_VARIABLES, parseInputTemplate } from './input-templates.js';

export interface LocatableDocument {
  file: string;
  locate(path: ReadonlyArray<string | number>, target?: 'key' | 'value'): { line: number; column: number };
  /** Position of character `offset` inside the scalar at `path` (accounts for quotes). */
  locateInScalar(path: ReadonlyArray<string | number>, offset: number): { line: number; column: number };
}

export interface ScheduleRuleResult {
  diagnostics: Diagnostic[];
  /**
   * Set when the cron and time zone are usable, so the schedule can be compiled; null for a usable
   * dependent without a cron (`spec.after`), which has no slots of its own.
   */
  cron?: CronExpression | null;
}

const FIVE_YEARS_DAYS = 5 * 366;

export function checkScheduleRules(doc: LocatableDocument, manifest: ScheduleManifest, policy: PolicyDefinition, nowMs: number): ScheduleRuleResult {
  const diagnostics: Diagnostic[] = [];
  const { spec } = manifest;
  const at = (path: Array<string | number>, target: 'key' | 'value' = 'value') => ({ file: doc.file, ...doc.locate(path, target), path: path.join('.') });

  const timezoneValid = isValidTimezone(spec.timezone);
  if (!timezoneValid) {
    diagnostics.push({ severity: 'error', code: DiagnosticCodes.INVALID_TIMEZONE, message: `timezone must be an IANA zone (got ${JSON.stringify(spec.timezone)})`, hint: suggestTimezone(spec.timezone), ...at(['spec', 'timezone']) });
  }

  diagnostics.push(...checkInputTemplates(doc, manifest));
  if (spec.cron === undefined) {
    // The schema requires cron unless spec.after is set (its if/then), so this is a dependent.
    diagnostics.push(...checkPolicyContradictions(doc, manifest, policy));
    diagnostics.push(...checkRiskAcceptances(doc, manifest, policy, nowMs));
    return timezoneValid ? { diagnostics, cron: null } : { diagnostics };
  }
  const parsed = parseCron(spec.cron);
  if (!parsed.ok) {
    const { error } = parsed;
    diagnostics.push({
      severity: 'error',
      code: error.kind === 'ambiguous' ? DiagnosticCodes.CRON_AMBIGUOUS_TOKEN : DiagnosticCodes.CRON_SYNTAX,
      message: `invalid cron ${JSON.stringify(spec.cron)}: ${error.message}`,
      ...(error.hint ? { hint: error.hint } : {}),
      file: doc.file,
      ...doc.locateInScalar(['spec', 'cron'], error.offset),
      path: 'spec.cron',
    });
    return { diagnostics };
  }
  const cron = parsed.cron;

  if (cron.dayOfMonthRestricted && cron.dayOfWeekRestricted && !spec.dayMatch) {
    diagnostics.push({
      severity: 'error',
      code: DiagnosticCodes.CRON_DAY_MATCH_REQUIRED,
      message: `cron ${JSON.stringify(spec.cron)} restricts both day-of-month and day-of-week; say which days you mean with spec.dayMatch`,
      hint: 'dayMatch: any fires when either field matches (classic cron); dayMatch: all only when both match (e.g. "the first Monday": 1-7 and MON)',
      ...at(['spec', 'cron']),
    });
  }

  if (cron.intervalLike && spec.dst) {
    diagnostics.push({ severity: 'warning', code: DiagnosticCodes.DST_IGNORED_FOR_INTERVAL, message: 'spec.dst has no effect: an interval-like schedule (hour field "*") fires at every real instant whose local time matches', ...at(['spec', 'dst'], 'key') });
  }

  const intervalSeconds = minIntervalSeconds(cron, spec.dayMatch);
  if (intervalSeconds !== undefined && intervalSeconds * 1000 < policy.minIntervalMs) {
    diagnostics.push({
      severity: 'error',
      code: DiagnosticCodes.INTERVAL_BELOW_MINIMUM,
      message: `cron ${JSON.stringify(spec.cron)} fires every ${formatDurationMs(intervalSeconds * 1000)}, below the policy's minInterval of ${formatDurationMs(policy.minIntervalMs)}`,
      hint: 'slow the schedule down, or lower minInterval in the Policy if this cadence is intended',
      ...at(['spec', 'cron']),
    });
  }

  // The schema checked the shape; an interval of once a day or rarer is not computed (undefined).
  const freshnessMs = spec.freshness ? parseDurationMs(spec.freshness) : undefined;
  const shortestMs = (intervalSeconds ?? 86_400) * 1000;
  if (freshnessMs !== undefined && freshnessMs <= shortestMs) {
    diagnostics.push({
      severity: 'warning',
      code: DiagnosticCodes.FRESHNESS_BELOW_INTERVAL,
      message: `freshness ${spec.freshness} is not longer than the ${formatDurationMs(shortestMs)} between slots: the freshness alert would fire between two successful runs`,
      hint: `allow one interval plus the job's runtime, e.g. ${formatDurationMs(shortestMs + Math.max(shortestMs / 12, 60_000))}`,
      ...at(['spec', 'freshness']),
    });
  }

  diagnostics.push(...checkRetention(doc, spec.retention));

  const perDay = timesPerDay(cron);
  if (perDay > policy.maxRunsPerDay) {
    diagnostics.push({
      severity: 'error',
      code: DiagnosticCodes.RUNS_PER_DAY_ABOVE_MAXIMUM,
      message: `cron ${JSON.stringify(spec.cron)} fires up to ${perDay} times a day, above the policy's maxRunsPerDay of ${policy.maxRunsPerDay}`,
      ...at(['spec', 'cron']),
    });
  }

  if (timezoneValid) {
    const dst = { gap: spec.dst?.gap ?? 'shift', fold: spec.dst?.fold ?? 'first' };
    const calendar = createSlotCalendar({ cron, timezone: spec.timezone, dst, dayMatch: spec.dayMatch });
    // Matching days first (cheap; rejects 30 February), then a real slot: with `gap: skip`, every
    // matching day can lose its only times to a DST gap (e.g. 02:30 on the second Sunday of March).
    const daysMatch = firesWithinDays(calendar, nowMs, FIVE_YEARS_DAYS);
    const firstSlot = daysMatch ? nextSlot(calendar, nowMs) : undefined;
    if (firstSlot === undefined || firstSlot - nowMs >= FIVE_YEARS_DAYS * MS_PER_DAY) {
      const hint = daysMatch
        ? 'every matching local time falls in a DST gap and dst.gap is skip: use dst.gap: shift, or another hour'
        : 'check the day-of-month and month fields (e.g. there is no 30 February)';
      diagnostics.push({ severity: 'error', code: DiagnosticCodes.CRON_NEVER_FIRES, message: `cron ${JSON.stringify(spec.cron)} never fires in the next 5 years`, hint, ...at(['spec', 'cron']) });
    }
  }

  diagnostics.push(...checkPolicyContradictions(doc, manifest, policy));
  diagnostics.push(...checkStepRules(doc, manifest, spec.timeout ? parseDurationMs(spec.timeout) : defaultTimeoutMs(shortestMs)));
  diagnostics.push(...checkRiskAcceptances(doc, manifest, policy, nowMs));
  const usable = timezoneValid && !diagnostics.some((d) => d.severity === 'error' && d.code === DiagnosticCodes.CRON_NEVER_FIRES);
  return usable ? { diagnostics, cron } : { diagnostics };
}

/** Each `spec.inputs` template parses (input-templates.ts), located at the offending character. */
function checkInputTemplates(doc: LocatableDocument, manifest: ScheduleManifest): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const [name, template] of Object.entries(manifest.spec.inputs ?? {})) {
    const parsed = parseInputTemplate(template);
    if (parsed.ok) continue;
    diagnostics.push({
      severity: 'error',
      code: DiagnosticCodes.INVALID_INPUT_TEMPLATE,
      message: `input ${name}: ${parsed.error.message}`,
      hint: `variables: ${INPUT_VARIABLES.join(', ')}; date arithmetic: {{businessDate - 7d}}, {{businessDate + 1w}}`,
      file: doc.file,
      ...doc.locateInScalar(['spec', 'inputs', name], parsed.error.offset),
      path: `spec.inputs.${name}`,
    });
  }
  return diagnostics;
}

function checkPolicyContradictions(doc: LocatableDocument, manifest: ScheduleManifest, policy: PolicyDefinition): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const { spec } = manifest;
  const at = (path: Array<string | number>, target: 'key' | 'value' = 'value') => ({ file: doc.file, ...doc.locate(path, target), path: path.join('.') });
  if (spec.misfire === 'CATCH_UP_ALL' && (spec.overlap ?? 'SKIP_NEW') === 'SKIP_NEW') {
    diagnostics.push({
      severity: 'error',
      code: DiagnosticCodes.SKIP_NEW_WITH_CATCH_UP_ALL,
      message: 'misfire CATCH_UP_ALL contradicts overlap SKIP_NEW: every caught-up run after the first would be skipped as an overlap',
      hint: 'use overlap: QUEUE_NEW to run missed slots one after another, or misfire: RUN_ONCE',
      ...at(['spec', 'misfire']),
    });
  }
  if (spec.misfire === 'CATCH_UP_ALL' && spec.maxCatchUp === undefined) {
    diagnostics.push({
      severity: 'error',
      code: DiagnosticCodes.CATCH_UP_ALL_WITHOUT_CAP,
      message: 'misfire CATCH_UP_ALL needs an explicit cap: set spec.maxCatchUp',
      hint: 'a 2-day outage of an hourly schedule would otherwise replay up to 48 runs at once; choose the number you can afford (e.g. maxCatchUp: 24)',
      ...at(['spec', 'misfire']),
    });
  }
  const queue = spec.queue ?? 'default';
  // Own keys only: `in` would accept names every object inherits, such as "constructor".
  if (!Object.hasOwn(policy.queues, queue)) {
    diagnostics.push({
      severity: 'error',
      code: DiagnosticCodes.UNKNOWN_QUEUE,
      message: `queue ${JSON.stringify(queue)} is not defined in the Policy`,
      hint: `defined queues: ${Object.keys(policy.queues).join(', ')}; add it under spec.queues of the Policy`,
      ...at(['spec', 'queue']),
    });
  }
  return diagnostics;
}

/**
 * An acceptance is a reviewed exception with an end: expired ones are reported again (warning),
 * and one reaching further than the Policy's acceptanceMaxDays is an error, so no acceptance
 * quietly lasts for years (an error, not a warning: a warning would still let it apply).
 */
function checkRiskAcceptances(doc: LocatableDocument, manifest: ScheduleManifest, policy: PolicyDefinition, nowMs: number): Diagnostic[] {
  const acceptances = manifest.metadata.riskAccepted ?? [];
  // Most schedules accept no risk: skip formatting today's date for them.
  if (acceptances.length === 0) return [];
  const today = new Date(nowMs).toISOString().slice(0, 10);
  const maxDays = acceptanceMaxDaysOf(policy);
  const latest = new Date(nowMs + maxDays * MS_PER_DAY).toISOString().slice(0, 10);
  const at = (index: number) => ({ file: doc.file, ...doc.locate(['metadata', 'riskAccepted', index, 'until']), path: `metadata.riskAccepted.${index}.until` });
  return acceptances.flatMap((acceptance, index): Diagnostic[] => {
    if (acceptance.until < today) {
      return [{
        severity: 'warning',
        code: DiagnosticCodes.RISK_ACCEPTANCE_EXPIRED,
        message: `risk acceptance of ${acceptance.code} expired on ${acceptance.until}; plan reports the finding again`,
        hint: 'remove the acceptance, or renew it with a new until date and reason',
        ...at(index),
      }];
    }
    if (acceptance.until > latest) {
      return [{
        severity: 'error',
        code: DiagnosticCodes.RISK_ACCEPTANCE_TOO_LONG,
        message: `risk acceptance of ${acceptance.code} runs until ${acceptance.until}, more than the Policy's ${maxDays} days ahead (latest ${latest})`,
        hint: `set until to ${latest} or earlier, and renew it then if the risk still holds`,
        ...at(index),
      }];
    }
    return [];
  });
}

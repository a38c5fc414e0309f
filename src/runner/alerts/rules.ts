/**
 * Alert rules (SPEC §8, README "Alerts"): which conditions hold for a schedule at `nowMs`, given
 * what the database says about its recent runs. Pure: the evaluator reads the inputs and the
 * clock, records what these return and delivers the messages.
 *
 * A condition carries a key naming its occurrence (the first failed run of a streak, the first
 * slot not started, the last success…): while it holds its key does not change, so it is recorded
 * and sent once however often it is evaluated and by however many replicas; when it clears, the
 * open alert with that key is resolved; when it comes back, it has a new key.
 */
import type { Criticality } from '../../compile/definition.js';
import { formatDurationMs } from '../../compile/duration.js';

export type AlertRule = 'run-failed' | 'consecutive-failures' | 'missed-slot' | 'over-timeout' | 'freshness' | 'no-runner';

export interface AlertThresholds {
  /** Alert on a run's final failure (all retries spent). */
  runFailed: boolean;
  /** Alert when this many runs in a row failed; null: never. */
  consecutiveFailures: number | null;
  /** Alert when a slot has not started within its gracePeriod (dead-man's switch). */
  missedSlot: boolean;
  /** Alert when an attempt runs past its timeout (or was killed for it). */
  overTimeout: boolean;
}

/**
 * Thresholds by `spec.criticality` (the table in README "Alerts"). Freshness is not in it: a
 * schedule that sets `spec.freshness` asked for that alert, whatever its criticality.
 */
export const ALERT_THRESHOLDS: Record<Criticality, AlertThresholds> = {
  CRITICAL: { runFailed: true, consecutiveFailures: 3, missedSlot: true, overTimeout: true },
  HIGH: { runFailed: true, consecutiveFailures: 3, missedSlot: true, overTimeout: true },
  MEDIUM: { runFailed: false, consecutiveFailures: 2, missedSlot: true, overTimeout: true },
  LOW: { runFailed: false, consecutiveFailures: 3, missedSlot: false, overTimeout: false },
};

export interface RunOutcome {
  runId: number;
  status: 'SUCCESS' | 'FAILED';
  finishedAtMs: number | null;
  reason: string | null;
  /** The last attempt's error, when it failed. */
  error: string | null;
}

export interface AttemptSummary {
  runId: number;
  attempt: number;
  status: string;
  startedAtMs: number;
}

export interface ScheduleAlertInput {
  scheduleId: number;
  name: string;
  criticality: Criticality;
  timeoutMs: number;
  gracePeriodMs: number;
  freshnessMs: number | null;
  paused: boolean;
  /** Finished runs (SUCCESS or FAILED), newest slot first: the latest says what failed. */
  outcomes: RunOutcome[];
  /** The failed runs since the last success, all of them (not just `outcomes`): the first keys the alert. */
  failureStreak: { firstRunId: number; count: number } | null;
  /** The latest attempts, newest first (finished or running). */
  attempts: AttemptSummary[];
  lastSuccessAtMs: number | null;
  /** Freshness counts from here while the schedule never succeeded. */
  createdAtMs: number;
  /** The oldest scheduled slot after the last one that started, that has not started (a run row or next_run_at). */
  firstUnstartedSlot: { slotMs: number; runId: number | null; status: string | null } | null;
}

export interface AlertCondition {
  rule: AlertRule;
  conditionKey: string;
  scheduleId: number | null;
  scheduleName: string | null;
  criticality: Criticality | null;
  /** One line an on-call engineer can act on. */
  summary: string;
  details: Record<string, unknown>;
  /** Set when the condition is already over when it is reported (a gap with no runner): resolved at the next evaluation. */
  endedAtMs?: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** `5m1s`, `1h`, `2h30m`: elapsed time to the second, for people. */
export function formatElapsed(ms: number): string {
  const seconds = Math.round(ms / 1000);
  const parts = [[Math.floor(seconds / 3600), 'h'], [Math.floor((seconds % 3600) / 60), 'm'], [seconds % 60, 's']] as const;
  return parts.filter(([value]) => value > 0).map(([value, unit]) => `${value}${unit}`).join('') || '0s';
}

export function evaluateScheduleRules(input: ScheduleAlertInput, nowMs: number): AlertCondition[] {
  const thresholds = ALERT_THRESHOLDS[input.criticality];
  const base = { scheduleId: input.scheduleId, scheduleName: input.name, criticality: input.criticality };
  const key = (...parts: Array<string | number>) => [`schedule:${input.scheduleId}`, ...parts].join(':');
  const conditions: AlertCondition[] = [];

  const streak = input.failureStreak;
  const latest = input.outcomes[0];
  if (streak && latest?.status === 'FAILED') {
    const cause = latest.error ?? latest.reason ?? 'no error recorded';
    const details = { runId: latest.runId, failedRuns: streak.count, firstFailedRunId: streak.firstRunId, error: cause, command: `cronform runs show ${latest.runId}` };
    // Keyed by the streak's first run: one alert per streak, not one per failure.
    const conditionKey = key('run', streak.firstRunId);
    if (thresholds.runFailed) {
      conditions.push({ ...base, rule: 'run-failed', conditionKey, summary: `${input.name}: run ${latest.runId} failed: ${cause}`, details });
    }
    const needed = thresholds.consecutiveFailures;
    if (needed !== null && streak.count >= needed) {
      conditions.push({ ...base, rule: 'consecutive-failures', conditionKey, summary: `${input.name}: ${streak.count} runs in a row failed, the last (run ${latest.runId}): ${cause}`, details });
    }
  }

  const slot = input.firstUnstartedSlot;
  if (thresholds.missedSlot && !input.paused && slot && nowMs >= slot.slotMs + input.gracePeriodMs) {
    const waiting = slot.runId === null ? 'no run was created (no runner scheduling it?)' : `run ${slot.runId} is ${slot.status ?? 'not started'}`;
    conditions.push({
      ...base,
      rule: 'missed-slot',
      conditionKey: key('slot', iso(slot.slotMs)),
      summary: `${input.name}: the ${iso(slot.slotMs)} slot did not start within its grace period of ${formatDurationMs(input.gracePeriodMs)}: ${waiting}`,
      details: { slot: iso(slot.slotMs), runId: slot.runId, status: slot.status, gracePeriod: formatDurationMs(input.gracePeriodMs) },
    });
  }

  const overtime = timeoutStreak(input.attempts, input.timeoutMs, nowMs);
  if (thresholds.overTimeout && overtime.length > 0) {
    const oldest = overtime.at(-1)!;
    const newest = overtime[0]!;
    const state = newest.status === 'RUNNING' ? `still running after ${formatElapsed(nowMs - newest.startedAtMs)}` : 'killed at its timeout';
    conditions.push({
      ...base,
      rule: 'over-timeout',
      conditionKey: key('attempt', oldest.runId, oldest.attempt),
      summary: `${input.name}: run ${newest.runId} attempt ${newest.attempt} ran over its timeout of ${formatDurationMs(input.timeoutMs)} (${state})`,
      details: { runId: newest.runId, attempt: newest.attempt, timeout: formatDurationMs(input.timeoutMs), attemptsOverTimeout: overtime.length, command: `cronform runs show ${newest.runId}` },
    });
  }

  if (input.freshnessMs !== null && !input.paused) {
    const sinceMs = input.lastSuccessAtMs ?? input.createdAtMs;
    if (nowMs - sinceMs > input.freshnessMs) {
      const last = input.lastSuccessAtMs === null ? 'it never succeeded' : `the last success was at ${iso(input.lastSuccessAtMs)}`;
      conditions.push({
        ...base,
        rule: 'freshness',
        conditionKey: key('since', iso(sinceMs)),
        summary: `${input.name}: stale: ${last}, more than its freshness of ${formatDurationMs(input.freshnessMs)} ago`,
        details: { lastSuccessAt: input.lastSuccessAtMs === null ? null : iso(input.lastSuccessAtMs), freshness: formatDurationMs(input.freshnessMs) },
      });
    }
  }
  return conditions;
}

/**
 * The attempts over their timeout since the last attempt that ended within it, newest first. A
 * running attempt still within its timeout tells nothing yet and is passed over.
 */
function timeoutStreak(attempts: readonly AttemptSummary[], timeoutMs: number, nowMs: number): AttemptSummary[] {
  const streak: AttemptSummary[] = [];
  for (const attempt of attempts) {
    const running = attempt.status === 'RUNNING' || attempt.status === 'CLAIMED';
    if (running && nowMs - attempt.startedAtMs <= timeoutMs) continue;
    if (attempt.status !== 'TIMED_OUT' && !running) break;
    streak.push(attempt);
  }
  return streak;
}

export interface RunnerSilenceInput {
  /** When this runner started. */
  startedAtMs: number;
  /** The latest heartbeat (or stop) of the runners that started before this one; null when there were none. */
  lastSeenBeforeMs: number | null;
}

/**
 * A dead-man's switch for the runners themselves: when this runner started after a gap longer
 * than `silenceMs` with no runner alive, nobody could alert while it lasted, so the runner that
 * comes back reports it (then resolves it: a runner is alive again). Keyed by the gap's start, so
 * replicas starting together report it once.
 */
export function evaluateRunnerSilence(input: RunnerSilenceInput, silenceMs: number): AlertCondition[] {
  const { lastSeenBeforeMs, startedAtMs } = input;
  if (lastSeenBeforeMs === null || startedAtMs - lastSeenBeforeMs <= silenceMs) return [];
  const gap = formatElapsed(startedAtMs - lastSeenBeforeMs);
  return [
    {
      rule: 'no-runner',
      conditionKey: `runners:${iso(lastSeenBeforeMs)}`,
      scheduleId: null,
      scheduleName: null,
      criticality: null,
      summary: `no runner was alive from ${iso(lastSeenBeforeMs)} to ${iso(startedAtMs)} (${gap}): slots in that gap were missed or caught up by their misfire policy (cronform runs)`,
      details: { lastHeartbeatAt: iso(lastSeenBeforeMs), runnerBackAt: iso(startedAtMs), gap },
      endedAtMs: startedAtMs,
    },
  ];
}

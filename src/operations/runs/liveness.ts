/**
 * Is anything going to run? (SPEC §8: `status` lists live runners and overdue slots; `status
 * --check` fails for an external probe.) Pure judgements of rows read at one instant.
 *
 * - A runner is alive while it is not marked stopped and its last heartbeat is at most
 *   `staleAfterMs` old. Runners heartbeat every third of their lease (10 s with the default 30 s
 *   lease), and the reconciler marks a runner silent for three leases as stopped; the default
 *   window is those three default leases, 90 s. A runner given a longer lease needs a longer one.
 * - A schedule is overdue when its next slot was not turned into a run, or a run of it (scheduled
 *   or manual; backfills wait their turn by design) was not started, more than `overdueAfterMs`
 *   after it was due. That tolerance is the Policy's `misfireThreshold` unless given: the lateness
 *   from which the runner itself counts a slot as missed. A paused or disabled schedule is never
 *   overdue: nothing is meant to run.
 */
import { formatElapsed } from '../../shared/format-elapsed.js';

export const DEFAULT_RUNNER_STALE_AFTER_MS = 90_000;

export type RunnerState = 'alive' | 'stale' | 'stopped';

export function classifyRunner(runner: { heartbeatAt: Date; stoppedAt: Date | null }, nowMs: number, staleAfterMs: number): RunnerState {
  if (runner.stoppedAt !== null) return 'stopped';
  return nowMs - runner.heartbeatAt.getTime() <= staleAfterMs ? 'alive' : 'stale';
}

export interface Overdue {
  /** `slot`: the scheduler has not created the slot's run; `run`: a run is due and not started. */
  kind: 'slot' | 'run';
  /** When it was due. */
  dueAt: string;
  lateMs: number;
  message: string;
}

export interface OverdueInput {
  enabled: boolean;
  paused: boolean;
  nextRunAt: Date | null;
  oldestWaitingRunAfter: Date | null;
}

export function findOverdue(schedule: OverdueInput, nowMs: number, overdueAfterMs: number): Overdue | null {
  if (!schedule.enabled || schedule.paused) return null;
  const candidates: Overdue[] = [];
  if (schedule.nextRunAt && nowMs - schedule.nextRunAt.getTime() > overdueAfterMs) {
    const lateMs = nowMs - schedule.nextRunAt.getTime();
    candidates.push({ kind: 'slot', dueAt: schedule.nextRunAt.toISOString(), lateMs, message: `slot ${schedule.nextRunAt.toISOString()} not turned into a run ${formatElapsed(lateMs)} after it was due (is a runner scheduling?)` });
  }
  if (schedule.oldestWaitingRunAfter && nowMs - schedule.oldestWaitingRunAfter.getTime() > overdueAfterMs) {
    const lateMs = nowMs - schedule.oldestWaitingRunAfter.getTime();
    candidates.push({ kind: 'run', dueAt: schedule.oldestWaitingRunAfter.toISOString(), lateMs, message: `a run due at ${schedule.oldestWaitingRunAfter.toISOString()} has not started ${formatElapsed(lateMs)} later (no runner claiming it, or its queue is full)` });
  }
  // The longest wait says most about how long nothing has happened.
  return candidates.sort((a, b) => b.lateMs - a.lateMs)[0] ?? null;
}

export interface HealthCheck {
  /** false: `status --check` exits with ExitCodes.UNHEALTHY. */
  healthy: boolean;
  /** What makes it unhealthy: no live runner, a CRITICAL schedule overdue. */
  problems: string[];
  /** Shown, not failing: overdue schedules below CRITICAL, stale runners. */
  warnings: string[];
}

export function evaluateHealth(input: {
  runners: ReadonlyArray<{ id: string; state: RunnerState; heartbeatAgeMs: number }>;
  schedules: ReadonlyArray<{ name: string; criticality: string; overdue: Overdue | null }>;
  staleAfterMs: number;
}): HealthCheck {
  const problems: string[] = [];
  const warnings: string[] = [];
  if (!input.runners.some((runner) => runner.state === 'alive')) {
    const latest = input.runners[0];
    const last = latest ? ` (last heartbeat ${formatElapsed(latest.heartbeatAgeMs)} ago, from ${latest.id})` : ' (no runner ever registered)';
    problems.push(`no runner is alive: none has heartbeated in the last ${formatElapsed(input.staleAfterMs)}${last}; nothing will run until one is started (cronform runner)`);
  }
  for (const runner of input.runners) {
    if (runner.state === 'stale') warnings.push(`runner ${runner.id} is not marked stopped but has not heartbeated for ${formatElapsed(runner.heartbeatAgeMs)}`);
  }
  for (const schedule of input.schedules) {
    if (!schedule.overdue) continue;
    const line = `${schedule.criticality} schedule ${schedule.name} is overdue: ${schedule.overdue.message}`;
    (schedule.criticality === 'CRITICAL' ? problems : warnings).push(line);
  }
  return { healthy: problems.length === 0, problems, warnings };
}

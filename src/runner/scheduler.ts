/**
 * The scheduler turns due slots into runs (SPEC §7). One tick = one transaction per batch:
 * take due schedules (FOR UPDATE SKIP LOCKED), decide every due slot (pure policy), insert the
 * runs (ON CONFLICT DO NOTHING), then advance next_run_at. Inserting before advancing, inside
 * one transaction, is what makes a crash lose no slot and two schedulers create no duplicate.
 */
import type { StoredPolicy } from '../db/settings-queries.js';
import type { Database, Executor } from '../db/client.js';
import { advanceSchedules, commitWithoutWaitingForFlush, findSchedulesWithActiveRuns, insertRuns, notifyRunsQueued, takeDueSchedules, type DueSchedule, type NewRun } from '../db/scheduler-queries.js';
import type { Definition } from '../compile/definition.js';
import { DefinitionCache } from './definition-cache.js';
import { applyOverlap } from './policy/overlap.js';
import { applyDeadlines, isDeadlineSchedule } from './policy/deadline-slots.js';
import { findDependencyRunDates } from '../db/dependency-queries.js';
import { planDueSlots } from './policy/plan-slots.js';
import { idempotencyKeyFor, PRIORITY_RANK, type PlannedSlot } from './run-types.js';
import type { CreatedRun, RunObserver } from './run-observer.js';
import type { RunStatus, SkipReason } from '../db/run-vocabulary.js';

export interface SchedulerTickOptions {
  nowMs: number;
  /**
   * Plan slots due up to this long after nowMs as well (default 0). Their runs wait QUEUED until
   * their run_after, so at the slot only the claim remains between it and the start; lateness is
   * still judged at nowMs.
   */
  lookaheadMs?: number;
  policy: StoredPolicy;
  /** Schedules per transaction; a tick loops until none is due. */
  batchSize?: number;
  /** The runner's definitions by version (a schedule due every second is not re-read every second). */
  definitions?: DefinitionCache;
  /** Told of the runs each batch inserted, once its transaction has committed. */
  observer?: Pick<RunObserver, 'runsCreated'>;
}

export interface SchedulerTickResult {
  schedules: number;
  runsCreated: number;
  queued: number;
}

function toNewRun(schedule: DueSchedule, definition: Definition, slot: PlannedSlot, now: Date): NewRun {
  const final = slot.status === 'SKIPPED' || slot.status === 'MISSED';
  return {
    scheduleId: schedule.id,
    scheduleVersion: schedule.version,
    scheduledFor: new Date(slot.scheduledForMs),
    triggerType: 'SCHEDULED',
    idempotencyKey: idempotencyKeyFor(schedule.name, slot.scheduledForMs, 'SCHEDULED'),
    status: slot.status,
    statusReason: slot.reason,
    priority: PRIORITY_RANK[definition.priority],
    queue: definition.queue,
    businessDate: slot.businessDate,
    runAfter: new Date(slot.runAfterMs),
    maxAttempts: definition.retry.maxAttempts,
    summarizedSlots: slot.summarizedSlots,
    finishedAt: final ? now : null,
  };
}

async function runBatch(database: Database, options: SchedulerTickOptions, batchSize: number, cache: DefinitionCache): Promise<SchedulerTickResult & { full: boolean; created: CreatedRun[] }> {
  const now = new Date(options.nowMs);
  const horizonMs = options.nowMs + Math.max(0, options.lookaheadMs ?? 0);
  return database.db.transaction(async (tx) => {
    await commitWithoutWaitingForFlush(tx);
    const due = await takeDueSchedules(tx, new Date(horizonMs), batchSize);
    const definitions = await cache.require(
      tx,
      due.map((s) => ({ scheduleId: s.id, version: s.version })),
    );
    const definitionOf = (schedule: DueSchedule): Definition => {
      const definition = definitions.get(`${schedule.id}:${schedule.version}`);
      if (!definition) throw new Error(`schedule ${schedule.name} v${schedule.version} has no stored definition`);
      return definition;
    };
    // Only SKIP_NEW and QUEUE_NEW look at the runs still active; ALLOW needs no round trip.
    const active = await findSchedulesWithActiveRuns(tx, due.filter((s) => definitionOf(s).overlap !== 'ALLOW').map((s) => s.id));
    const deadlines = await findMetDeadlines(tx, due, definitionOf, options, horizonMs);
    const runs: NewRun[] = [];
    const names = new Map<number, string>();
    const advances: Array<{ id: number; nextRunAt: Date | null; lastScheduledFor: Date | null }> = [];
    for (const schedule of due) {
      const definition = definitionOf(schedule);
      names.set(schedule.id, schedule.name);
      const decided = planDueSlots({
        name: schedule.name,
        definition,
        nextRunAtMs: schedule.nextRunAt.getTime(),
        nowMs: options.nowMs,
        horizonMs,
        misfireThresholdMs: options.policy.misfireThresholdMs,
        paused: schedule.pausedAt ? { untilMs: schedule.pausedUntil?.getTime() ?? null } : null,
      });
      // A deadline slot never runs (its schedule runs after its upstream), so overlap does not apply to it.
      const slots = isDeadlineSchedule(definition)
        ? applyDeadlines(decided.slots, deadlines.get(schedule.id) ?? new Set())
        : applyOverlap(decided.slots, definition.overlap, active.has(schedule.id));
      for (const slot of slots) runs.push(toNewRun(schedule, definition, slot, now));
      const last = slots.at(-1);
      advances.push({ id: schedule.id, nextRunAt: decided.nextRunAtMs === null ? null : new Date(decided.nextRunAtMs), lastScheduledFor: last ? new Date(last.scheduledForMs) : null });
    }
    const inserted = await insertRuns(tx, runs, now);
    await advanceSchedules(tx, advances);
    const queued = inserted.filter((r) => r.status === 'QUEUED').length;
    // One NOTIFY per batch, not per row: a notify per inserted row costs ~3× insert throughput.
    if (queued > 0) await notifyRunsQueued(tx);
    const created = options.observer?.runsCreated ? createdRunsOf(runs, inserted, names) : [];
    return { schedules: due.length, runsCreated: inserted.length, queued, full: due.length === batchSize, created };
  });
}

/**
 * For deadline schedules (cron + spec.after) among `due`: the business dates of their due slots
 * that a DEPENDENCY run has already met. Planned twice for these few schedules (here and in the
 * loop) so that the loop stays one pass; schedules without `after` cost nothing.
 */
async function findMetDeadlines(
  tx: Executor,
  due: DueSchedule[],
  definitionOf: (schedule: DueSchedule) => Definition,
  options: SchedulerTickOptions,
  horizonMs: number,
): Promise<Map<number, Set<string>>> {
  const keys: Array<{ scheduleId: number; businessDate: string }> = [];
  for (const schedule of due) {
    const definition = definitionOf(schedule);
    if (!isDeadlineSchedule(definition)) continue;
    const planned = planDueSlots({ name: schedule.name, definition, nextRunAtMs: schedule.nextRunAt.getTime(), nowMs: options.nowMs, horizonMs, misfireThresholdMs: options.policy.misfireThresholdMs, paused: null });
    for (const slot of planned.slots) keys.push({ scheduleId: schedule.id, businessDate: slot.businessDate });
  }
  const met = await findDependencyRunDates(tx, keys);
  const byId = new Map<number, Set<string>>();
  for (const key of met) {
    const [id, date] = key.split(':') as [string, string];
    byId.set(Number(id), (byId.get(Number(id)) ?? new Set()).add(date));
  }
  return byId;
}

/** The inserted runs as the observer sees them (a slot another scheduler inserted first is not among them). */
function createdRunsOf(runs: NewRun[], inserted: Array<{ id: number; idempotencyKey: string }>, names: Map<number, string>): CreatedRun[] {
  const byKey = new Map(runs.map((r) => [r.idempotencyKey, r]));
  return inserted.flatMap(({ id, idempotencyKey }) => {
    const run = byKey.get(idempotencyKey);
    if (!run) return [];
    const schedule = names.get(run.scheduleId) ?? String(run.scheduleId);
    return [{ runId: id, schedule, scheduledFor: run.scheduledFor.toISOString(), attempt: 0, status: run.status as RunStatus, reason: run.statusReason as SkipReason | null, trigger: run.triggerType, slots: run.summarizedSlots ?? 1 }];
  });
}

export async function runSchedulerTick(database: Database, options: SchedulerTickOptions): Promise<SchedulerTickResult> {
  const batchSize = options.batchSize ?? 500;
  const total: SchedulerTickResult = { schedules: 0, runsCreated: 0, queued: 0 };
  const cache = options.definitions ?? new DefinitionCache();
  for (;;) {
    const batch = await runBatch(database, options, batchSize, cache);
    if (batch.created.length > 0) options.observer?.runsCreated?.(batch.created);
    total.schedules += batch.schedules;
    total.runsCreated += batch.runsCreated;
    total.queued += batch.queued;
    if (!batch.full) return total;
  }
}

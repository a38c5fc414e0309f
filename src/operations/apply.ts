/**
 * Use case: apply a plan in ONE transaction (SPEC §6). Concurrent applies are serialized by an
 * advisory lock; touched rows are locked and compared with the versions the plan was made
 * against, so a stale plan is refused and nothing interleaves. Any failure rolls everything back.
 */
import type { Definition } from '../compile/definition.js';
import { digestOf } from '../compile/digest.js';
import type { Database, Transaction } from '../db/client.js';
import { readStoredPolicy, readStoredRiskAcceptances, writeStoredPolicy, writeStoredRiskAcceptances } from '../db/settings-queries.js';
import {
  findLastChange,
  insertAuditRows,
  insertSchedule,
  insertScheduleVersions,
  isPlanApplied,
  lockSchedules,
  notifySchedulesChanged,
  tryAdvisoryTransactionLock,
  updateSchedule,
  type NewAuditRow,
  type NewScheduleVersion,
} from '../db/schedule-queries.js';
import { computePlanId } from '../plan/build-plan.js';
import type { Plan, PlannedChange } from '../plan/plan-types.js';
import type { StoredSchedule } from '../compile/stored-schedule.js';
import type { Clock } from '../shared/clock.js';
import { nextSlot } from '../time/slots.js';
import { calendarForDefinition } from '../time/timing-cache.js';
import type { ChangeAuthor } from './actor.js';
import { ApplyLockTimeoutError, InvalidPlanError, PlanAlreadyAppliedError, StalePlanError } from './apply-errors.js';

// The refusals applyPlan throws, where its callers look for them.
export { ApplyLockTimeoutError, InvalidPlanError, PlanAlreadyAppliedError, StalePlanError };

const APPLY_LOCK_KEY = 0x63666d02;
const LOCK_POLL_MS = 100;

export interface ApplyOptions {
  author: ChangeAuthor;
  clock: Clock;
  lockTimeoutMs: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface ApplyResult {
  planId: string;
  applied: Array<{ name: string; action: PlannedChange['action']; version: number }>;
}

const AUDIT_ACTIONS: Record<PlannedChange['action'], string> = {
  create: 'SCHEDULE_CREATED',
  update: 'SCHEDULE_UPDATED',
  archive: 'SCHEDULE_ARCHIVED',
  restore: 'SCHEDULE_RESTORED',
  rename: 'SCHEDULE_RENAMED',
};

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function acquireApplyLock(tx: Transaction, options: ApplyOptions): Promise<void> {
  const deadline = options.clock.nowMs() + options.lockTimeoutMs;
  const sleep = options.sleep ?? defaultSleep;
  while (!(await tryAdvisoryTransactionLock(tx, APPLY_LOCK_KEY))) {
    if (options.clock.nowMs() >= deadline) throw new ApplyLockTimeoutError(options.lockTimeoutMs);
    await sleep(LOCK_POLL_MS);
  }
}

function checkPlanIntegrity(plan: Plan): void {
  if (plan.errors.length > 0) throw new InvalidPlanError(`the plan has ${plan.errors.length} error(s); fix them and plan again`);
  if (plan.policyChange && digestOf(plan.policyChange.after) !== plan.policyChange.afterDigest) throw new InvalidPlanError('the plan\'s Policy does not match its digest (edited plan file?)');
  if (plan.riskAcceptanceChange && digestOf(plan.riskAcceptanceChange.after) !== plan.riskAcceptanceChange.afterDigest) throw new InvalidPlanError('the plan\'s risk acceptances do not match their digest (edited plan file?)');
  for (const change of plan.changes) {
    if (change.after && digestOf(change.after) !== change.afterDigest) {
      throw new InvalidPlanError(`the plan's definition of ${change.name} does not match its digest (edited plan file?)`);
    }
  }
  // Any other edit (an action, a planned-against version) would change what apply does unseen.
  const { planId, createdAt: _createdAt, ...content } = plan;
  if (computePlanId(content) !== planId) throw new InvalidPlanError(`the plan's content does not match its id ${planId} (edited plan file?)`);
}

async function findMoved(tx: Transaction, plan: Plan, locked: StoredSchedule[]): Promise<Array<{ name: string; detail: string }>> {
  const byId = new Map(locked.map((s) => [s.id, s]));
  const byName = new Map(locked.map((s) => [s.name, s]));
  const moved: Array<{ name: string; detail: string; id?: number }> = [];
  for (const change of plan.changes) {
    if (change.action === 'create' || change.action === 'rename') {
      const taken = byName.get(change.name);
      if (taken && taken.id !== change.scheduleId) moved.push({ name: change.name, detail: 'was created since the plan', id: taken.id });
    }
    if (change.scheduleId === null) continue;
    const current = byId.get(change.scheduleId);
    if (!current) moved.push({ name: change.name, detail: 'no longer exists' });
    else if (current.version !== change.beforeVersion || current.digest !== change.beforeDigest) {
      moved.push({ name: change.name, detail: `moved from version ${change.beforeVersion} to ${current.version}`, id: current.id });
    }
  }
  for (const item of moved) {
    if (item.id === undefined) continue;
    const last = await findLastChange(tx, item.id);
    if (last) item.detail += ` (${last.action} by ${last.actor} at ${last.at.toISOString()})`;
  }
  return moved.map(({ name, detail }) => ({ name, detail }));
}

/** Slots strictly after `afterMs`; null when the schedule must not run. */
function computeNextRunAt(definition: Definition, active: boolean, afterMs: number): Date | null {
  if (!active || !definition.enabled) return null;
  const next = nextSlot(calendarForDefinition(definition), afterMs);
  return next === undefined ? null : new Date(next);
}

export async function applyPlan(database: Database, plan: Plan, options: ApplyOptions): Promise<ApplyResult> {
  checkPlanIntegrity(plan);
  return database.db.transaction(async (tx) => {
    await acquireApplyLock(tx, options);
    if (await isPlanApplied(tx, plan.planId)) throw new PlanAlreadyAppliedError(plan.planId);
    const ids = plan.changes.flatMap((c) => (c.scheduleId === null ? [] : [c.scheduleId]));
    const locked = await lockSchedules(tx, ids, plan.changes.map((c) => c.name));
    const moved = await findMoved(tx, plan, locked);
    const storedPolicy = plan.policyChange ? await readStoredPolicy(tx) : null;
    if (plan.policyChange && (storedPolicy?.digest ?? null) !== plan.policyChange.beforeDigest) {
      moved.push({ name: 'policy', detail: 'changed since the plan' });
    }
    const storedAcceptances = plan.riskAcceptanceChange ? await readStoredRiskAcceptances(tx) : null;
    if (plan.riskAcceptanceChange && (storedAcceptances?.digest ?? null) !== plan.riskAcceptanceChange.beforeDigest) {
      moved.push({ name: 'risk acceptances', detail: 'changed since the plan' });
    }
    if (moved.length > 0) throw new StalePlanError(moved);

    const nowMs = options.clock.nowMs();
    const at = new Date(nowMs);
    const { actor, reason, gitSha } = options.author;
    const byId = new Map(locked.map((s) => [s.id, s]));
    const versions: NewScheduleVersion[] = [];
    const audit: NewAuditRow[] = [];
    const applied: ApplyResult['applied'] = [];
    for (const change of plan.changes) {
      const current = change.scheduleId === null ? undefined : byId.get(change.scheduleId);
      const definition = (change.after ?? current?.definition)!;
      const status = change.action === 'archive' ? 'ARCHIVED' : 'ACTIVE';
      const digest = change.afterDigest ?? current!.digest;
      let id: number;
      let version: number;
      if (change.action === 'create') {
        version = 1;
        id = await insertSchedule(tx, { name: change.name, definition, digest, nextRunAt: computeNextRunAt(definition, true, nowMs), at });
      } else {
        id = current!.id;
        version = current!.version + 1;
        // Slots the scheduler has not processed yet stay owed (from next_run_at on), so a change
        // never makes a due slot vanish; an archived schedule owes nothing for its archived time.
        const pendingFromMs = current!.nextRunAt ? Date.parse(current!.nextRunAt) - 1 : nowMs;
        const continueFromMs = change.action === 'restore' ? nowMs : Math.min(nowMs, pendingFromMs);
        await updateSchedule(tx, { id, name: change.name, version, definition, digest, status, nextRunAt: computeNextRunAt(definition, status === 'ACTIVE', continueFromMs), at });
      }
      versions.push({ scheduleId: id, version, name: change.name, definition, digest, status, actor, reason, gitSha, planId: plan.planId, createdAt: at });
      audit.push({ at, actor, action: AUDIT_ACTIONS[change.action], scheduleId: id, scheduleName: change.name, version, before: change.before, after: change.action === 'archive' ? null : change.after, reason, gitSha, planId: plan.planId });
      applied.push({ name: change.name, action: change.action, version });
    }
    if (plan.policyChange) {
      await writeStoredPolicy(tx, plan.policyChange.after, plan.policyChange.afterDigest, at);
      audit.push({ at, actor, action: 'POLICY_UPDATED', before: storedPolicy?.policy ?? null, after: plan.policyChange.after, reason, gitSha, planId: plan.planId });
    }
    if (plan.riskAcceptanceChange) {
      // Stored so the next plan counts these as reviewed: they were part of an applied change.
      await writeStoredRiskAcceptances(tx, plan.riskAcceptanceChange.after, plan.riskAcceptanceChange.afterDigest, at);
      audit.push({ at, actor, action: 'RISK_ACCEPTANCES_UPDATED', before: storedAcceptances?.acceptances ?? null, after: plan.riskAcceptanceChange.after, reason, gitSha, planId: plan.planId });
    }
    await insertScheduleVersions(tx, versions);
    await insertAuditRows(tx, audit);
    if (audit.length > 0) await notifySchedulesChanged(tx, plan.planId);
    return { planId: plan.planId, applied };
  });
}

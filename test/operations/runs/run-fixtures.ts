/**
 * Databases for the run-operation suites: a fresh migrated PGlite per test with schedules created
 * through the real path (manifest text → compileSources → plan → applyPlan), and small readers.
 */
import { sql } from 'drizzle-orm';
import { stringify } from 'yaml';
import { compileSources, type CompileResult } from '../../../src/compile/compile-sources.js';
import { queryRows, type Database } from '../../../src/db/client.js';
import { insertRuns, type NewRun } from '../../../src/db/scheduler-queries.js';
import type { ManifestSource } from '../../../src/manifest/load.js';
import type { ChangeAuthor } from '../../../src/operations/actor.js';
import { applyPlan } from '../../../src/operations/apply.js';
import { planAgainstDatabase } from '../../../src/operations/plan.js';
import { idempotencyKeyFor } from '../../../src/runner/run-types.js';
import type { RunStatus, TriggerType } from '../../../src/db/run-vocabulary.js';
import { ManualClock } from '../../../src/shared/clock.js';
import { createPgliteDatabase } from '../../support/databases.js';

/** 2026-11-29T12:00:00Z, a Sunday. */
export const NOW_MS = Date.parse('2026-11-29T12:00:00Z');
export const author: ChangeAuthor = { actor: 'oncall@example.com', reason: null, gitSha: null };

export function scheduleSource(name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): ManifestSource {
  const document = {
    apiVersion: 'cronform/v1',
    kind: 'Schedule',
    metadata: { name, owner: 'platform-team', ...metadata },
    spec: { cron: '0 3 * * *', timezone: 'UTC', job: { type: 'command', command: ['node', `jobs/${name}.js`] }, ...spec },
  };
  return { file: `schedules/${name}.yaml`, text: stringify(document) };
}

export function policySource(spec: Record<string, unknown>): ManifestSource {
  return { file: 'schedules/policy.yaml', text: stringify({ apiVersion: 'cronform/v1', kind: 'Policy', metadata: { name: 'default' }, spec }) };
}

export function compileValid(sources: ManifestSource[], nowMs = NOW_MS): CompileResult {
  const compiled = compileSources(sources, nowMs);
  const errors = compiled.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(`test manifests are invalid: ${JSON.stringify(errors, null, 2)}`);
  return compiled;
}

export async function applySources(database: Database, sources: ManifestSource[], nowMs = NOW_MS, options: { allowMassArchive?: boolean } = {}): Promise<void> {
  const plan = await planAgainstDatabase(database, compileValid(sources, nowMs), { nowMs, allowMassArchive: options.allowMassArchive ?? false });
  await applyPlan(database, plan, { author: { actor: 'ci', reason: 'test', gitSha: null }, clock: new ManualClock(nowMs), lockTimeoutMs: 1000 });
}

export async function databaseWith(sources: ManifestSource[], nowMs = NOW_MS): Promise<Database> {
  const database = await createPgliteDatabase();
  await applySources(database, sources, nowMs);
  return database;
}

export async function scheduleIdOf(database: Database, name: string): Promise<number> {
  const [row] = await queryRows<{ id: number }>(database.db, sql`select id from schedules where name = ${name}`);
  return Number(row!.id);
}

/** Inserts runs as the scheduler would, with a given status; returns their ids in slot order. */
export async function insertRunsAt(
  database: Database,
  name: string,
  runs: Array<{ slot: string; status: RunStatus; trigger?: TriggerType; reason?: string | null; attempts?: number; summarizedSlots?: number }>,
  nowMs = NOW_MS,
): Promise<number[]> {
  const scheduleId = await scheduleIdOf(database, name);
  const ids: number[] = [];
  for (const run of runs) {
    const slotMs = Date.parse(run.slot);
    const trigger = run.trigger ?? 'SCHEDULED';
    const ended = ['SUCCESS', 'FAILED', 'SKIPPED', 'MISSED', 'CANCELLED'].includes(run.status);
    const newRun: NewRun = {
      scheduleId,
      scheduleVersion: 1,
      scheduledFor: new Date(slotMs),
      triggerType: trigger,
      idempotencyKey: idempotencyKeyFor(name, slotMs, trigger),
      status: run.status,
      statusReason: run.reason ?? null,
      priority: 2,
      queue: 'default',
      businessDate: run.slot.slice(0, 10),
      runAfter: new Date(slotMs),
      maxAttempts: 1,
      summarizedSlots: run.summarizedSlots ?? null,
      finishedAt: ended ? new Date(slotMs + 60_000) : null,
    };
    const [inserted] = await database.db.transaction((tx) => insertRuns(tx, [newRun], new Date(nowMs)));
    if (run.attempts !== undefined) await database.db.execute(sql`update schedule_runs set attempts = ${run.attempts} where id = ${inserted!.id}`);
    ids.push(inserted!.id);
  }
  return ids;
}

export interface RunRow {
  id: number;
  scheduled_for: string;
  trigger_type: string;
  status: string;
  status_reason: string | null;
  priority: number;
  queue: string;
  business_date: string | null;
  attempts: number;
  max_attempts: number;
  idempotency_key: string;
  lease_owner: string | null;
  run_after: string;
  finished_at: string | null;
}

export async function runsOf(database: Database, name: string): Promise<RunRow[]> {
  const rows = await queryRows<Record<string, unknown>>(
    database.db,
    sql`select r.id, r.scheduled_for, r.trigger_type, r.status, r.status_reason, r.priority, r.queue, r.business_date::text as business_date,
          r.attempts, r.max_attempts, r.idempotency_key, r.lease_owner, r.run_after, r.finished_at
        from schedule_runs r join schedules s on s.id = r.schedule_id where s.name = ${name} order by r.scheduled_for, r.trigger_type, r.id`,
  );
  const iso = (value: unknown) => (value === null ? null : new Date(value as string | Date).toISOString());
  return rows.map((r) => ({ ...(r as unknown as RunRow), id: Number(r.id), scheduled_for: iso(r.scheduled_for)!, run_after: iso(r.run_after)!, finished_at: iso(r.finished_at) }));
}

export interface AuditRow {
  action: string;
  actor: string;
  schedule_name: string | null;
  run_id: number | null;
  before: unknown;
  after: unknown;
  reason: string | null;
}

/** Audit rows of operations (apply's create rows and Policy rows left out), oldest first. */
export async function auditRows(database: Database): Promise<AuditRow[]> {
  const rows = await queryRows<AuditRow>(
    database.db,
    sql`select action, actor, schedule_name, run_id, before, after, reason from audit_log where action not like 'SCHEDULE_CREATED' and action not like 'POLICY_%' order by id`,
  );
  return rows.map((r) => ({ ...r, run_id: r.run_id === null ? null : Number(r.run_id) }));
}

/** Notifications received on a channel while `body` runs. */
export async function notificationsDuring(database: Database, channel: string, body: () => Promise<unknown>): Promise<string[]> {
  const received: string[] = [];
  const stop = await database.listen(channel, (payload) => received.push(payload));
  try {
    await body();
    // PGlite delivers notifications after the transaction's commit, asynchronously.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    await stop();
  }
  return received;
}

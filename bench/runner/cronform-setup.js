/**
 * Driving cronform's built library (dist/) for the benchmark: migrate, apply generated manifests the
 * way `cronform apply` does (compile → plan against the database → apply), and bulk-create QUEUED
 * runs with the scheduler's own insert.
 */
import { openDatabase } from '../../dist/db/client.js';
import { migrateDatabase } from '../../dist/db/migrate.js';
import { compileSources } from '../../dist/compile/compile-sources.js';
import { planAgainstDatabase } from '../../dist/operations/plan.js';
import { applyPlan } from '../../dist/operations/apply.js';
import { insertRuns, notifyRunsQueued } from '../../dist/db/scheduler-queries.js';
import { systemClock } from '../../dist/shared/clock.js';
import { ensureDayPartitions } from '../../dist/db/run-partitions.js';

export { notifyRunsQueued };

export async function openMigrated(url, maxConnections = 10) {
  const database = await openDatabase({ url, maxConnections });
  await migrateDatabase(database);
  // The run tables' days a runner running for days would have made (db/run-partitions.ts): the
  // benchmark's runs (slots up to a day back) go to their day's partition, as in production,
  // not to the DEFAULT partition of days nobody made.
  const nowMs = systemClock.nowMs();
  await ensureDayPartitions(database, nowMs - 3 * 86_400_000, nowMs + 2 * 86_400_000);
  return database;
}

/** compile → plan → apply, each phase timed; throws when the plan has errors. */
export async function applySources(database, sources) {
  const t0 = performance.now();
  const compiled = compileSources(sources, systemClock.nowMs());
  const compileMs = performance.now() - t0;
  const errors = compiled.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(`manifests have ${errors.length} error(s), first: ${errors[0].code} ${errors[0].message}`);
  const t1 = performance.now();
  const plan = await planAgainstDatabase(database, compiled, { nowMs: systemClock.nowMs() });
  const planMs = performance.now() - t1;
  if (plan.errors.length > 0) throw new Error(`plan has ${plan.errors.length} error(s), first: ${plan.errors[0].code} ${plan.errors[0].message}`);
  const t2 = performance.now();
  const result = await applyPlan(database, plan, { author: { actor: 'bench', reason: null, gitSha: null }, clock: systemClock, lockTimeoutMs: 60_000 });
  const applyMs = performance.now() - t2;
  return { schedules: compiled.schedules.length, changes: result.applied.length, compileMs, planMs, applyMs };
}

export async function listSchedules(database) {
  const result = await database.db.$client.query('select id, name, version from schedules order by id');
  return result.rows.map((row) => ({ id: Number(row.id), name: row.name, version: row.version }));
}

/**
 * `count` QUEUED MANUAL runs spread round-robin over `schedules`, inserted `batchSize` per
 * transaction with insertRuns, then one NOTIFY (never one per row) unless `notify` is false;
 * due a second ago unless `runAfterMs` says when; in queue `default`, or round-robin over `queues`
 * queues q1…qN when more than one. Returns the elapsed ms.
 */
export async function createQueuedRuns(database, schedules, { count, batchSize = 1000, slotOffset = 0, notify = true, runAfterMs = undefined, queues = 1 }) {
  const t0 = performance.now();
  const nowMs = systemClock.nowMs();
  // slotOffset: a second batch's slots follow the first's (their slot keys never collide).
  const baseMs = Math.floor(nowMs / 1000) * 1000 - 86_400_000 + slotOffset;
  for (let start = 0; start < count; start += batchSize) {
    const runs = [];
    for (let i = start; i < Math.min(count, start + batchSize); i += 1) {
      const schedule = schedules[i % schedules.length];
      const scheduledFor = new Date(baseMs + i);
      runs.push({
        scheduleId: schedule.id,
        scheduleVersion: schedule.version,
        scheduledFor,
        triggerType: 'MANUAL',
        idempotencyKey: `${schedule.name}:${scheduledFor.toISOString()}:MANUAL`,
        status: 'QUEUED',
        statusReason: null,
        priority: 2,
        queue: queues > 1 ? `q${(i % queues) + 1}` : 'default',
        businessDate: null,
        runAfter: new Date(runAfterMs ?? nowMs - 1000),
        maxAttempts: 1,
        summarizedSlots: null,
        finishedAt: null,
      });
    }
    await database.db.transaction((tx) => insertRuns(tx, runs, new Date(nowMs)));
  }
  if (notify) await notifyRunsQueued(database.db);
  return performance.now() - t0;
}

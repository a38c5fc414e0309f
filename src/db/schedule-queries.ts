/**
 * Statements about schedules, their versions and the audit log, named by intent (STYLE rule 3).
 */
import { and, count, desc, eq, inArray, isNotNull, max, sql, type SQL } from 'drizzle-orm';
import type { Definition, DefinitionTiming } from '../compile/definition.js';
import type { RunHistory, StoredSchedule, StoredScheduleSummary } from '../compile/stored-schedule.js';
import { queryRows, type Executor } from './client.js';
import { auditLog, scheduleRuns, scheduleVersions, schedules } from './schema.js';

type ScheduleRow = typeof schedules.$inferSelect;
type SummaryRow = Pick<ScheduleRow, 'id' | 'name' | 'version' | 'digest' | 'status' | 'managed' | 'pausedAt' | 'pausedBy' | 'pausedReason' | 'pausedUntil' | 'nextRunAt'>;

function toSummary(row: SummaryRow, timing: DefinitionTiming, versionDigest: string | null): StoredScheduleSummary {
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    digest: row.digest,
    timing,
    status: row.status as StoredSchedule['status'],
    managed: row.managed,
    paused: row.pausedAt
      ? { at: row.pausedAt.toISOString(), by: row.pausedBy, reason: row.pausedReason, until: row.pausedUntil ? row.pausedUntil.toISOString() : null }
      : null,
    versionDigest,
    nextRunAt: row.nextRunAt ? row.nextRunAt.toISOString() : null,
  };
}

function toStoredSchedule(row: ScheduleRow, versionDigest: string | null): StoredSchedule {
  return { ...toSummary(row, row.definition, versionDigest), definition: row.definition };
}

export async function listStoredSchedules(executor: Executor): Promise<StoredSchedule[]> {
  const rows = await executor
    .select({ schedule: schedules, versionDigest: scheduleVersions.digest })
    .from(schedules)
    .leftJoin(scheduleVersions, and(eq(scheduleVersions.scheduleId, schedules.id), eq(scheduleVersions.version, schedules.version)))
    .orderBy(schedules.name);
  return rows.map((r) => toStoredSchedule(r.schedule, r.versionDigest));
}

/** One summary as listStoredScheduleSummaries' query sends it: a JSON array, instants as epoch milliseconds. */
type SummaryTuple = [
  id: number,
  name: string,
  version: number,
  digest: string,
  status: StoredSchedule['status'],
  managed: boolean,
  pausedAtMs: number | null,
  pausedBy: string | null,
  pausedReason: string | null,
  pausedUntilMs: number | null,
  nextRunAtMs: number | null,
  versionDigest: string | null,
  cron: string,
  timezone: string,
  enabled: boolean,
  dayMatch: DefinitionTiming['dayMatch'],
  gap: DefinitionTiming['dst']['gap'],
  fold: DefinitionTiming['dst']['fold'],
];

const isoOf = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/**
 * Every schedule without its definition, only the timing fields out of it: a plan of 10,000
 * schedules changes a few hundred, and transferring and parsing the other definitions was most of
 * its load time. The definitions it needs come from `loadDefinitions`.
 *
 * The rows arrive as one JSON text, parsed at once: decoding 10,000 rows of 18 columns through the
 * wire protocol and the ORM took ~2.5× as long (PGlite: ~250 ms against ~100 ms). Instants are
 * epoch milliseconds rounded down, as the drivers' Dates are, as bigint: exact in JSON whatever the
 * session's extra_float_digits.
 */
export async function listStoredScheduleSummaries(executor: Executor): Promise<StoredScheduleSummary[]> {
  const ms = (column: SQL) => sql`floor(extract(epoch from ${column}) * 1000)::bigint`;
  const [row] = await queryRows<{ summaries: string }>(
    executor,
    sql`select coalesce(json_agg(json_build_array(
          s.id, s.name, s.version, s.digest, s.status, s.managed,
          ${ms(sql`s.paused_at`)}, s.paused_by, s.paused_reason, ${ms(sql`s.paused_until`)}, ${ms(sql`s.next_run_at`)}, v.digest,
          s.definition->>'cron', s.definition->>'timezone', (s.definition->'enabled')::boolean, s.definition->>'dayMatch',
          s.definition->'dst'->>'gap', s.definition->'dst'->>'fold'
        ) order by s.name), '[]')::text as summaries
        from schedules s left join schedule_versions v on v.schedule_id = s.id and v.version = s.version`,
  );
  return (JSON.parse(row!.summaries) as SummaryTuple[]).map(([id, name, version, digest, status, managed, pausedAtMs, pausedBy, pausedReason, pausedUntilMs, nextRunAtMs, versionDigest, cron, timezone, enabled, dayMatch, gap, fold]) => ({
    id,
    name,
    version,
    digest,
    timing: { name, cron, timezone, enabled, dayMatch, dst: { gap, fold } },
    status,
    managed,
    paused: pausedAtMs === null ? null : { at: isoOf(pausedAtMs)!, by: pausedBy, reason: pausedReason, until: isoOf(pausedUntilMs) },
    versionDigest,
    nextRunAt: isoOf(nextRunAtMs),
  }));
}

/** The stored definitions of the given schedules, by id. */
export async function loadDefinitions(executor: Executor, ids: number[]): Promise<Map<number, Definition>> {
  if (ids.length === 0) return new Map();
  const rows = await executor
    .select({ id: schedules.id, definition: schedules.definition })
    .from(schedules)
    .where(sql`${schedules.id} = any(${sql.param(ids)}::bigint[])`);
  return new Map(rows.map((row) => [row.id, row.definition]));
}

/** Locks the rows a plan touches (apply holds them until commit), by id and by name. */
export async function lockSchedules(executor: Executor, ids: number[], names: string[]): Promise<StoredSchedule[]> {
  if (ids.length === 0 && names.length === 0) return [];
  const rows = await executor
    .select({ schedule: schedules, versionDigest: scheduleVersions.digest })
    .from(schedules)
    .leftJoin(scheduleVersions, and(eq(scheduleVersions.scheduleId, schedules.id), eq(scheduleVersions.version, schedules.version)))
    .where(sql`${schedules.id} = any(${sql.param(ids)}::bigint[]) or ${schedules.name} = any(${sql.param(names)}::text[])`)
    .orderBy(schedules.id)
    .for('update', { of: schedules });
  return rows.map((r) => toStoredSchedule(r.schedule, r.versionDigest));
}

export async function loadRunHistory(executor: Executor, scheduleIds: number[], nowMs: number): Promise<Map<number, RunHistory>> {
  const history = new Map<number, RunHistory>();
  if (scheduleIds.length === 0) return history;
  const since = new Date(nowMs - 30 * 86_400_000);
  const rows = await executor
    .select({
      scheduleId: scheduleRuns.scheduleId,
      lastRunAt: max(scheduleRuns.startedAt),
      recent: sql<number>`count(*) filter (where ${scheduleRuns.startedAt} >= ${since})`.mapWith(Number),
    })
    .from(scheduleRuns)
    .where(and(inArray(scheduleRuns.scheduleId, scheduleIds), isNotNull(scheduleRuns.startedAt)))
    .groupBy(scheduleRuns.scheduleId);
  for (const row of rows) history.set(row.scheduleId, { lastRunAt: row.lastRunAt ? new Date(row.lastRunAt).toISOString() : null, runsLast30Days: row.recent });
  return history;
}

export interface NewSchedule {
  name: string;
  definition: Definition;
  digest: string;
  nextRunAt: Date | null;
  at: Date;
}

export async function insertSchedule(executor: Executor, values: NewSchedule): Promise<number> {
  const [row] = await executor
    .insert(schedules)
    .values({ name: values.name, version: 1, definition: values.definition, digest: values.digest, status: 'ACTIVE', managed: true, nextRunAt: values.nextRunAt, createdAt: values.at, updatedAt: values.at })
    .returning({ id: schedules.id });
  return row!.id;
}

export interface ScheduleUpdate {
  id: number;
  name: string;
  version: number;
  definition: Definition;
  digest: string;
  status: 'ACTIVE' | 'ARCHIVED';
  nextRunAt: Date | null;
  at: Date;
}

export async function updateSchedule(executor: Executor, values: ScheduleUpdate): Promise<void> {
  await executor
    .update(schedules)
    .set({ name: values.name, version: values.version, definition: values.definition, digest: values.digest, status: values.status, nextRunAt: values.nextRunAt, updatedAt: values.at })
    .where(eq(schedules.id, values.id));
}

export type NewScheduleVersion = typeof scheduleVersions.$inferInsert;
export type NewAuditRow = typeof auditLog.$inferInsert;

/**
 * PostgreSQL accepts at most 65,535 parameters per statement; a version row has 12 columns and an
 * audit row 11, so large applies are written in chunks (still inside the caller's transaction).
 */
const ROWS_PER_INSERT = 2_000;

function chunk<T>(rows: T[]): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) chunks.push(rows.slice(start, start + ROWS_PER_INSERT));
  return chunks;
}

export async function insertScheduleVersions(executor: Executor, rows: NewScheduleVersion[]): Promise<void> {
  for (const part of chunk(rows)) await executor.insert(scheduleVersions).values(part);
}

export async function insertAuditRows(executor: Executor, rows: NewAuditRow[]): Promise<void> {
  for (const part of chunk(rows)) await executor.insert(auditLog).values(part);
}

export async function isPlanApplied(executor: Executor, planId: string): Promise<boolean> {
  const [row] = await executor.select({ n: count() }).from(auditLog).where(eq(auditLog.planId, planId));
  return (row?.n ?? 0) > 0;
}

/** Who last changed a schedule, for "refused: X moved (by Y)" messages. */
export async function findLastChange(executor: Executor, scheduleId: number): Promise<{ actor: string; action: string; at: Date } | undefined> {
  const [row] = await executor
    .select({ actor: auditLog.actor, action: auditLog.action, at: auditLog.at })
    .from(auditLog)
    .where(eq(auditLog.scheduleId, scheduleId))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return row;
}

export async function listVersions(executor: Executor, name: string) {
  return executor
    .select()
    .from(scheduleVersions)
    .where(eq(scheduleVersions.scheduleId, sql`(select id from ${schedules} where ${schedules.name} = ${name})`))
    .orderBy(scheduleVersions.version);
}

export async function findVersionsByName(executor: Executor, name: string, versions: number[]) {
  return executor
    .select()
    .from(scheduleVersions)
    .where(and(inArray(scheduleVersions.version, versions), eq(scheduleVersions.scheduleId, sql`(select id from ${schedules} where ${schedules.name} = ${name})`)));
}

/** Advisory locks are released at commit or rollback, and when a crashed session's connection dies. */
export async function tryAdvisoryTransactionLock(executor: Executor, key: number): Promise<boolean> {
  const [row] = await queryRows<{ locked: boolean }>(executor, sql`select pg_try_advisory_xact_lock(${key}) as locked`);
  return row?.locked === true;
}

export const SCHEDULES_CHANNEL = 'cronform_schedules';

export async function notifySchedulesChanged(executor: Executor, payload: string): Promise<void> {
  await executor.execute(sql`select pg_notify(${SCHEDULES_CHANNEL}, ${payload})`);
}

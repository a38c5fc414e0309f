/**
 * Statements of dependencies and run contexts (docs/workflows.md): the dependents of upstream runs
 * that just succeeded, read in the transaction that wrote the SUCCESS (so the downstream runs
 * commit with it or not at all), and the `run_contexts` rows that pin what a run was given.
 */
import { sql } from 'drizzle-orm';
import type { Definition } from '../compile/definition.js';
import { queryRows, type Executor } from './client.js';

export interface DependentOfRun {
  upstreamRunId: number;
  upstreamScheduledFor: Date;
  upstreamBusinessDate: string | null;
  scheduleId: number;
  scheduleName: string;
  scheduleVersion: number;
  definition: Definition;
  pausedAt: Date | null;
  pausedUntil: Date | null;
}

interface DependentRow {
  upstream_run_id: string | number;
  upstream_scheduled_for: Date | string;
  upstream_business_date: string | null;
  schedule_id: string | number;
  schedule_name: string;
  schedule_version: number;
  definition: Definition | string;
  paused_at: Date | string | null;
  paused_until: Date | string | null;
}

const toDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

/**
 * Active schedules whose `spec.after` names the schedule of one of `runIds`, with the upstream run.
 * The containment test is what schedules_after_idx serves (one index probe per upstream name).
 */
export async function findDependentsOfRuns(tx: Executor, runIds: number[]): Promise<DependentOfRun[]> {
  if (runIds.length === 0) return [];
  const rows = await queryRows<DependentRow>(
    tx,
    sql`select u.id as upstream_run_id, u.scheduled_for as upstream_scheduled_for, u.business_date::text as upstream_business_date,
          d.id as schedule_id, d.name as schedule_name, d.version as schedule_version, d.definition, d.paused_at, d.paused_until
        from schedule_runs u
        join schedules us on us.id = u.schedule_id
        join schedules d on (d.definition -> 'after') @> jsonb_build_array(jsonb_build_object('schedule', us.name))
        where u.id = any(${sql.param(runIds)}::bigint[]) and d.status = 'ACTIVE'
        order by u.id, d.id`,
  );
  return rows.map((row) => ({
    upstreamRunId: Number(row.upstream_run_id),
    upstreamScheduledFor: toDate(row.upstream_scheduled_for),
    upstreamBusinessDate: row.upstream_business_date,
    scheduleId: Number(row.schedule_id),
    scheduleName: row.schedule_name,
    scheduleVersion: row.schedule_version,
    definition: typeof row.definition === 'string' ? (JSON.parse(row.definition) as Definition) : row.definition,
    pausedAt: row.paused_at === null ? null : toDate(row.paused_at),
    pausedUntil: row.paused_until === null ? null : toDate(row.paused_until),
  }));
}

/** Of `keys` (schedule, business date), those that have a DEPENDENCY run: deadlines already met. */
export async function findDependencyRunDates(tx: Executor, keys: Array<{ scheduleId: number; businessDate: string }>): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const payload = JSON.stringify(keys.map((k) => ({ schedule_id: k.scheduleId, business_date: k.businessDate })));
  const rows = await queryRows<{ schedule_id: string | number; business_date: string }>(
    tx,
    sql`select distinct r.schedule_id, r.business_date::text as business_date
        from schedule_runs r join jsonb_to_recordset(${payload}::jsonb) as x(schedule_id bigint, business_date date)
          on r.schedule_id = x.schedule_id and r.business_date = x.business_date
        where r.trigger_type = 'DEPENDENCY'`,
  );
  return new Set(rows.map((row) => `${row.schedule_id}:${row.business_date}`));
}

/** The upstream run of DEPENDENCY runs just created; a row that exists already is left alone. */
export async function recordUpstreamRuns(tx: Executor, links: Array<{ runId: number; upstreamRunId: number }>): Promise<void> {
  if (links.length === 0) return;
  const payload = JSON.stringify(links.map((link) => ({ run_id: link.runId, upstream_run_id: link.upstreamRunId })));
  await tx.execute(
    sql`insert into run_contexts (run_id, upstream_run_id)
        select run_id, upstream_run_id from jsonb_to_recordset(${payload}::jsonb) as x(run_id bigint, upstream_run_id bigint)
        on conflict (run_id) do nothing`,
  );
}

export interface StoredRunContext {
  runId: number;
  upstreamRunId: number | null;
  inputs: Record<string, string> | null;
}

interface ContextRow {
  run_id: string | number;
  upstream_run_id: string | number | null;
  inputs: Record<string, string> | string | null;
}

const toContext = (row: ContextRow): StoredRunContext => ({
  runId: Number(row.run_id),
  upstreamRunId: row.upstream_run_id === null ? null : Number(row.upstream_run_id),
  inputs: typeof row.inputs === 'string' ? (JSON.parse(row.inputs) as Record<string, string>) : row.inputs,
});

/**
 * Stores each run's inputs unless it has some already, and returns what is stored: the first
 * claim's values win, so a retry (on this runner or another, today or next week) reads exactly
 * what the first attempt got. Runs passed with `inputs: null` are only read.
 */
export async function freezeRunInputs(tx: Executor, runs: Array<{ runId: number; inputs: Record<string, string> | null }>): Promise<StoredRunContext[]> {
  if (runs.length === 0) return [];
  const payload = JSON.stringify(runs.map((run) => ({ run_id: run.runId, inputs: run.inputs })));
  const rows = await queryRows<ContextRow>(
    tx,
    sql`with input as (select run_id, inputs from jsonb_to_recordset(${payload}::jsonb) as x(run_id bigint, inputs jsonb)),
        written as (
          insert into run_contexts (run_id, inputs)
          select run_id, inputs from input where inputs is not null
          on conflict (run_id) do update set inputs = coalesce(run_contexts.inputs, excluded.inputs)
          returning run_id, upstream_run_id, inputs
        )
        select run_id, upstream_run_id, inputs from written
        union all
        select c.run_id, c.upstream_run_id, c.inputs from run_contexts c join input i on i.run_id = c.run_id
        where i.inputs is null`,
  );
  return rows.map(toContext);
}

/** The stored contexts of runs (`runs show`); a run without one has no row. */
export async function loadRunContexts(executor: Executor, runIds: number[]): Promise<Map<number, StoredRunContext>> {
  if (runIds.length === 0) return new Map();
  const rows = await queryRows<ContextRow>(executor, sql`select run_id, upstream_run_id, inputs from run_contexts where run_id = any(${sql.param(runIds)}::bigint[])`);
  return new Map(rows.map((row) => [Number(row.run_id), toContext(row)]));
}

/** The DEPENDENCY runs an upstream run created (`runs show` of the upstream). */
export async function findDownstreamRuns(executor: Executor, upstreamRunId: number): Promise<Array<{ runId: number; scheduleName: string; status: string }>> {
  const rows = await queryRows<{ id: string | number; name: string; status: string }>(
    executor,
    sql`select r.id, s.name, r.status from run_contexts c join schedule_runs r on r.id = c.run_id join schedules s on s.id = r.schedule_id
        where c.upstream_run_id = ${upstreamRunId} order by r.id`,
  );
  return rows.map((row) => ({ runId: Number(row.id), scheduleName: row.name, status: row.status }));
}

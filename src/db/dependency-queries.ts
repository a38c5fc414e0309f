/**
 * Statements of dependencies and run contexts (docs/workflows.md): the DEPENDENCY runs of upstream
 * runs that just succeeded, created in the transaction that wrote the SUCCESS (so they commit with
 * it or not at all), and the `run_contexts` rows that pin what a run was given.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from './client.js';

/**
 * The spec.after rule, run by `cronform.create_dependency_runs` (migration dependency-runs-sql),
 * the one implementation a runner's SUCCESS and a queue worker's `run_finished` share: the
 * DEPENDENCY runs it created for upstream runs that are SUCCESS now (none when it is replayed).
 */
export async function insertDependencyRuns(tx: Executor, upstreamRunIds: number[], now: Date): Promise<Array<{ runId: number; status: string }>> {
  if (upstreamRunIds.length === 0) return [];
  const rows = await queryRows<{ created_run_id: string | number; created_status: string }>(
    tx,
    sql`select created_run_id, created_status from cronform.create_dependency_runs(${sql.param(upstreamRunIds)}::bigint[], ${now.toISOString()}::timestamptz)`,
  );
  return rows.map((row) => ({ runId: Number(row.created_run_id), status: row.created_status }));
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

export interface StoredRunContext {
  runId: number;
  upstreamRunId: number | null;
  /** Every upstream run of a DEPENDENCY run: schedule name → run id. */
  upstreamRunIds: Record<string, number> | null;
  inputs: Record<string, string> | null;
}

interface ContextRow {
  run_id: string | number;
  upstream_run_id: string | number | null;
  upstream_run_ids: Record<string, number> | string | null;
  inputs: Record<string, string> | string | null;
}

const toContext = (row: ContextRow): StoredRunContext => ({
  runId: Number(row.run_id),
  upstreamRunId: row.upstream_run_id === null ? null : Number(row.upstream_run_id),
  upstreamRunIds: typeof row.upstream_run_ids === 'string' ? (JSON.parse(row.upstream_run_ids) as Record<string, number>) : row.upstream_run_ids,
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
          returning run_id, upstream_run_id, upstream_run_ids, inputs
        )
        select run_id, upstream_run_id, upstream_run_ids, inputs from written
        union all
        select c.run_id, c.upstream_run_id, c.upstream_run_ids, c.inputs from run_contexts c join input i on i.run_id = c.run_id
        where i.inputs is null`,
  );
  return rows.map(toContext);
}

/** The stored contexts of runs (`runs show`); a run without one has no row. */
export async function loadRunContexts(executor: Executor, runIds: number[]): Promise<Map<number, StoredRunContext>> {
  if (runIds.length === 0) return new Map();
  const rows = await queryRows<ContextRow>(executor, sql`select run_id, upstream_run_id, upstream_run_ids, inputs from run_contexts where run_id = any(${sql.param(runIds)}::bigint[])`);
  return new Map(rows.map((row) => [Number(row.run_id), toContext(row)]));
}

/**
 * The DEPENDENCY runs an upstream run took part in (`runs show` of the upstream): those its SUCCESS
 * created, and the joins it was one of the upstreams of (found by its business date).
 */
export async function findDownstreamRuns(executor: Executor, upstreamRunId: number): Promise<Array<{ runId: number; scheduleName: string; status: string }>> {
  const rows = await queryRows<{ id: string | number; name: string; status: string }>(
    executor,
    sql`with downstream as (
          select c.run_id from run_contexts c where c.upstream_run_id = ${upstreamRunId}
          union
          select j.run_id from schedule_runs u join schedules us on us.id = u.schedule_id
            join dependency_joins j on j.business_date = u.business_date
            join run_contexts c on c.run_id = j.run_id and c.upstream_run_ids @> jsonb_build_object(us.name, u.id)
          where u.id = ${upstreamRunId}
        )
        select r.id, s.name, r.status from downstream d join schedule_runs r on r.id = d.run_id join schedules s on s.id = r.schedule_id
        order by r.id`,
  );
  return rows.map((row) => ({ runId: Number(row.id), scheduleName: row.name, status: row.status }));
}

/**
 * Seeds a migrated PostgreSQL database for the dashboard benchmark with set-based SQL
 * (generate_series), not through apply and the scheduler: 10,000 schedules and 1,000,000 runs
 * take a minute this way instead of an hour. The stored definitions are real ones (one schedule
 * compiled by the built compiler, its name, cron and flags varied in SQL), so the dashboard reads
 * what apply would have written.
 *
 * The shape, relative to `nowMs`:
 * - `heavy` schedules every minute, with `heavyRuns` runs each (the longest run histories);
 * - the others every 5 minutes, hourly or daily (by id), sharing the remaining runs, newest
 *   slots up to now;
 * - 1 in 100 schedules needs approval, 1 in 200 is paused;
 * - runs: ~95 % SUCCESS, 3 % FAILED, 1 % SKIPPED/OVERLAP, 0.5 % MISSED, 0.5 % MANUAL_REQUIRED;
 *   start delays 0–3 s with a tail, durations 1–60 s; one attempt per executed run, with tails.
 */
import { compileSources } from '../../dist/compile/compile-sources.js';

function templateDefinition(nowMs) {
  const text = [
    'apiVersion: cronform/v1',
    'kind: Schedule',
    'metadata: { name: template, owner: platform-team, description: "Nightly export of the ledger" }',
    'spec:',
    '  cron: "0 3 * * *"',
    '  timezone: Europe/Paris',
    '  job: { type: command, command: [node, jobs/export.js, "--date", "{{businessDate}}"] }',
    '',
  ].join('\n');
  const compiled = compileSources([{ file: 'schedules/template.yaml', text }], nowMs);
  const errors = compiled.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(`template manifest invalid: ${errors[0].message}`);
  return compiled.schedules[0];
}

/** @param {import('pg').Client} client */
export async function seedDashboardDatabase(client, { nowMs, schedules, runs, heavy = 10, heavyRuns = 10_000 }) {
  const template = templateDefinition(nowMs);
  const now = new Date(nowMs).toISOString();
  const perLight = Math.floor((runs - heavy * heavyRuns) / (schedules - heavy));
  if (perLight < 1) throw new Error('too few runs for that many schedules');
  // Interval in seconds by schedule id: the first `heavy` every minute, then 5 min, 1 h, 1 d.
  const interval = `(case when s.id <= ${heavy} then 60 when s.id % 3 = 0 then 300 when s.id % 3 = 1 then 3600 else 86400 end)`;
  await client.query('begin');
  await client.query(
    `insert into schedules (name, version, definition, digest, status, managed, paused_at, paused_by, paused_reason, next_run_at, last_scheduled_for)
     select format('team-%s-job-%s', lpad((g % 40)::text, 2, '0'), lpad(g::text, 5, '0')), 1,
       jsonb_set(jsonb_set(jsonb_set($1::jsonb, '{name}', to_jsonb(format('team-%s-job-%s', lpad((g % 40)::text, 2, '0'), lpad(g::text, 5, '0')))),
         '{cron}', to_jsonb(case when g <= ${heavy} then '* * * * *' when g % 3 = 0 then '*/5 * * * *' when g % 3 = 1 then '17 * * * *' else '30 2 * * *' end)),
         '{approval}', to_jsonb(case when g % 100 = 7 then 'required' else 'none' end)),
       $2, 'ACTIVE', true,
       case when g % 200 = 11 then $3::timestamptz - interval '2 hours' end,
       case when g % 200 = 11 then 'oncall@example.com' end,
       case when g % 200 = 11 then 'vendor outage' end,
       $3::timestamptz + interval '1 minute', $3::timestamptz
     from generate_series(1, $4::int) g`,
    [JSON.stringify(template.definition), template.digest, now, schedules],
  );
  await client.query(
    `insert into schedule_versions (schedule_id, version, name, definition, digest, status, actor)
     select id, 1, name, definition, digest, 'ACTIVE', 'bench' from schedules`,
  );
  // Slot k of schedule s is now − k × interval; k = 1 … n(s). Status from a hash of (s, k).
  await client.query(
    `insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, status_reason, priority, queue,
       business_date, run_after, attempts, max_attempts, created_at, started_at, finished_at)
     select s.id, 1, slot, 'SCHEDULED', s.name || ':' || slot || ':SCHEDULED', st.status,
       case st.status when 'SKIPPED' then 'OVERLAP' when 'MISSED' then 'GRACE_EXCEEDED' end, 2, 'default',
       slot::date, slot, case when st.executed then 1 else 0 end, 1, slot,
       case when st.executed then slot + make_interval(secs => delay_s) end,
       case when st.status in ('SUCCESS', 'FAILED') then slot + make_interval(secs => delay_s + duration_s)
            when st.status in ('SKIPPED', 'MISSED') then slot end
     from schedules s
     cross join lateral generate_series(1, case when s.id <= ${heavy} then ${heavyRuns} else ${perLight} end) k
     cross join lateral (select $1::timestamptz - make_interval(secs => k * ${interval}) as slot,
       abs(hashint8(s.id * 100003 + k)) % 1000 as h) v
     cross join lateral (select case when v.h < 30 then 'FAILED' when v.h < 40 then 'SKIPPED' when v.h < 45 then 'MISSED'
       when v.h < 50 and k > 3 then 'MANUAL_REQUIRED' when k = 1 and v.h < 60 then 'RUNNING' else 'SUCCESS' end as status) st0
     cross join lateral (select st0.status, st0.status in ('SUCCESS', 'FAILED', 'RUNNING') as executed,
       (v.h % 30) / 10.0 + case when v.h % 97 = 0 then 40 else 0 end as delay_s, 1 + v.h % 60 as duration_s) st`,
    [now],
  );
  await client.query(
    `insert into run_attempts (run_id, attempt, scheduled_for, runner_id, status, started_at, finished_at, exit_code, error, stdout_tail, stderr_tail)
     select r.id, 1, r.scheduled_for, 'bench-runner-' || (r.id % 4), case r.status when 'SUCCESS' then 'SUCCEEDED' when 'FAILED' then 'FAILED' else 'RUNNING' end,
       r.started_at, r.finished_at,
       case r.status when 'SUCCESS' then 0 when 'FAILED' then 1 end,
       case when r.status = 'FAILED' then 'exit code 1' end,
       case when r.status <> 'RUNNING' then 'exported ' || (r.id % 1000) || ' rows' end,
       case when r.status = 'FAILED' then 'Error: connection refused (ECONNREFUSED 10.0.0.7:5432)' end
     from schedule_runs r where r.started_at is not null`,
  );
  await client.query('commit');
  await client.query('analyze');
}

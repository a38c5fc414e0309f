/**
 * What the runner's write pattern costs at best, and what other patterns would (issue 20, "a leaner
 * write path"): each pattern's claim and outcome statements replayed inside the server, with no
 * client, no runner and no job, so that only the writes and their lookups are measured.
 *
 *   npm run build && node bench/runner/write-floors.js [--count 5000] [--batch 100] [--rounds 1] [--server URL]
 *
 * For each pattern, on a fresh database with cronform's schema, 200 schedules and `count` QUEUED
 * runs (as the throughput benchmark makes them): one DO block claims `batch` runs in claim order
 * and commits, writes their outcome (SUCCESS, an attempt row) and commits, until none is left. It
 * prints the WAL per run without full-page images (pg_walinspect, PostgreSQL 15+; full-page images
 * depend on when the server checkpoints) and the block's time (one backend, so its server time;
 * commits do not wait for the flush, and runs are reached by index as the runner reaches them):
 *   today          the runner's statements: the claim locks the run rows (SKIP LOCKED), updates
 *                  them RUNNING with the attempt's columns, and the statement trigger copies the
 *                  change to active_runs; the outcome updates the run and inserts the attempt row;
 *   run-once       the run row written once, at the outcome: the claim updates only the run's
 *                  active_runs row (status RUNNING, lease columns added to it for the replay);
 *   run-once-hot   the same, with the claim's update of active_runs HOT: status in no index of
 *                  active_runs (its indexes replaced by one claim-order index with no predicate),
 *                  a claim marking the lease only.
 * Neither of the last two is built; they measure what such a redesign could reach. The runner
 * itself (`wal-by-relation.js`) should measure close to `today`.
 */
import { parseArgs } from 'node:util';
import { createDatabase, DEFAULT_SERVER_URL, connect } from './databases.js';
import { openMigrated, applySources, listSchedules, createQueuedRuns } from './cronform-setup.js';
import { policyDocument, throughputSchedules, toSources } from './manifests.js';

const { values: flags } = parseArgs({
  options: {
    count: { type: 'string', default: '5000' },
    batch: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '1' },
    server: { type: 'string' },
    only: { type: 'string' },
  },
});
const count = Number(flags.count);
const batch = Number(flags.batch);
const serverUrl = flags.server ?? process.env.BENCH_DATABASE_URL ?? DEFAULT_SERVER_URL;

// The outcome of a batch claimed by `claimed` (a CTE of run_id, scheduled_for, before it): the run
// SUCCESS and its attempt's row, as completeAttempts writes them; `claimSets`, what the claim would
// have set on the run row, for the patterns whose claim leaves it alone.
const outcome = (claimSets = '') => `
  done as (
    update schedule_runs r set status = 'SUCCESS', ${claimSets} finished_at = clock_timestamp(), lease_owner = null, lease_expires_at = null
    from claimed c where r.id = c.run_id and r.scheduled_for = c.scheduled_for
    returning r.id, r.scheduled_for, r.attempts, r.attempt_started_at
  )
  insert into run_attempts (run_id, attempt, scheduled_for, runner_id, status, started_at, finished_at, exit_code)
  select id, attempts, scheduled_for, 'r1', 'SUCCEEDED', attempt_started_at, clock_timestamp(), 0 from done`;
/** The run row's one write, when the claim does not touch it: the claim's columns and the outcome. */
const RUN_ROW_ONCE = 'attempts = r.attempts + 1, started_at = coalesce(r.started_at, now()), attempt_started_at = now(),';

const PATTERNS = {
  today: {
    setup: [],
    claim: `
      with candidates as (
        select a.run_id, a.scheduled_for from active_runs a where a.status = 'QUEUED' and a.run_after <= now()
        order by a.priority, a.scheduled_for, a.run_id limit ${batch}
      ),
      locked as (
        select r.id, r.scheduled_for from schedule_runs r join candidates c on c.run_id = r.id and c.scheduled_for = r.scheduled_for
        where r.status = 'QUEUED' for update of r skip locked
      )
      update schedule_runs r set status = 'RUNNING', attempts = r.attempts + 1, lease_owner = 'r1', lease_expires_at = now() + interval '30 s',
        started_at = coalesce(r.started_at, now()), attempt_status = 'RUNNING', attempt_started_at = now()
      from locked l where r.id = l.id and r.scheduled_for = l.scheduled_for
      returning r.id as run_id, r.scheduled_for`,
    outcome: outcome(),
  },
  'run-once': {
    setup: ['alter table active_runs add column lease_owner text, add column lease_expires_at timestamptz'],
    claim: `
      update active_runs a set status = 'RUNNING', lease_owner = 'r1', lease_expires_at = now() + interval '30 s'
      where a.run_id in (
        select run_id from active_runs where status = 'QUEUED' and run_after <= now()
        order by priority, scheduled_for, run_id limit ${batch} for update skip locked
      )
      returning a.run_id, a.scheduled_for`,
    outcome: outcome(RUN_ROW_ONCE),
  },
  'run-once-hot': {
    setup: [
      'alter table active_runs add column lease_owner text, add column lease_expires_at timestamptz',
      'drop index active_runs_schedule_idx, active_runs_running_idx, active_runs_retry_idx, active_runs_run_after_idx, active_runs_claim_idx, active_runs_manual_idx',
      'create index active_runs_claim_order_idx on active_runs (priority, scheduled_for, run_id)',
    ],
    claim: `
      update active_runs a set lease_owner = 'r1', lease_expires_at = now() + interval '30 s'
      where a.run_id in (
        select run_id from active_runs where lease_owner is null and status = 'QUEUED' and run_after <= now()
        order by priority, scheduled_for, run_id limit ${batch} for update skip locked
      )
      returning a.run_id, a.scheduled_for`,
    outcome: outcome(RUN_ROW_ONCE),
  },
};

/** One pattern on a fresh database: WAL bytes per run without full-page images, server ms, runs done. */
async function measure(pattern) {
  const { url, name, drop } = await createDatabase(serverUrl, 'floors');
  try {
    const setup = await openMigrated(url);
    try {
      await applySources(setup, toSources(policyDocument(), throughputSchedules(200)));
      await createQueuedRuns(setup, await listSchedules(setup), { count, notify: false });
    } finally {
      await setup.close();
    }
    const client = await connect(url);
    try {
      for (const statement of pattern.setup) await client.query(statement);
      await client.query('create extension if not exists pg_walinspect');
      await client.query('analyze');
      await client.query('checkpoint');
      await client.query(`select pg_create_physical_replication_slot($1, true, true)`, [name]);
      const { rows: [{ start, dboid }] } = await client.query(`select pg_current_wal_insert_lsn()::text as start, (select oid from pg_database where datname = current_database())::text as dboid`);
      // The claim returns what it took; the outcome gets it as the runner passes it (arrays).
      const body = `
        declare ids bigint[]; slots timestamptz[];
        begin
          loop
            with taken as (${pattern.claim}) select array_agg(run_id), array_agg(scheduled_for) into ids, slots from taken;
            exit when ids is null;
            commit;
            with claimed as (select * from unnest(ids, slots) as c(run_id, scheduled_for)), ${pattern.outcome};
            commit;
          end loop;
        end`;
      // Runs reached by key, as the runner's statements reach them (INDEX_SCANS_ONLY, preferIndexScans):
      // with a few thousand runs the planner would rather hash a whole day of them per batch.
      await client.query('set enable_seqscan = off');
      await client.query('set enable_bitmapscan = off');
      // The time is the server's work: commits do not wait for the WAL flush (a disk's latency, the same
      // for every pattern; the WAL written is the same either way).
      await client.query('set synchronous_commit = off');
      const t0 = performance.now();
      await client.query(`do $do$${body}$do$`);
      const serverMs = performance.now() - t0;
      const { rows: [{ end }] } = await client.query(`select pg_current_wal_insert_lsn()::text as end`);
      while (!(await client.query(`select pg_current_wal_flush_lsn() >= $1::pg_lsn as flushed`, [end])).rows[0].flushed) await new Promise((resolve) => setTimeout(resolve, 20));
      const { rows: [{ bytes }] } = await client.query(
        `select coalesce(sum(record_length - fpi_length), 0)::bigint as bytes from pg_get_wal_records_info($1::pg_lsn, $2::pg_lsn)
         where block_ref is null or (regexp_match(block_ref, 'rel \\d+/(\\d+)/'))[1] = $3`,
        [start, end, dboid],
      );
      const { rows: [{ done }] } = await client.query(`select count(*)::int as done from schedule_runs where status = 'SUCCESS'`);
      return { bytesPerRun: Number(bytes) / done, serverMs, done };
    } finally {
      await client.end();
    }
  } finally {
    await drop();
  }
}

const names = flags.only ? flags.only.split(',') : Object.keys(PATTERNS);
console.log(`Write-pattern floors: ${count} no-op runs, batches of ${batch}, replayed in one server backend (no client); ${flags.rounds} round(s)\n`);
console.log('| pattern | WAL B/run (no full-page images) | server ms | µs/run | runs done |');
console.log('| --- | --- | --- | --- | --- |');
for (let round = 0; round < Number(flags.rounds); round++) {
  for (const name of names) {
    const pattern = PATTERNS[name];
    if (!pattern) throw new Error(`unknown pattern ${name} (${Object.keys(PATTERNS).join(', ')})`);
    const { bytesPerRun, serverMs, done } = await measure(pattern);
    if (done !== count) console.log(`(${name}: ${done} of ${count} runs done: the pattern missed some)`);
    console.log(`| ${name} | ${bytesPerRun.toFixed(0)} | ${serverMs.toFixed(0)} | ${((1000 * serverMs) / done).toFixed(1)} | ${done} |`);
  }
}

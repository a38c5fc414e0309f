/**
 * Where the WAL of a no-op run goes, relation by relation (issue 20, "a leaner write path").
 *
 *   npm run build && node bench/runner/wal-by-relation.js [--count 5000] [--by-record] [--server URL] [--keep]
 *
 * On a fresh database: 200 schedules and `count` QUEUED runs (as the throughput benchmark makes
 * them), a checkpoint, then one runner with the no-op executor (concurrency 10) until every run is
 * final. The WAL between the two points is read back with pg_walinspect (PostgreSQL 15+, contrib)
 * and grouped by the relation each record's first block belongs to, in this database only (other
 * databases on the server are left out), with full-page images apart: they depend on when the
 * server checkpoints, the rest does not. WAL volume does not depend on the machine's load, so
 * this one runs on a busy machine too.
 */
import { parseArgs } from 'node:util';
import { createDatabase, DEFAULT_SERVER_URL, connect } from './databases.js';
import { openMigrated, applySources, listSchedules, createQueuedRuns } from './cronform-setup.js';
import { policyDocument, throughputSchedules, toSources } from './manifests.js';
import { openDatabase } from '../../dist/db/client.js';
import { Runner } from '../../dist/runner/runner.js';
import { systemClock } from '../../dist/shared/clock.js';

const { values: flags } = parseArgs({
  options: { count: { type: 'string', default: '5000' }, server: { type: 'string' }, keep: { type: 'boolean', default: false }, 'by-record': { type: 'boolean', default: false } },
});
const count = Number(flags.count);
const serverUrl = flags.server ?? process.env.BENCH_DATABASE_URL ?? DEFAULT_SERVER_URL;
const { url, name, drop } = await createDatabase(serverUrl, 'walprof');

const noop = async () => ({ status: 'SUCCEEDED', exitCode: 0, httpStatus: null, error: null, stdoutTail: null, stderrTail: null, durationMs: 0 });

try {
  const setup = await openMigrated(url);
  try {
    await applySources(setup, toSources(policyDocument(), throughputSchedules(200)));
    await createQueuedRuns(setup, await listSchedules(setup), { count });
  } finally {
    await setup.close();
  }
  const probe = await connect(url);
  try {
    await probe.query('create extension if not exists pg_walinspect');
    await probe.query('checkpoint');
    // A slot of this connection holds the WAL from here on: a checkpoint meanwhile (other
    // databases on the server write too) must not recycle the segments before they are read.
    await probe.query(`select pg_create_physical_replication_slot($1, true, true)`, [name]);
    const { rows: [{ start, dboid }] } = await probe.query(`select pg_current_wal_insert_lsn()::text as start, (select oid from pg_database where datname = current_database())::text as dboid`);

    const database = await openDatabase({ url, maxConnections: 12 });
    const runner = new Runner(database, { clock: systemClock, concurrency: 10, leaseMs: 30_000, baseDir: process.cwd(), env: process.env, execute: noop });
    await runner.start();
    for (;;) {
      const { rows } = await probe.query(`select count(*)::int as n from active_runs where status in ('QUEUED', 'RUNNING', 'RETRY_PENDING')`);
      if (rows[0].n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await runner.stop();
    await database.close();
    const { rows: [{ end }] } = await probe.query(`select pg_current_wal_insert_lsn()::text as end`);
    // pg_walinspect reads only what is flushed: wait until the end is (the WAL writer flushes it).
    while (!(await probe.query(`select pg_current_wal_flush_lsn() >= $1::pg_lsn as flushed`, [end])).rows[0].flushed) await new Promise((resolve) => setTimeout(resolve, 20));

    // block_ref starts "blkref #0: rel 1663/<db>/<relfilenode> …"; records without a block (commit,
    // running_xacts) are grouped by their resource manager.
    const { rows } = await probe.query(
      `with records as (
         select resource_manager, record_type, record_length, fpi_length,
           (regexp_match(block_ref, 'rel \\d+/(\\d+)/(\\d+)')) as rel
         from pg_get_wal_records_info($1::pg_lsn, $2::pg_lsn)
       )
       select coalesce(c.relname, case when r.rel is null then '(' || r.resource_manager || ' ' || split_part(r.record_type, ' ', 1) || ')' else '(relfilenode ' || r.rel[2] || ')' end)
           || case when $4 and r.rel is not null then ' ' || r.resource_manager || '/' || r.record_type else '' end as what,
         count(*)::int as records, sum(r.record_length - r.fpi_length)::bigint as bytes, sum(r.fpi_length)::bigint as fpi_bytes
       from records r
       left join pg_class c on r.rel is not null and r.rel[1] = $3 and c.relfilenode = r.rel[2]::oid
       where r.rel is null or r.rel[1] = $3
       group by 1 order by 3 desc`,
      [start, end, dboid, flags['by-record']],
    );
    const { rows: [{ runs }] } = await probe.query(`select count(*)::int as runs from schedule_runs where status = 'SUCCESS'`);
    const total = rows.reduce((sum, r) => sum + Number(r.bytes), 0);
    const fpi = rows.reduce((sum, r) => sum + Number(r.fpi_bytes), 0);
    console.log(`cronform WAL by relation: ${runs} no-op runs (of ${count}), 1 runner × concurrency 10, database ${name}`);
    console.log(`total ${(total / runs).toFixed(0)} B/run without full-page images, ${(fpi / runs).toFixed(0)} B/run of full-page images\n`);
    console.log('| relation or record kind | records/run | bytes/run | share | full-page bytes/run |');
    console.log('| --- | --- | --- | --- | --- |');
    for (const r of rows) {
      if (Number(r.bytes) / runs < 1 && Number(r.fpi_bytes) / runs < 1) continue;
      console.log(`| ${r.what} | ${(r.records / runs).toFixed(2)} | ${(Number(r.bytes) / runs).toFixed(0)} | ${((100 * Number(r.bytes)) / total).toFixed(1)}% | ${(Number(r.fpi_bytes) / runs).toFixed(0)} |`);
    }
  } finally {
    await probe.end();
  }
} finally {
  if (flags.keep) console.log(`kept ${url}`);
  else await drop();
}

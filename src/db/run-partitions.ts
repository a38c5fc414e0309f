/**
 * The run tables' days (migration 0023, docs/retention.md): `schedule_runs` and `run_attempts` are
 * partitioned by the run's slot, one partition per UTC day named `<table>_pYYYYMMDD`, plus a
 * DEFAULT partition for slots no day covers and, on a database that had runs before 0023, one
 * `<table>_legacy` partition holding every slot before the day after the newest of them.
 *
 * Runners create the coming days ahead (`ensureDayPartitions`), and retention drops a whole day
 * once its runs have expired (`dropExpiredDay`) instead of deleting them row by row. Both tables
 * are always changed together, in one transaction: a run's attempts are in its run's day.
 */
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database, type Executor } from './client.js';
import { integerArray, instantArray } from './array-literal.js';
import { DELETED_WITH_RUN, PARTITIONED_RUN_TABLES } from './run-history-tables.js';
import { rollupUpsertSql, type RetentionSubjectCutoff } from './retention-queries.js';
import { FINAL_STATUSES } from './run-vocabulary.js';
import { MS_PER_DAY } from '../time/civil.js';

/** Serializes partition changes across runners (creating days ahead, dropping old ones). */
const PARTITION_LOCK_KEY = 0x63666d05;

/**
 * How long partition changes wait for a lock. Attaching a day takes a lock that only other schema
 * changes wait for; detaching one (retention) takes the run tables whole for a moment, so it must
 * never queue long behind a transaction and hold every claim behind itself.
 */
const LOCK_TIMEOUT_MS = 1_000;

/** At most this many runs of an expired day may still have to be kept for the day to be dropped (they move to the DEFAULT partition). */
export const MAX_KEPT_RUNS_PER_DROPPED_DAY = 5_000;

export interface RunPartition {
  name: string;
  /** Range bounds in epoch ms; null for MINVALUE (the legacy partition) or for the DEFAULT partition. */
  fromMs: number | null;
  toMs: number | null;
  isDefault: boolean;
  /** A day partition (`schedule_runs_pYYYYMMDD`), which retention may drop. */
  isDay: boolean;
}

const dayNamePattern = /^schedule_runs_p(\d{8})$/;

/** `<table>_pYYYYMMDD` of the UTC day starting at `dayMs`. */
export function dayPartitionName(table: (typeof PARTITIONED_RUN_TABLES)[number], dayMs: number): string {
  return `${table}_p${new Date(dayMs).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

/** The partitions of `schedule_runs` (run_attempts has the same), with their bounds. */
export async function listRunPartitions(executor: Executor): Promise<RunPartition[]> {
  const rows = await queryRows<{ name: string; is_default: boolean; from_ms: string | number | null; to_ms: string | number | null }>(
    executor,
    sql`select c.relname as name, b.expr = 'DEFAULT' as is_default,
          (extract(epoch from ((regexp_match(b.expr, 'FROM \\(''([^'']*)''\\)'))[1])::timestamptz) * 1000)::float8 as from_ms,
          (extract(epoch from ((regexp_match(b.expr, 'TO \\(''([^'']*)''\\)'))[1])::timestamptz) * 1000)::float8 as to_ms
        from pg_inherits i join pg_class c on c.oid = i.inhrelid
        cross join lateral (select pg_get_expr(c.relpartbound, c.oid) as expr) b
        where i.inhparent = to_regclass('schedule_runs')
        order by from_ms nulls first, c.relname`,
  );
  return rows.map((r) => ({
    name: r.name,
    isDefault: r.is_default,
    isDay: dayNamePattern.test(r.name),
    fromMs: r.from_ms === null ? null : Number(r.from_ms),
    toMs: r.to_ms === null ? null : Number(r.to_ms),
  }));
}

export interface EnsureResult {
  created: string[];
  /** Days left to the DEFAULT or legacy partition: rows of that day are already there, or a partition covers part of it. */
  skipped: string[];
}

/**
 * Creates the day partitions of both tables for the UTC days from `fromMs`'s to `toMs`'s (both
 * included) that have none. A day is left where its runs already are (the DEFAULT partition holds
 * some of its slots, or a partition covers part of it): rows never move to make room. Each table's
 * day is created standalone and then attached, once both tables' DEFAULT partitions are held
 * (attaching reads its table's DEFAULT whole); they are never waited for: a transaction reading one
 * of them at that moment, or another runner doing the same, makes this call skip the day until its
 * next try.
 */
export async function ensureDayPartitions(database: Database, fromMs: number, toMs: number): Promise<EnsureResult> {
  const result: EnsureResult = { created: [], skipped: [] };
  const existing = await listRunPartitions(database.db);
  for (let dayMs = Math.floor(fromMs / MS_PER_DAY) * MS_PER_DAY; dayMs <= toMs; dayMs += MS_PER_DAY) {
    const name = dayPartitionName('schedule_runs', dayMs);
    if (existing.some((p) => p.name === name)) continue;
    const endMs = dayMs + MS_PER_DAY;
    const overlaps = existing.some((p) => !p.isDefault && (p.fromMs ?? Number.NEGATIVE_INFINITY) < endMs && (p.toMs ?? Number.POSITIVE_INFINITY) > dayMs);
    if (overlaps) {
      result.skipped.push(name);
      continue;
    }
    const created = await database.db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local lock_timeout = ${LOCK_TIMEOUT_MS}`));
      const [lock] = await queryRows<{ got: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${PARTITION_LOCK_KEY}) as got`);
      // Another runner made the day since the list was read.
      if (!lock?.got || (await queryRows<{ present: boolean }>(tx, sql`select to_regclass(${name}) is not null as present`))[0]?.present) return false;
      // Both tables' DEFAULT partitions first, never waiting for them (lockBriefly): attaching a
      // day takes its table's DEFAULT partition whole, and a statement planned over every day (the
      // reconciler's expired leases) holds one table's DEFAULT while it waits for the other's.
      // Attaching both in turn, this transaction held schedule_runs' DEFAULT while it waited for
      // run_attempts', which that statement held while it waited for schedule_runs': a deadlock
      // (chaos suite, 40P01). Holding both before the first attach, it waits for no one's DEFAULT.
      if (!(await lockBriefly(tx, sql.raw(`${PARTITIONED_RUN_TABLES.map((table) => `"${table}_default"`).join(', ')} in access exclusive mode`)))) return false;
      const from = new Date(dayMs).toISOString();
      const to = new Date(endMs).toISOString();
      const [stray] = await queryRows<{ found: boolean }>(
        tx,
        sql`select exists (select 1 from schedule_runs where scheduled_for >= ${from}::timestamptz and scheduled_for < ${to}::timestamptz) as found`,
      );
      if (stray?.found) return false;
      for (const table of PARTITIONED_RUN_TABLES) {
        const partition = dayPartitionName(table, dayMs);
        // LIKE the parent: the same columns in the same order (retention moves rows with `select *`).
        await tx.execute(sql.raw(`create table "${partition}" (like "${table}" including defaults including constraints) with (fillfactor = 50)`));
        await tx.execute(sql.raw(`alter table "${table}" attach partition "${partition}" for values from ('${from}') to ('${to}')`));
      }
      return true;
    });
    (created ? result.created : result.skipped).push(name);
  }
  return result;
}

/** Serializes the runners' statistics refreshes (`refreshRunStatistics`): one ANALYZE at a time. */
const STATISTICS_LOCK_KEY = 0x63666d06;

/** A partition with no statistics yet (or last seen empty) gets them once it holds this many visible rows. */
const FIRST_STATISTICS_ROWS = 1_000;

/**
 * Gathers the planner's statistics of the run tables' partitions that need them; returns their
 * names. A day is made empty and fills as it goes, and until something gathers its statistics
 * PostgreSQL takes any slot range in it for half a per cent of its rows: it took a day of 20,000
 * runs for ~100 and hashed the whole day once per claim and per outcome batch instead of probing the
 * batch's runs by key (bench:runner). Autovacuum fixes that late, or never (it can lag behind a
 * burst, or be off), so runners do it: each at its first tick (before it claims) and every few
 * seconds after, one runner at a time, never waiting long for a lock. ANALYZE reads a sample of at
 * most 30,000 rows and blocks no write.
 *
 * Which: a partition with no statistics, or last seen empty, once it holds FIRST_STATISTICS_ROWS
 * rows this transaction can see (counted, not taken from PostgreSQL's activity counts, which a busy
 * backend reports up to ~10 s late); after that, autovacuum's rule (more than 50 + 10 % of its rows
 * written since). Once a day's statistics saw some of its rows, the planner scales them to the
 * day's size as it grows. Never from the table's size alone: gathered while a day's only rows were
 * a claim's uncommitted attempts, the statistics said it was empty, and PostgreSQL then planned for
 * one row however large it grew, re-reading the whole day for each outcome of a batch
 * (bench:runner, 4 processes: 500 runs/s, 3 ms of server CPU a run).
 */
export async function refreshRunStatistics(database: Database, options: { waitForOthers?: boolean } = {}): Promise<string[]> {
  return database.db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local lock_timeout = ${LOCK_TIMEOUT_MS}`));
    // Waiting (a runner's first tick): another runner's refresh ends within the lock timeout, and
    // what it gathered is then fresh here too; otherwise that runner has it in hand.
    if (options.waitForOthers) await tx.execute(sql`select pg_advisory_xact_lock(${STATISTICS_LOCK_KEY})`);
    else if (!(await queryRows<{ got: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${STATISTICS_LOCK_KEY}) as got`))[0]?.got) return [];
    const partitions = await queryRows<{ name: string; known: boolean; stale: boolean }>(
      tx,
      sql`select c.relname as name, c.reltuples > 0 as known,
            pg_stat_get_mod_since_analyze(c.oid) > 50 + 0.1 * greatest(c.reltuples, 0) as stale
          from pg_inherits i join pg_class c on c.oid = i.inhrelid
          where i.inhparent in (${sql.join(PARTITIONED_RUN_TABLES.map((table) => sql`to_regclass(${table})`), sql`, `)})
          order by c.relname`,
    );
    const chosen = partitions.filter((p) => p.known && p.stale).map((p) => p.name);
    const unknown = partitions.filter((p) => !p.known).map((p) => p.name);
    if (unknown.length > 0) {
      // One statement for all of them: the days ahead and the DEFAULT partitions are usually empty.
      const counted = unknown.map((name) => sql`select ${name}::text as name, (select count(*)::int from (select from ${sql.identifier(name)} limit ${FIRST_STATISTICS_ROWS}) t) as n`);
      const seen = await queryRows<{ name: string; n: number }>(tx, sql.join(counted, sql` union all `));
      chosen.push(...seen.filter((row) => row.n >= FIRST_STATISTICS_ROWS).map((row) => row.name));
    }
    chosen.sort();
    if (chosen.length > 0) await tx.execute(sql`analyze ${sql.join(chosen.map((name) => sql.identifier(name)), sql`, `)}`);
    return chosen;
  });
}

export type DayDropResult =
  | { dropped: true; deleted: number; kept: number }
  | { dropped: false; reason: 'nothing expired' | 'too many kept' | 'unfinished runs' | 'busy' };

const words = (list: readonly string[]) => sql.raw(list.map((word) => `'${word}'`).join(', '));

/**
 * Drops one expired day partition of both tables, in one transaction: its runs past their
 * schedule's retention (the same rule as the row-by-row deletion, retention-queries.ts) are
 * counted into the rollups and their side rows deleted, the few it must keep (a schedule's latest
 * `keepLast`, a schedule with a longer retention or none, a backfill that ran recently) move to the
 * DEFAULT partition, and the day's tables are dropped. Nothing happens when none of its runs has
 * expired, when more than MAX_KEPT_RUNS_PER_DROPPED_DAY would have to move, or when one of its runs
 * is unfinished (a run waiting for a human for weeks): the row-by-row deletion handles that day.
 *
 * The day is first locked against writes (its runs are final; only an operator's retry or approve
 * could change one), and the run tables are held whole only from the detach to the commit, which
 * moves the kept runs and drops two tables.
 */
export async function dropExpiredDay(database: Database, day: RunPartition, subjects: RetentionSubjectCutoff[]): Promise<DayDropResult> {
  if (!day.isDay || day.fromMs === null) throw new Error(`not a day partition of schedule_runs: ${day.name}`);
  const runsTable = sql.raw(`"${day.name}"`);
  const attemptsTable = sql.raw(`"${dayPartitionName('run_attempts', day.fromMs)}"`);
  const ids = integerArray(subjects.map((s) => s.scheduleId));
  const cutoffs = instantArray(subjects.map((s) => s.cutoff));
  const keeps = integerArray(subjects.map((s) => s.keepLast));
  const drop = database.db.transaction(async (tx): Promise<DayDropResult> => {
    await tx.execute(sql.raw(`set local lock_timeout = ${LOCK_TIMEOUT_MS}`));
    const [lock] = await queryRows<{ got: boolean; present: boolean }>(
      tx,
      sql`select pg_try_advisory_xact_lock(${PARTITION_LOCK_KEY}) as got, to_regclass(${day.name}) is not null as present`,
    );
    // Another runner holds the partitions now, or dropped this day since the list was read.
    if (!lock?.got || !lock.present) return { dropped: false, reason: 'busy' };
    if (!(await lockBriefly(tx, sql`${runsTable}, ${attemptsTable} in share mode`))) throw new DayDropBusy();
    // Every run of the day that stays, with whether it is final (at most one more than may move).
    const kept = await queryRows<{ id: string | number; final: boolean }>(
      tx,
      sql`with subjects as (
            select * from unnest(${ids}::bigint[], ${cutoffs}::timestamptz[], ${keeps}::int[]) as u(schedule_id, cutoff, keep_last)
            where u.schedule_id in (select distinct schedule_id from ${runsTable})
          ),
          rules as (
            select u.schedule_id, u.cutoff,
              case when u.keep_last = 0 then 'infinity'::timestamptz
                else coalesce((select k.scheduled_for from schedule_runs k where k.schedule_id = u.schedule_id order by k.scheduled_for desc offset u.keep_last - 1 limit 1), '-infinity'::timestamptz) end as kept_from
            from subjects u
          )
          select r.id, r.status in (${words(FINAL_STATUSES)}) as final from ${runsTable} r left join rules k on k.schedule_id = r.schedule_id
          where not coalesce(r.scheduled_for < least(k.cutoff, k.kept_from) and r.status in (${words(FINAL_STATUSES)}) and coalesce(r.finished_at, r.created_at) < k.cutoff, false)
          limit ${MAX_KEPT_RUNS_PER_DROPPED_DAY + 1}`,
    );
    if (kept.length > MAX_KEPT_RUNS_PER_DROPPED_DAY) return { dropped: false, reason: 'too many kept' };
    if (kept.some((r) => !r.final)) return { dropped: false, reason: 'unfinished runs' };
    const keptIds = integerArray(kept.map((r) => Number(r.id)));
    // `id <> all(array)`: with no run kept, an empty array (every run expired), never NULL.
    const expired: SQL = kept.length === 0 ? sql`${runsTable}` : sql`(select * from ${runsTable} where id <> all(${keptIds}::bigint[]))`;
    const [count] = await queryRows<{ n: string | number }>(tx, sql`select count(*) as n from ${expired} e`);
    const deleted = Number(count?.n ?? 0);
    // An empty day (made ahead, and no run had its slot there) goes too.
    if (deleted === 0 && kept.length > 0) return { dropped: false, reason: 'nothing expired' };
    await tx.execute(rollupUpsertSql(sql`${expired} e`));
    for (const table of DELETED_WITH_RUN) {
      if (table === 'run_attempts') continue; // dropped with the day
      await tx.execute(sql`delete from ${sql.raw(`"${table}"`)} where run_id in (select id from ${expired} e)`);
    }
    if (!(await lockBriefly(tx, sql`schedule_runs, run_attempts in access exclusive mode`))) throw new DayDropBusy();
    for (const table of PARTITIONED_RUN_TABLES) {
      const partition = table === 'schedule_runs' ? runsTable : attemptsTable;
      await tx.execute(sql`alter table ${sql.raw(`"${table}"`)} detach partition ${partition}`);
    }
    if (kept.length > 0) {
      // No day partition covers these slots any more: they land in the DEFAULT partition.
      await tx.execute(sql`insert into schedule_runs overriding system value select * from ${runsTable} where id = any(${keptIds}::bigint[])`);
      await tx.execute(sql`insert into run_attempts select * from ${attemptsTable} where run_id = any(${keptIds}::bigint[])`);
    }
    await tx.execute(sql`drop table ${runsTable}, ${attemptsTable}`);
    return { dropped: true, deleted, kept: kept.length };
  });
  // Busy at the detach: everything this transaction did is rolled back, and the day waits.
  return drop.catch((error: unknown) => {
    if (error instanceof DayDropBusy) return { dropped: false, reason: 'busy' } as const;
    throw error;
  });
}

class DayDropBusy extends Error {}

/**
 * A lock taken without ever waiting in the lock queue: first the day's partitions (SHARE, against
 * writes), later the run tables whole (ACCESS EXCLUSIVE, which the detach needs). A statement
 * planned over every day (a lookup by id alone) holds the tables and then each day: waiting for
 * the tables while holding the day would deadlock it (reproduced on PostgreSQL 15), and any
 * waiting request would queue the claims, or such statements, behind it. NOWAIT, tried a few
 * times 10 ms apart, each in its own savepoint; false when it never got it.
 */
async function lockBriefly(tx: Executor, what: SQL): Promise<boolean> {
  for (let tries = 0; tries < 20; tries += 1) {
    try {
      await tx.transaction(async (savepoint) => {
        await savepoint.execute(sql`lock table ${what} nowait`);
      });
      return true;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  return false;
}

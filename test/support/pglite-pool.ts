/**
 * Migrated PGlite instances reused within one test file. Loading the migrated image into a new
 * PGlite costs about 0.6 s of CPU; emptying a used one costs a few milliseconds. So a test's
 * `close()` does not close its PGlite: it empties it (TRUNCATE … RESTART IDENTITY CASCADE of every
 * table the image has, LISTEN and advisory locks released, session settings reset) and keeps it
 * for the file's next `createPgliteDatabase()`. An instance is handed to one test at a time, so two
 * databases open in one test are still two databases.
 *
 * Reuse must be invisible, so an instance is reused only when it is provably back in the image's
 * state: its catalog fingerprint (tables, columns, defaults, constraints, triggers, functions,
 * grants, roles, storage options, sequences, the migrations table) equals the image's. A test that
 * changed the schema, a role or a grant, dropped the migrations table, or left the instance closed
 * or broken costs the next test a fresh load instead. After `close()` the old handle refuses every
 * query, so a late query from a test that has ended can never touch the next test's data.
 */
import { PGlite } from '@electric-sql/pglite';
import { listenPglite, type Database } from '../../src/db/client.js';
import { pgliteDatabase } from './database-templates.js';

/** Everything a test could change that emptying the tables does not restore. */
const FINGERPRINT_SQL = `
with parts(part) as (
  select format('class %s %s %s %s %s', c.oid::regclass, c.relkind, c.relacl, c.reloptions, pg_get_userbyid(c.relowner))
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
   where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
  union all
  select format('column %s %s %s %s %s %s', a.attrelid::regclass, a.attname, a.atttypid::regtype, a.attnotnull, a.attisdropped, pg_get_expr(d.adbin, d.adrelid))
    from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
   where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and a.attnum > 0
  union all
  select format('constraint %s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid)) from pg_constraint
   where connamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
  union all
  select format('trigger %s %s %s', tgrelid::regclass, tgname, tgenabled) from pg_trigger where not tgisinternal
  union all
  select format('function %s %s %s', oid::regprocedure, md5(prosrc), proacl) from pg_proc
   where pronamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
  union all
  select format('schema %s %s', nspname, nspacl) from pg_namespace
  union all
  select format('role %s %s %s %s %s %s', rolname, rolsuper, rolcanlogin, rolinherit, rolconnlimit, rolbypassrls) from pg_roles
  union all
  select format('member %s %s', roleid, member) from pg_auth_members
  union all
  select format('database %s %s', datname, datacl) from pg_database
  union all
  select format('setting %s %s %s', setdatabase, setrole, setconfig) from pg_db_role_setting
  union all
  select format('extension %s %s', extname, extversion) from pg_extension
  union all
  select format('sequence %s.%s %s', schemaname, sequencename, last_value) from pg_sequences
  union all
  select format('migration %s %s', hash, created_at) from drizzle.__drizzle_migrations
)
select md5(string_agg(part, E'\\n' order by part)) as fingerprint from parts`;

/** SQL that empties every table of the image except the migrations bookkeeping. */
const TABLES_SQL = `select format('%I.%I', schemaname, tablename) as name from pg_tables
 where schemaname not in ('pg_catalog', 'information_schema', 'drizzle') order by 1`;

interface Pristine {
  /** One TRUNCATE per table: a statement trigger may truncate another table (active_runs). */
  emptyTables: string;
  fingerprint: string;
}

let pristine: Promise<Pristine> | undefined;
const idle: PGlite[] = [];
/** Instances this file loaded, reused, and discarded as not reusable (test/db/databases.test.ts). */
export const pgliteCounts = { loaded: 0, reused: 0, discarded: 0 };

async function fingerprintOf(client: PGlite): Promise<string> {
  const result = await client.query<{ fingerprint: string }>(FINGERPRINT_SQL);
  return result.rows[0]!.fingerprint;
}

async function readPristine(client: PGlite): Promise<Pristine> {
  const tables = (await client.query<{ name: string }>(TABLES_SQL)).rows.map((row) => row.name);
  return { emptyTables: tables.map((table) => `truncate ${table} restart identity cascade;`).join('\n'), fingerprint: await fingerprintOf(client) };
}

async function loadInstance(image: Blob): Promise<PGlite> {
  const client = new PGlite({ loadDataDir: image });
  await client.waitReady;
  pgliteCounts.loaded += 1;
  pristine ??= readPristine(client);
  await pristine;
  return client;
}

/** Empties `client` and tells whether it is back in the image's state (else it is closed). */
async function resetForReuse(client: PGlite): Promise<boolean> {
  try {
    if (client.closed) return false;
    const { emptyTables, fingerprint } = await pristine!;
    await client.exec(`${emptyTables}\nunlisten *; select pg_advisory_unlock_all(); reset all;`);
    if ((await fingerprintOf(client)) === fingerprint) return true;
  } catch {
    // A broken instance is simply not reused.
  }
  pgliteCounts.discarded += 1;
  await client.close().catch(() => undefined);
  return false;
}

/** A handle on `client` for one test: every method refuses once the test has closed it. */
function guard(client: PGlite, isReleased: () => boolean): PGlite {
  return new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function' || property === 'constructor') return value;
      return (...args: unknown[]) => {
        if (isReleased()) throw new Error(`this test's PGlite database was closed (${String(property)} after close())`);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** A migrated PGlite for one test, from this file's idle instances or loaded from `image`. */
export async function leasePgliteDatabase(image: () => Promise<Blob>): Promise<Database> {
  let client = idle.pop();
  if (client) pgliteCounts.reused += 1;
  else client = await loadInstance(await image());
  const leased = client;
  let released = false;
  const handle = guard(leased, () => released);
  const unsubscribes: Array<() => Promise<void>> = [];
  const database = pgliteDatabase(handle, 'embedded PGlite (test)');
  return {
    ...database,
    async listen(channel, onNotify) {
      const unsubscribe = await listenPglite(handle, channel, onNotify);
      unsubscribes.push(unsubscribe);
      return unsubscribe;
    },
    async close() {
      if (released) return;
      released = true;
      for (const unsubscribe of unsubscribes.splice(0)) await unsubscribe().catch(() => undefined);
      if (await resetForReuse(leased)) idle.push(leased);
    },
  };
}

/**
 * One throwaway database per system and benchmark (`bench_<system>_<random>`), so peers never share
 * notification channels (graphile-worker's are global to the database) and every run starts empty.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

function urlForDatabase(serverUrl, name) {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onServer(serverUrl, statement) {
  const client = new pg.Client({ connectionString: serverUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Creates `bench_<system>_<random>`; returns its URL and a drop function (idempotent). */
export async function createDatabase(serverUrl, system) {
  const name = `bench_${system.replace(/[^a-z0-9]/g, '_')}_${randomBytes(4).toString('hex')}`;
  await onServer(serverUrl, `create database ${pg.escapeIdentifier(name)}`);
  let dropped = false;
  return {
    name,
    url: urlForDatabase(serverUrl, name),
    drop: async () => {
      if (dropped) return;
      dropped = true;
      await onServer(serverUrl, `drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
    },
  };
}

/** Runs `body(database)` on a fresh database and drops it afterwards unless `keep`. */
export async function withFreshDatabase(serverUrl, system, options, body) {
  const database = await createDatabase(serverUrl, system);
  try {
    return await body(database);
  } finally {
    if (options.keep) console.log(`  (kept database ${database.name})`);
    else await database.drop().catch((error) => console.warn(`  could not drop ${database.name}: ${error.message}`));
  }
}

/** A small client for the benchmark's own measurements (counts, timestamps). */
export async function connect(url) {
  const client = new pg.Client({ connectionString: url });
  // A dropped connection (server restarted by another client) fails the next query, not the process.
  client.on('error', (error) => console.error(`  measurement connection lost: ${error.message}`));
  await client.connect();
  return client;
}

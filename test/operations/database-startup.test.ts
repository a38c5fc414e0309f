import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/db/migrate.js';
import { SchemaBehindError } from '../../src/db/migrate.js';
import { openChosenDatabaseWhenReachable } from '../../src/operations/database.js';
import { silentLogger } from '../../src/shared/logger.js';
import { createPostgresDatabase, postgresServerUrl } from '../support/databases.js';
import { freePort } from '../support/processes.js';

/** A loopback TCP proxy to the real server, started only when the test says the outage is over. */
function startProxy(port: number, target: URL): net.Server {
  return net
    .createServer((client) => {
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    })
    .listen(port, '127.0.0.1');
}

describe.runIf(postgresServerUrl)('runner start-up while the database is down', () => {
  it('waits with backoff until the database is reachable instead of exiting', async () => {
    const server = await createPostgresDatabase();
    const migrated = await server.open();
    await migrateDatabase(migrated);
    const port = await freePort();
    const target = new URL(server.url);
    const viaProxy = new URL(server.url);
    viaProxy.host = `127.0.0.1:${port}`;
    const waits: number[] = [];
    let proxy: net.Server | undefined;
    try {
      const database = await openChosenDatabaseWhenReachable({ databaseUrl: viaProxy.toString(), cwd: process.cwd() }, silentLogger, async (ms) => {
        waits.push(ms);
        if (waits.length === 2) proxy = startProxy(port, target);
      });
      await database.close();
      expect(waits).toEqual([1000, 2000]);
    } finally {
      proxy?.close();
      await server.drop();
    }
  });

  it('still fails at once when the schema is behind (an operator must migrate)', async () => {
    const server = await createPostgresDatabase({ migrated: false });
    try {
      await expect(openChosenDatabaseWhenReachable({ databaseUrl: server.url, cwd: process.cwd() }, silentLogger, async () => undefined)).rejects.toThrow(SchemaBehindError);
    } finally {
      await server.drop();
    }
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';
import { DefinitionCache } from '../../src/runner/definition-cache.js';
import { createPgliteDatabase } from '../support/databases.js';
import { applyManifests, scheduleManifest } from '../support/apply-manifests.js';

const listStoredIds = async (database: Database) => (await queryRows<{ id: string }>(database.db, sql`select id from schedules order by name`)).map((r) => Number(r.id));

const T0 = Date.parse('2026-11-29T12:00:00Z');

describe('DefinitionCache', () => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
  });

  it('reads each version once and drops the least recently used beyond its bound', async () => {
    database = await createPgliteDatabase();
    await applyManifests(database, Object.fromEntries(['a', 'b', 'c'].map((n) => [`${n}.yaml`, scheduleManifest(n, { cron: '0 3 * * *' })])), T0);
    const [a, b, c] = (await listStoredIds(database)).map((id) => ({ scheduleId: id, version: 1 }));
    const cache = new DefinitionCache(2);
    const first = await cache.require(database.db, [a!, b!]);
    expect([...first.values()].map((d) => d.name)).toEqual(['a', 'b']);
    // a is used again, so c pushes b out.
    expect(cache.get(a!)?.name).toBe('a');
    await cache.require(database.db, [c!]);
    expect(cache.size).toBe(2);
    expect(cache.get(b!)).toBeUndefined();
    expect(cache.get(a!)?.name).toBe('a');
    expect(cache.get(c!)?.name).toBe('c');
    // A version that does not exist is simply absent.
    expect((await cache.require(database.db, [{ scheduleId: a!.scheduleId, version: 9 }])).size).toBe(0);
  });
});

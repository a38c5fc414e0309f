/**
 * A runner process killed with SIGKILL while its alert message is in flight (real processes,
 * real PostgreSQL, a real loopback receiver): the receiver got the request and never answered,
 * so the message is still owed. Another runner process takes it over once the delivery lease
 * has passed, and the receiver accepts it exactly once (same dedup key), then the resolved one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../../src/db/client.js';
import { migrateDatabase } from '../../../src/db/migrate.js';
import { applyManifests, scheduleManifest } from '../../support/apply-manifests.js';
import { createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../../support/databases.js';
import { waitFor } from '../../support/processes.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const cli = path.join(repoRoot, 'bin', 'run.js');
const built = existsSync(path.join(repoRoot, 'dist', 'commands', 'index.js'));

interface Message {
  event: string;
  dedupKey: string;
  runner: string;
  alert: { id: number; rule: string };
}

describe.runIf(postgresServerUrl && built)('an alert message in flight when its runner is killed', () => {
  let server: TestPostgres;
  let database: Database;
  let receiver: Server;
  const requests: Message[] = [];
  const accepted: Message[] = [];
  const held: ServerResponse[] = [];
  const runners: ChildProcess[] = [];

  beforeAll(async () => {
    server = await createPostgresDatabase();
    database = await server.open();
    await migrateDatabase(database);
    // The first request is received and never answered (its sender is killed meanwhile); the others are accepted.
    receiver = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => {
        const message = JSON.parse(text) as Message;
        requests.push(message);
        if (requests.length === 1) return void held.push(response);
        accepted.push(message);
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const runner of runners) runner.kill('SIGKILL');
    for (const response of held) response.destroy();
    await new Promise((resolve) => receiver.close(resolve));
    await database.close();
    await server.drop();
  });

  function startRunner(): ChildProcess {
    const child = spawn(process.execPath, [cli, 'runner', '--database-url', server.url, '--lease', '2s'], { stdio: 'ignore', env: { ...process.env, CRONFORM_LOG_LEVEL: 'error' } });
    runners.push(child);
    return child;
  }

  async function insertRun(slot: string, status: 'FAILED' | 'SUCCESS'): Promise<void> {
    await database.db.execute(sql`insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, run_after, attempts, max_attempts, started_at, finished_at)
      select id, 1, ${slot}::timestamptz, 'SCHEDULED', ${`billing:${slot}:SCHEDULED`}, ${status}, 2, 'default', ${slot}::timestamptz, 1, 1, ${slot}::timestamptz, ${slot}::timestamptz + interval '1 second'
      from schedules where name = 'billing'`);
  }

  const deliveries = () =>
    queryRows<{ event: string; state: string; claimed_by: string | null }>(database.db, sql`select event, state, claimed_by from alert_deliveries order by alert_id, event, target`);

  it('another runner delivers it once after the lease, then the resolved message', async () => {
    const policy = `apiVersion: cronform/v1
kind: Policy
metadata: { name: default }
spec:
  alerts:
    targets:
      - { name: oncall, type: webhook, url: "http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook" }
`;
    // A yearly slot: no missed-slot alert; the run-failed alert comes from a failed run written here.
    await applyManifests(database, { 'policy.yaml': policy, 'a.yaml': scheduleManifest('billing', { cron: '0 0 1 1 *', criticality: 'CRITICAL' }) }, Date.now());
    await insertRun(new Date(Date.now() - 120_000).toISOString(), 'FAILED');

    const first = startRunner();
    await waitFor('the first runner to send the firing message', () => (requests.length > 0 ? true : undefined), 60_000);
    const [owed] = await deliveries();
    expect(owed).toMatchObject({ event: 'firing', state: 'PENDING' });
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));

    startRunner();
    const firing = await waitFor('another runner to deliver it', () => accepted[0], 150_000);
    expect(firing).toMatchObject({ event: 'firing', dedupKey: requests[0]!.dedupKey, alert: { id: requests[0]!.alert.id, rule: 'run-failed' } });
    expect(firing.runner).not.toBe(owed!.claimed_by);
    // The receiver answers before the runner records the delivery: wait for each record.
    const recorded = await waitFor('the delivery to be recorded', async () => {
      const rows = await deliveries();
      return rows.some((row) => row.state === 'PENDING') ? undefined : rows;
    }, 30_000);
    expect(recorded).toMatchObject([{ event: 'firing', state: 'DELIVERED', claimed_by: firing.runner }]);

    await insertRun(new Date().toISOString(), 'SUCCESS');
    await waitFor('the resolved message', () => accepted[1], 90_000);
    expect(accepted.map((m) => `${m.event} ${m.dedupKey}`)).toEqual([`firing ${firing.dedupKey}`, `resolved cronform-alert-${firing.alert.id}-resolved`]);
    const settled = await waitFor('the resolved delivery to be recorded', async () => {
      const rows = await deliveries();
      return rows.length === 2 && rows.every((row) => row.state !== 'PENDING') ? rows : undefined;
    }, 30_000);
    expect(settled.map((d) => `${d.event} ${d.state}`)).toEqual(['firing DELIVERED', 'resolved DELIVERED']);
    expect(requests).toHaveLength(3);
  }, 300_000);
});

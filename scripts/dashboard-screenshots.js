#!/usr/bin/env node
/**
 * The dashboard screenshots of docs/ (README links them): a small in-memory PGlite with example
 * schedules applied the real way and two days of runs, the built dashboard (dist/) on loopback, and
 * Debian's /usr/bin/chromium driven by playwright-core (no browser download). The clock is fixed,
 * so rerunning after a change to the pages shows only that change.
 *
 *   npm run build && node scripts/dashboard-screenshots.js
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { compileSources } from '../dist/compile/compile-sources.js';
import { openDatabase } from '../dist/db/client.js';
import { migrateDatabase } from '../dist/db/migrate.js';
import { createDashboardHandler } from '../dist/http/dashboard/index.js';
import { applyPlan } from '../dist/operations/apply.js';
import { planAgainstDatabase } from '../dist/operations/plan.js';
import { ManualClock } from '../dist/shared/clock.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NOW_MS = Date.parse('2026-11-29T12:07:00Z');
const SCHEDULES = [
  ['billing-invoice-export', '0 2 * * *', 'Europe/Paris', 'Exports yesterday\'s invoices to the ledger', {}],
  ['crm-contacts-sync', '*/15 * * * *', 'UTC', 'Syncs CRM contacts into the warehouse', {}],
  ['daily-revenue-report', '30 6 * * 1-5', 'America/New_York', 'Emails the revenue report to finance', { approval: 'required' }],
  ['search-index-refresh', '0 * * * *', 'UTC', 'Rebuilds the product search index', {}],
  ['stripe-payouts-reconcile', '10 * * * *', 'UTC', 'Reconciles Stripe payouts with bank statements', {}],
  ['tmp-files-cleanup', '*/30 * * * *', 'UTC', 'Deletes temporary uploads older than a day', {}],
  ['warehouse-vacuum', '0 4 * * 0', 'Asia/Seoul', 'Weekly VACUUM of the analytics warehouse', { misfire: 'MANUAL' }],
];

function manifest([name, cron, timezone, description, extra]) {
  const spec = { cron, timezone, job: { type: 'command', command: ['node', `jobs/${name}.js`, '--date', '{{businessDate}}'] }, retry: { maxAttempts: 2 }, ...extra };
  return { file: `schedules/${name}.yaml`, text: JSON.stringify({ apiVersion: 'cronform/v1', kind: 'Schedule', metadata: { name, owner: 'platform-team', description }, spec }) };
}

async function seed(database) {
  const compiled = compileSources(SCHEDULES.map(manifest), NOW_MS);
  const plan = await planAgainstDatabase(database, compiled, { nowMs: NOW_MS });
  await applyPlan(database, plan, { author: { actor: 'ci', reason: null, gitSha: null }, clock: new ManualClock(NOW_MS), lockTimeoutMs: 1000 });
  const client = database.db.$client;
  const now = new Date(NOW_MS).toISOString();
  // Slots every 15 min (or the schedule's own hourly/daily pace) over the last two days; a few
  // failures, a tail of slow starts; the stripe job failing since this morning.
  await client.query(
    `insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, status_reason, priority, queue,
       business_date, run_after, attempts, max_attempts, created_at, started_at, finished_at)
     select s.id, 1, slot, 'SCHEDULED', s.name || ':' || slot || ':SCHEDULED', st, case when st = 'SKIPPED' then 'OVERLAP' end, 2, 'default',
       slot::date, slot, case when st in ('SUCCESS', 'FAILED') then 1 else 0 end, 2, slot,
       case when st in ('SUCCESS', 'FAILED') then slot + make_interval(secs => 0.2 + (h % 13) / 10.0 + case when h % 23 = 0 then 6 else 0 end) end,
       case when st in ('SUCCESS', 'FAILED') then slot + make_interval(secs => 20 + (h % 40) + case when s.name like 'search%' then 200 + h % 90 else 0 end)
            when st = 'SKIPPED' then slot end
     from schedules s
     cross join lateral generate_series(1, 192) k
     cross join lateral (select $1::timestamptz - make_interval(mins => k * case when s.name like 'crm%' then 15 when s.name like 'tmp%' then 30 when s.name in ('search-index-refresh', 'stripe-payouts-reconcile') then 60 else 1440 end) as slot,
       abs(hashint8(s.id * 7919 + k)) % 100 as h) v
     cross join lateral (select case when s.name like 'stripe%' and k <= 4 then 'FAILED' when h < 3 then 'FAILED' when h < 5 then 'SKIPPED' else 'SUCCESS' end as st) t
     where slot > $1::timestamptz - interval '40 days' and (s.name not like 'daily-revenue%' or extract(isodow from slot) < 6)`,
    [now],
  );
  await client.query(
    `insert into run_attempts (run_id, attempt, runner_id, status, started_at, finished_at, exit_code, error, stdout_tail, stderr_tail)
     select r.id, 1, 'runner-a1b2c3', case r.status when 'SUCCESS' then 'SUCCEEDED' else 'FAILED' end, r.started_at, r.finished_at,
       case r.status when 'SUCCESS' then 0 else 1 end, case when r.status = 'FAILED' then 'exit code 1' end,
       'starting ' || s.name || E'\\nprocessed ' || (r.id * 37 % 5000) || E' records\\ndone',
       case when r.status = 'FAILED' then E'Error: environment variable STRIPE_API_KEY is not set on this runner\\n    at readSecret (jobs/lib/secrets.js:12:11)' end
     from schedule_runs r join schedules s on s.id = r.schedule_id where r.started_at is not null`,
  );
  const [approval] = (await client.query(`select id from schedules where name = 'daily-revenue-report'`)).rows;
  await client.query(
    `insert into schedule_runs (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, priority, queue, business_date, run_after, max_attempts, created_at)
     values ($1, 1, $2, 'MANUAL', $3, 'MANUAL_REQUIRED', 2, 'default', $4, $2, 2, $2)`,
    [approval.id, new Date(NOW_MS - 25 * 60_000).toISOString(), `daily-revenue-report:${new Date(NOW_MS - 25 * 60_000).toISOString()}:MANUAL`, '2026-11-29'],
  );
  await client.query(`update schedules set paused_at = $1, paused_by = 'oncall@example.com', paused_reason = 'disk full on the upload volume' where name = 'tmp-files-cleanup'`, [new Date(NOW_MS - 3_600_000).toISOString()]);
  await client.query(`update schedules set next_run_at = $1`, [new Date(NOW_MS + 8 * 60_000).toISOString()]);
}

async function main() {
  const database = await openDatabase({ inMemory: true });
  await migrateDatabase(database);
  await seed(database);
  const handler = createDashboardHandler({ database, clock: new ManualClock(NOW_MS), allowActions: true, token: 'screenshot-token-not-a-secret' });
  const server = createServer((request, response) => void handler(request, response, new URL(request.url ?? '/', 'http://127.0.0.1')).then((done) => done || response.writeHead(404).end()));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'cronform-screens-'));
  const args = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
  const context = await chromium.launchPersistentContext(userDataDir, { executablePath: '/usr/bin/chromium', headless: true, args, viewport: { width: 1280, height: 1000 } });
  await context.route('**/*', (route) => (route.request().url().startsWith(base) ? route.continue() : route.abort()));
  try {
    const page = await context.newPage();
    for (const [file, pagePath, fullPage] of [
      ['dashboard-schedules.png', '/', false],
      ['dashboard-schedule.png', '/schedules/stripe-payouts-reconcile', false],
      ['dashboard-timeline.png', '/timeline', false],
      ['dashboard-waiting.png', '/waiting', false],
    ]) {
      await page.goto(base + pagePath);
      if (pagePath.startsWith('/schedules/')) {
        await page.locator('tr[data-run] summary').first().click();
        await page.evaluate('window.scrollTo(0, 0)');
      }
      await page.screenshot({ path: path.join(repoRoot, 'docs', file), fullPage });
      console.log(`docs/${file}`);
    }
  } finally {
    await context.close();
    rmSync(userDataDir, { recursive: true, force: true });
    server.close();
    await database.close();
  }
}

await main();

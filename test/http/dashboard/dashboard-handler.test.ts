import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client.js';
import { createDashboardHandler, DashboardConfigurationError, readDashboardToken } from '../../../src/http/dashboard/index.js';
import { escapeHtml } from '../../../src/http/dashboard/html.js';
import { ManualClock } from '../../../src/shared/clock.js';
import { makeVisible } from '../../../src/shared/visible-text.js';
import type { TestServer } from '../../support/http-server.js';
import { auditRows } from '../../operations/runs/run-fixtures.js';
import { CHARTED_RUNS, HOSTILE, HOSTILE_NAME, NOW_MS, seedDashboard, serveDashboard, TOKEN, type SeededDashboard } from './dashboard-fixtures.js';

let seeded: SeededDashboard;
let readOnly: TestServer;
let acting: TestServer;

beforeAll(async () => {
  seeded = await seedDashboard();
  readOnly = await serveDashboard(seeded.database, { allowActions: false });
  acting = await serveDashboard(seeded.database, { allowActions: true, token: TOKEN });
  // Seeding applies three schedules and writes a few dozen runs: beyond the 10 s hook default on a busy machine.
}, 60_000);
afterAll(async () => {
  await readOnly?.close();
  await acting?.close();
  await seeded?.database.close();
});

async function page(server: TestServer, path: string): Promise<{ status: number; text: string; headers: Headers }> {
  const response = await fetch(`${server.url}${path}`);
  return { status: response.status, text: await response.text(), headers: response.headers };
}

const post = (server: TestServer, action: string, body: unknown, token?: string) =>
  fetch(`${server.url}/actions/${action}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });

/** Hostile text appears only escaped: never a tag, attribute or script the browser would act on. */
function expectEscaped(text: string, hostile: readonly string[]): void {
  for (const value of hostile) {
    if (/[<>"']/.test(value)) expect(text).not.toContain(value);
  }
  expect(text).not.toMatch(/<script(?! src="\/assets\/dashboard\.js")/);
  expect(text).not.toMatch(/<img|<[^>]*\sonerror=/);
}

describe('dashboard pages', () => {
  it('lists the schedules with cron in words, zone, last result, success rate, badges, and escapes a hostile name', async () => {
    const { status, text, headers } = await page(readOnly, '/');
    expect(status).toBe(200);
    expect(headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(text).toContain('data-schedule="nightly"');
    expect(text).toContain('<td>Every hour <code class="muted">0 * * * *</code></td>');
    expect(text).toMatch(/<td>UTC<\/td>/);
    // 12 finished runs, 3 failed.
    expect(text).toContain('75.0 %');
    expect(text).toContain('badge-approval');
    expect(text).toContain(escapeHtml(HOSTILE_NAME));
    expectEscaped(text, [...HOSTILE, HOSTILE_NAME]);
    expect(text).not.toContain('data-action=');
  });

  it('filters and pages the schedules by name', async () => {
    const { text } = await page(readOnly, '/?q=NIGHT');
    expect(text).toContain('data-schedule="nightly"');
    expect(text).not.toContain('data-schedule="approval-job"');
    expect(text).toContain('page 1 of 1 · 1 schedule<');
    const { text: percent } = await page(readOnly, '/?q=%25');
    expect(percent).toContain('No schedule name contains that text.');
  });

  it('shows a schedule: facts, chart with one point per run, runs with attempts and escaped tails', async () => {
    const { status, text } = await page(readOnly, '/schedules/nightly');
    expect(status).toBe(200);
    expect(text).toContain(`data-series="duration" data-points="${CHARTED_RUNS}"`);
    expect(text).toContain(`data-series="start-delay" data-points="${CHARTED_RUNS}"`);
    expect(text.match(/<circle /g)).toHaveLength(2 * CHARTED_RUNS);
    expect(text).toContain(`data-run="${seeded.nightlyRuns[3]}"`);
    expect(text).toContain('stdout (tail)');
    expect(text).toContain(escapeHtml(makeVisible(HOSTILE[5]!)));
    expectEscaped(text, HOSTILE);
  });

  it("shows a handed-off run's queue job id as escaped text, and a delivery still pending", async () => {
    // The queue's job id is the queue's data (a sql function returns any text): hostile here.
    const jobId = '"><img src=x onerror=alert(1)><b>job-7</b>';
    const [first, second] = [seeded.nightlyRuns[0]!, seeded.nightlyRuns[1]!];
    const at = new Date(NOW_MS - 3_600_000).toISOString();
    await seeded.database.db.execute(sql`insert into queue_handoffs (run_id, attempt, system, target, job_key, external_job_id, handed_off_at, deadline_at, heartbeat_lease_ms)
      values (${first}, 1, 'sql', 'sql app.enqueue(document)', 'k1', ${jobId}, ${at}::timestamptz, ${at}::timestamptz, 30000),
             (${second}, 1, 'graphile-worker', 'graphile-worker task report in database $QUEUE_DATABASE_URL', 'k2', null, ${at}::timestamptz, ${at}::timestamptz, 30000)`);
    await seeded.database.db.execute(sql`insert into queue_handoff_deliveries (run_id, attempt, url_from_env, request) values (${second}, 1, 'QUEUE_DATABASE_URL', '{}'::jsonb)`);
    try {
      const { text } = await page(readOnly, '/schedules/nightly');
      const row = (runId: number) => text.slice(text.indexOf(`<tr data-run="${runId}"`), text.indexOf('</tr>', text.indexOf(`<tr data-run="${runId}"`)));
      // In the row's summary (visible without opening it) and in the attempt, as text.
      expect(row(first).match(/queue job <code class="queue-job-id">([^<]*)<\/code>/g)).toHaveLength(2);
      expect(row(first)).toContain(`<code class="queue-job-id">${escapeHtml(jobId)}</code>`);
      expect(row(first)).toContain('handed off to sql app.enqueue(document)');
      expect(row(second)).toContain('handed off to graphile-worker task report in database $QUEUE_DATABASE_URL');
      expect(row(second)).toContain('queue job id not recorded yet (delivery pending)');
      expectEscaped(text, [jobId]);
    } finally {
      await seeded.database.db.execute(sql`delete from queue_handoff_deliveries where run_id = ${second}`);
      await seeded.database.db.execute(sql`delete from queue_handoffs where run_id in (${first}, ${second})`);
    }
  });

  it('answers 404 for an unknown schedule and escapes the hostile-named one', async () => {
    expect((await page(readOnly, '/schedules/nope')).status).toBe(404);
    const hostile = await page(readOnly, `/schedules/${encodeURIComponent(HOSTILE_NAME)}`);
    expect(hostile.status).toBe(200);
    expectEscaped(hostile.text, [HOSTILE_NAME]);
  });

  it('draws the 24 h timeline per schedule and lists the runs waiting for a human', async () => {
    const timeline = await page(readOnly, '/timeline');
    expect(timeline.status).toBe(200);
    expect(timeline.text).toContain('<g class="lane" data-schedule="nightly">');
    expect(timeline.text.match(/class="cell cell-/g)?.length).toBe(CHARTED_RUNS + 2);
    expect(timeline.text).toContain('cell cell-FAILED');
    const waiting = await page(readOnly, '/waiting');
    expect(waiting.text).toContain(`<tr data-run="${seeded.waitingRunId}">`);
    expect(waiting.text).toContain('Runs waiting for a human <span class="muted">(2)</span>');
    expectEscaped(waiting.text, HOSTILE);
  });

  it('serves its own script and stylesheet and leaves other paths to other handlers', async () => {
    const script = await page(readOnly, '/assets/dashboard.js');
    expect(script.headers.get('content-type')).toContain('text/javascript');
    expect(script.text).toContain('sessionStorage');
    expect((await page(readOnly, '/assets/dashboard.css')).headers.get('content-type')).toContain('text/css');
    expect((await page(readOnly, '/metrics')).text).toBe('not found\n');
  });
});

describe('dashboard actions', () => {
  it('refuses actions in read-only mode and offers none', async () => {
    const response = await post(readOnly, 'approve', { runId: seeded.waitingRunId }, TOKEN);
    expect(response.status).toBe(403);
    expect((await page(readOnly, '/waiting')).text).not.toContain('data-action="approve"');
  });

  it('refuses a missing or wrong token, changing nothing', async () => {
    const before = await auditRows(seeded.database);
    expect((await post(acting, 'approve', { runId: seeded.waitingRunId })).status).toBe(401);
    expect((await post(acting, 'approve', { runId: seeded.waitingRunId }, `${TOKEN}x`)).status).toBe(401);
    expect((await post(acting, 'approve', { runId: seeded.waitingRunId }, TOKEN.slice(0, -1))).status).toBe(401);
    expect(await auditRows(seeded.database)).toEqual(before);
    const [run] = await queryRows<{ status: string }>(seeded.database.db, sql`select status from schedule_runs where id = ${seeded.waitingRunId}`);
    expect(run!.status).toBe('MANUAL_REQUIRED');
  });

  it('approves with the token through the operation, audited with the dashboard as actor', async () => {
    expect((await page(acting, '/waiting')).text).toContain(`data-action="approve" data-run-id="${seeded.waitingRunId}"`);
    const response = await post(acting, 'approve', { runId: seeded.waitingRunId }, TOKEN);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ result: { runId: seeded.waitingRunId, status: 'QUEUED' } });
    const audit = (await auditRows(seeded.database)).filter((row) => row.run_id === seeded.waitingRunId);
    expect(audit).toEqual([expect.objectContaining({ action: 'RUN_APPROVED', actor: 'dashboard' })]);
    // The operation's own refusal reaches the page as 409 with its message.
    const again = await post(acting, 'approve', { runId: seeded.waitingRunId }, TOKEN);
    expect(again.status).toBe(409);
    expect((await again.json()) as { error: string }).toMatchObject({ error: expect.stringContaining('only MANUAL_REQUIRED runs wait for approval') });
  });

  it('pauses and resumes with a reason, and refuses bad requests', async () => {
    expect((await post(acting, 'pause', { schedule: 'nightly', reason: HOSTILE[2] }, TOKEN)).status).toBe(200);
    const paused = await page(acting, '/schedules/nightly');
    expect(paused.text).toContain('badge-paused');
    expectEscaped(paused.text, HOSTILE);
    expect((await post(acting, 'resume', { schedule: 'nightly', missed: 'none' }, TOKEN)).status).toBe(400);
    expect((await post(acting, 'resume', { schedule: 'nightly' }, TOKEN)).status).toBe(200);
    expect((await post(acting, 'pause', { schedule: 'nightly', reason: '' }, TOKEN)).status).toBe(409);
    expect((await post(acting, 'retry', { runId: 'x' }, TOKEN)).status).toBe(400);
    expect((await post(acting, 'drop', {}, TOKEN)).status).toBe(404);
    const text = await fetch(`${acting.url}/actions/trigger`, { method: 'POST', headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'text/plain' }, body: '{"schedule":"nightly"}' });
    expect(text.status).toBe(415);
    const crossSite = await fetch(`${acting.url}/actions/trigger`, { method: 'POST', headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', Origin: 'https://evil.example' }, body: '{"schedule":"nightly"}' });
    expect(crossSite.status).toBe(403);
    expect((await fetch(`${acting.url}/actions/trigger`)).status).toBe(405);
    const actions = (await auditRows(seeded.database)).filter((row) => row.schedule_name === 'nightly').map((row) => [row.action, row.actor, row.reason]);
    expect(actions).toEqual([
      ['SCHEDULE_PAUSED', 'dashboard', HOSTILE[2]],
      ['SCHEDULE_RESUMED', 'dashboard', null],
    ]);
  });

  it('triggers, cancels and retries a run, each audited as the dashboard', async () => {
    const triggered = await post(acting, 'trigger', { schedule: 'nightly' }, TOKEN);
    expect(triggered.status).toBe(200);
    const { result } = (await triggered.json()) as { result: { runId: number; status: string } };
    expect(result.status).toBe('QUEUED');
    expect((await post(acting, 'cancel', { runId: result.runId }, TOKEN)).status).toBe(200);
    expect((await post(acting, 'retry', { runId: result.runId }, TOKEN)).status).toBe(200);
    const audit = (await auditRows(seeded.database)).filter((row) => row.run_id === result.runId).map((row) => [row.action, row.actor]);
    expect(audit).toEqual([
      ['RUN_TRIGGERED', 'dashboard'],
      ['RUN_CANCELLED', 'dashboard'],
      ['RUN_RETRIED', 'dashboard'],
    ]);
  });
});

describe('dashboard configuration', () => {
  it('refuses --allow-actions without a token, or with a short one', () => {
    const base = { database: seeded.database, clock: new ManualClock(NOW_MS) };
    expect(() => createDashboardHandler({ ...base, allowActions: true })).toThrow(DashboardConfigurationError);
    expect(() => createDashboardHandler({ ...base, allowActions: true })).toThrow('set CRONFORM_DASHBOARD_TOKEN');
    expect(() => createDashboardHandler({ ...base, allowActions: true, token: 'short' })).toThrow('too short');
    expect(() => createDashboardHandler({ ...base, allowActions: false, token: 'short' })).not.toThrow();
    expect(readDashboardToken({ CRONFORM_DASHBOARD_TOKEN: '  ' })).toBeUndefined();
    expect(readDashboardToken({ CRONFORM_DASHBOARD_TOKEN: TOKEN })).toBe(TOKEN);
  });
});

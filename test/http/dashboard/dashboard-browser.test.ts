/**
 * The dashboard in a real headless Chromium (Debian's /usr/bin/chromium driven by playwright-core;
 * no browser is ever downloaded): one launch for the file. Every request the page makes is checked
 * to stay on loopback; anything else is aborted and recorded, and the test fails if there is any.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../support/http-server.js';
import { auditRows } from '../../operations/runs/run-fixtures.js';
import { CHARTED_RUNS, seedDashboard, serveDashboard, TOKEN, type SeededDashboard } from './dashboard-fixtures.js';

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

let seeded: SeededDashboard;
let server: TestServer;
let context: BrowserContext;
let userDataDir: string;
const offLoopback: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  seeded = await seedDashboard();
  server = await serveDashboard(seeded.database, { allowActions: true, token: TOKEN });
  userDataDir = mkdtempSync(path.join(os.tmpdir(), 'cronform-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, { executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1' && url.origin === new URL(server.url).origin) return route.continue();
    offLoopback.push(url.toString());
    return route.abort();
  });
}, 60_000);

afterAll(async () => {
  await context?.close();
  await server?.close();
  await seeded?.database.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

async function open(path: string): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('dialog', (dialog) => void dialog.dismiss());
  await page.goto(`${server.url}${path}`);
  return page;
}

describe('dashboard in Chromium', () => {
  it('shows the seeded schedules, with the stylesheet applied and no script injected', async () => {
    const page = await open('/');
    await expect(page.locator('tr[data-schedule="nightly"]').count()).resolves.toBe(1);
    await expect(page.locator('tr[data-schedule]').count()).resolves.toBe(3);
    // The hostile schedule name is text, not markup.
    await expect(page.locator('td.name a').allTextContents()).resolves.toContain('<script>alert("name")</script>');
    // The test's TypeScript has no DOM types: page-side code is passed as source text.
    const headerBackground = await page.evaluate<string>("getComputedStyle(document.querySelector('header')).backgroundColor");
    expect(headerBackground).toBe('rgb(255, 255, 255)');
    await page.close();
  });

  it('renders the schedule chart with one point per run in each series', async () => {
    const page = await open('/schedules/nightly');
    await expect(page.locator('svg.run-chart g[data-series="duration"] circle').count()).resolves.toBe(CHARTED_RUNS);
    await expect(page.locator('svg.run-chart g[data-series="start-delay"] circle').count()).resolves.toBe(CHARTED_RUNS);
    const box = await page.locator('svg.run-chart').boundingBox();
    expect(box!.width).toBeGreaterThan(100);
    await page.locator(`tr[data-run="${seeded.nightlyRuns[3]}"] summary`).click();
    await expect(page.locator(`tr[data-run="${seeded.nightlyRuns[3]}"] pre`).first().isVisible()).resolves.toBe(true);
    await page.close();
  });

  it('refuses an action without the token, then approves with it, audited as the dashboard', async () => {
    const page = await open('/waiting');
    const approve = page.locator(`form[data-action="approve"][data-run-id="${seeded.waitingRunId}"] button`);
    await approve.click();
    // A locator, not a string predicate: the page's CSP forbids eval, which waitForFunction("…") needs.
    await page.locator('output#action-result', { hasText: 'refused' }).waitFor({ timeout: 10_000 });
    await expect(page.locator('output#action-result').textContent()).resolves.toBe('approve refused: a valid dashboard token is required (Authorization: Bearer …)');
    expect((await auditRows(seeded.database)).filter((row) => row.action === 'RUN_APPROVED')).toEqual([]);

    await page.fill('#token', TOKEN);
    await page.click('#token-form button[type="submit"]');
    await expect(page.locator('#token-state').textContent()).resolves.toBe('token set for this tab');
    await approve.click();
    // A locator, not a string predicate: the page's CSP forbids eval, which waitForFunction("…") needs.
    await page.locator('output#action-result', { hasText: 'approved' }).waitFor({ timeout: 10_000 });
    expect((await auditRows(seeded.database)).filter((row) => row.action === 'RUN_APPROVED')).toEqual([expect.objectContaining({ actor: 'dashboard', run_id: seeded.waitingRunId })]);
    await page.waitForLoadState('load');
    await page.close();
  });

  it('shows the timeline, and no request left loopback nor did a script error', async () => {
    const page = await open('/timeline');
    await expect(page.locator('svg.timeline g.lane').count()).resolves.toBe(3);
    await page.close();
    expect(offLoopback).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});

/**
 * `GET /`: the schedules, a page of them at a time by name (the stats of 10,000 schedules would
 * cost seconds; a page of 100 reads each schedule's latest runs only, see STATS_RECENT_RUNS).
 */
import type { Database } from '../../db/client.js';
import { countActiveSchedules } from '../../db/run-report-queries.js';
import { readScheduleStatus, STATUS_WINDOW_DAYS, type ScheduleStatusEntry } from '../../operations/runs/schedule-status.js';
import { describeCronWords } from '../../time/describe.js';
import { pager, scheduleLink, searchForm, statusLabel } from './fragments.js';
import { formatDuration, formatInstant, formatPercent, formatRelative } from './format.js';
import { html, visible, type Html } from './html.js';

export const SCHEDULES_PAGE_SIZE = 100;
/**
 * Success rate, p95 start delay and last result are read from each schedule's latest 200 slots
 * within the status window: an every-minute schedule has 10,080 runs in 7 days, and reading them
 * all for every row made a page of such schedules take seconds.
 */
export const STATS_RECENT_RUNS = 200;

export interface ListQuery {
  query: string;
  page: number;
}

export function badges(entry: Pick<ScheduleStatusEntry, 'paused' | 'approvalRequired' | 'enabled' | 'activeRuns'>): Html {
  return html`${entry.paused ? html`<span class="badge badge-paused" title="${`paused by ${entry.paused.by ?? 'unknown'}: ${entry.paused.reason ?? ''}`}">paused${entry.paused.until ? ` until ${formatInstant(entry.paused.until)}` : ''}</span>` : ''}${entry.approvalRequired ? html`<span class="badge badge-approval">approval</span>` : ''}${entry.enabled ? '' : html`<span class="badge badge-disabled">disabled</span>`}${entry.activeRuns > 0 ? html`<span class="badge badge-active">${entry.activeRuns} active</span>` : ''}`;
}

function row(entry: ScheduleStatusEntry, nowMs: number): Html {
  const next = entry.nextRunAt === null ? '—' : html`<span title="${formatInstant(entry.nextRunAt)}">${formatRelative(Date.parse(entry.nextRunAt), nowMs)}</span>`;
  const last = entry.lastResult === null ? html`<span class="muted">none yet</span>` : html`${statusLabel(entry.lastResult.status)} <span class="muted">${formatInstant(entry.lastResult.finishedAt ?? entry.lastResult.scheduledFor)}</span>`;
  return html`<tr data-schedule="${entry.name}">
<td class="name">${scheduleLink(entry.name)}${entry.description ? html`<div class="description">${visible(entry.description)}</div>` : ''}</td>
<td>${visible(describeCronWords(entry.cron))} <code class="muted">${visible(entry.cron)}</code></td>
<td>${visible(entry.timezone)}</td>
<td>${next}</td>
<td>${last}</td>
<td class="num" title="${`${entry.finishedRuns} finished runs`}">${formatPercent(entry.successRate)}</td>
<td class="num">${entry.p95StartDelayMs === null ? '—' : formatDuration(entry.p95StartDelayMs)}</td>
<td>${badges(entry)}</td>
</tr>`;
}

export async function renderSchedulesPage(database: Database, list: ListQuery, nowMs: number): Promise<{ title: string; body: Html }> {
  const filter = { nameContains: list.query || undefined };
  const [total, report] = await Promise.all([
    countActiveSchedules(database.db, filter),
    readScheduleStatus(database, { nowMs, page: { ...filter, offset: (list.page - 1) * SCHEDULES_PAGE_SIZE, limit: SCHEDULES_PAGE_SIZE }, recentRunsCap: STATS_RECENT_RUNS }),
  ]);
  const paging = pager({ page: list.page, pageSize: SCHEDULES_PAGE_SIZE, total, keep: list.query ? { q: list.query } : {}, path: '/' });
  const table =
    report.schedules.length === 0
      ? html`<p class="empty">${list.query ? 'No schedule name contains that text.' : 'No schedules yet: apply some with cronform apply.'}</p>`
      : html`<table class="schedules">
<thead><tr><th>Schedule</th><th>When</th><th>Zone</th><th>Next slot</th><th>Last result</th><th title="${`SUCCESS / (SUCCESS + FAILED), last ${STATUS_WINDOW_DAYS} days, latest ${STATS_RECENT_RUNS} slots`}">Success</th><th title="${`started − scheduled, SCHEDULED runs, last ${STATUS_WINDOW_DAYS} days`}">p95 start delay</th><th></th></tr></thead>
<tbody>
${report.schedules.map((entry) => row(entry, nowMs))}
</tbody>
</table>`;
  return {
    title: 'Schedules',
    body: html`<h1>Schedules</h1>
${searchForm('/', list.query)}
${paging}
${table}
${report.schedules.length > 0 ? paging : ''}
<p class="muted">Success rate and p95 start delay: the last ${STATUS_WINDOW_DAYS} days, at most each schedule's latest ${STATS_RECENT_RUNS} slots.</p>`,
  };
}

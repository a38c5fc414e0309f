/**
 * `GET /timeline`: the last 24 hours of runs, one lane per schedule (a page of them by name), in
 * 15-minute cells coloured by the worst status in the cell. Drawn per schedule rather than as one
 * strip of the whole fleet: 10,000 schedules can hold hundreds of thousands of runs a day, and
 * reading a page's lanes goes through each schedule's slot key (countRunsByBin).
 */
import type { Database } from '../../db/client.js';
import { countRunsByBin, type TimelineCell } from '../../db/dashboard-queries.js';
import { countActiveSchedules, listActiveScheduleNames } from '../../db/run-report-queries.js';
import { pager, scheduleHref, searchForm } from './fragments.js';
import { formatInstant } from './format.js';
import { html, visible, type Html } from './html.js';
import type { ListQuery } from './schedules-page.js';

export const TIMELINE_PAGE_SIZE = 50;
export const TIMELINE_HOURS = 24;
export const TIMELINE_BIN_MS = 15 * 60_000;
const BINS = (TIMELINE_HOURS * 3_600_000) / TIMELINE_BIN_MS;

/** Worst first: the colour a cell takes when it holds runs of several statuses. */
const SEVERITY = ['FAILED', 'MISSED', 'MANUAL_REQUIRED', 'RUNNING', 'RETRY_PENDING', 'QUEUED', 'PENDING', 'PARTIAL_SUCCESS', 'CANCELLED', 'SKIPPED', 'SUCCESS'];
const rank = (status: string) => {
  const index = SEVERITY.indexOf(status);
  return index === -1 ? SEVERITY.length : index;
};

const LABEL_WIDTH = 240;
const CELL = 8;
const LANE = 16;

function lane(name: string, cells: TimelineCell[], index: number): Html {
  const byBin = new Map<number, TimelineCell[]>();
  for (const cell of cells) byBin.set(cell.bin, [...(byBin.get(cell.bin) ?? []), cell]);
  const y = index * LANE;
  const label = name.length > 34 ? `${name.slice(0, 33)}…` : name;
  return html`<g class="lane" data-schedule="${name}">
<a href="${scheduleHref(name)}"><text x="0" y="${y + 12}">${visible(label)}</text></a>
<rect class="lane" x="${LABEL_WIDTH}" y="${y + 1}" width="${BINS * CELL}" height="${LANE - 2}"/>
${[...byBin.entries()].map(([bin, inBin]) => {
  const worst = inBin.reduce((a, b) => (rank(b.status) < rank(a.status) ? b : a));
  const counts = inBin.sort((a, b) => rank(a.status) - rank(b.status)).map((c) => `${c.runs} ${c.status}`).join(', ');
  return html`<rect class="cell cell-${worst.status.replace(/[^A-Z_]/g, '')}" data-bin="${bin}" x="${LABEL_WIDTH + bin * CELL}" y="${y + 2}" width="${CELL - 1}" height="${LANE - 4}"><title>${counts}</title></rect>`;
})}
</g>`;
}

export async function renderTimelinePage(database: Database, list: ListQuery, nowMs: number): Promise<{ title: string; body: Html }> {
  // Bins end at the next quarter hour, so a reload within the quarter keeps every cell in place.
  const toMs = Math.ceil(nowMs / TIMELINE_BIN_MS) * TIMELINE_BIN_MS;
  const fromMs = toMs - TIMELINE_HOURS * 3_600_000;
  const filter = { nameContains: list.query || undefined };
  const [total, names] = await Promise.all([
    countActiveSchedules(database.db, filter),
    listActiveScheduleNames(database.db, { ...filter, offset: (list.page - 1) * TIMELINE_PAGE_SIZE, limit: TIMELINE_PAGE_SIZE }),
  ]);
  const cells = await countRunsByBin(database.db, { names, from: new Date(fromMs), to: new Date(toMs), binMs: TIMELINE_BIN_MS });
  const bySchedule = new Map<string, TimelineCell[]>();
  for (const cell of cells) bySchedule.set(cell.schedule, [...(bySchedule.get(cell.schedule) ?? []), cell]);
  const totals = new Map<string, number>();
  for (const cell of cells) totals.set(cell.status, (totals.get(cell.status) ?? 0) + cell.runs);
  const width = LABEL_WIDTH + BINS * CELL + 24;
  const height = names.length * LANE + 22;
  const nowX = LABEL_WIDTH + ((nowMs - fromMs) / TIMELINE_BIN_MS) * CELL;
  const hourTicks = Array.from({ length: TIMELINE_HOURS / 3 + 1 }, (_, i) => i * 3);
  const chart =
    names.length === 0
      ? html`<p class="empty">No schedules on this page.</p>`
      : html`<svg class="timeline" role="img" aria-label="Runs of the last 24 hours by schedule" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">
${names.map((name, index) => lane(name, bySchedule.get(name) ?? [], index))}
${hourTicks.map((hour) => {
  const x = LABEL_WIDTH + ((hour * 3_600_000) / TIMELINE_BIN_MS) * CELL;
  return html`<text class="tick" x="${x}" y="${height - 6}" text-anchor="middle">${new Date(fromMs + hour * 3_600_000).toISOString().slice(11, 16)}</text>`;
})}
<line class="now" x1="${nowX}" y1="0" x2="${nowX}" y2="${names.length * LANE}"/>
</svg>`;
  return {
    title: 'Timeline',
    body: html`<h1>Runs of the last 24 hours</h1>
<p class="muted">${formatInstant(new Date(fromMs))} to ${formatInstant(new Date(toMs))}, 15-minute cells, worst status per cell.</p>
${searchForm('/timeline', list.query)}
<p class="legend">${[...totals.entries()].sort((a, b) => rank(a[0]) - rank(b[0])).map(([status, runs]) => html`<span class="status status-${status.replace(/[^A-Z_]/g, '')}">${runs} ${status}</span>`)}${totals.size === 0 ? html`<span class="muted">no runs on this page in the last 24 hours</span>` : html`<span class="muted">(this page)</span>`}</p>
${pager({ page: list.page, pageSize: TIMELINE_PAGE_SIZE, total, keep: list.query ? { q: list.query } : {}, path: '/timeline' })}
${chart}`,
  };
}

/**
 * The schedule page's chart: duration and start delay of its latest runs, as an SVG drawn on the
 * server (no chart library, nothing for the browser to fetch). Two panels sharing the time axis,
 * each with its own scale from 0 to its largest value; one point per run that has the value, oldest
 * on the left. Colours come from the stylesheet by class (the CSP allows no inline style).
 */
import { html, type Html } from './html.js';
import { formatDuration } from './format.js';

export interface ChartRun {
  runId: number;
  scheduledForMs: number;
  durationMs: number | null;
  startDelayMs: number | null;
}

const WIDTH = 720;
const PANEL_HEIGHT = 110;
const LEFT = 64;
const RIGHT = 12;
const TOP = 18;
const GAP = 34;

interface Series {
  key: 'duration' | 'start-delay';
  label: string;
  values: Array<{ run: ChartRun; valueMs: number }>;
}

function panel(series: Series, top: number, xOf: (ms: number) => number): Html {
  const maxMs = Math.max(1, ...series.values.map((v) => v.valueMs));
  const yOf = (valueMs: number) => top + PANEL_HEIGHT - (valueMs / maxMs) * PANEL_HEIGHT;
  const points = series.values.map((v) => ({ ...v, x: xOf(v.run.scheduledForMs), y: yOf(v.valueMs) }));
  const line = points.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
  return html`<g class="series series-${series.key}" data-series="${series.key}" data-points="${points.length}">
<text class="chart-label" x="${LEFT}" y="${top - 6}">${series.label}</text>
<line class="axis" x1="${LEFT}" y1="${top + PANEL_HEIGHT}" x2="${WIDTH - RIGHT}" y2="${top + PANEL_HEIGHT}"/>
<line class="axis" x1="${LEFT}" y1="${top}" x2="${LEFT}" y2="${top + PANEL_HEIGHT}"/>
<text class="tick" x="${LEFT - 6}" y="${top + 4}" text-anchor="end">${formatDuration(maxMs)}</text>
<text class="tick" x="${LEFT - 6}" y="${top + PANEL_HEIGHT}" text-anchor="end">0</text>
${points.length > 1 ? html`<polyline class="trend" points="${line}"/>` : ''}
${points.map((p) => html`<circle class="point" data-run="${p.run.runId}" cx="${p.x.toFixed(1)}" cy="${p.y.toFixed(1)}" r="3"><title>run ${p.run.runId} · ${new Date(p.run.scheduledForMs).toISOString()} · ${formatDuration(p.valueMs)}</title></circle>`)}
</g>`;
}

export function renderRunChart(runs: readonly ChartRun[]): Html {
  const ordered = [...runs].sort((a, b) => a.scheduledForMs - b.scheduledForMs || a.runId - b.runId);
  const firstMs = ordered[0]?.scheduledForMs ?? 0;
  const lastMs = ordered.at(-1)?.scheduledForMs ?? 0;
  const spanMs = Math.max(1, lastMs - firstMs);
  const xOf = (ms: number) => (ordered.length === 1 ? (LEFT + WIDTH - RIGHT) / 2 : LEFT + ((ms - firstMs) / spanMs) * (WIDTH - LEFT - RIGHT));
  const duration: Series = { key: 'duration', label: 'duration', values: ordered.filter((r) => r.durationMs !== null).map((run) => ({ run, valueMs: run.durationMs! })) };
  const delay: Series = { key: 'start-delay', label: 'start delay', values: ordered.filter((r) => r.startDelayMs !== null).map((run) => ({ run, valueMs: Math.max(0, run.startDelayMs!) })) };
  const height = TOP + PANEL_HEIGHT * 2 + GAP + 20;
  if (duration.values.length === 0 && delay.values.length === 0) return html`<p class="empty">No run has started yet: nothing to chart.</p>`;
  return html`<svg class="run-chart" role="img" aria-label="Duration and start delay of the latest runs" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" xmlns="http://www.w3.org/2000/svg">
${panel(duration, TOP, xOf)}
${panel(delay, TOP + PANEL_HEIGHT + GAP, xOf)}
<text class="tick" x="${LEFT}" y="${height - 4}">${new Date(firstMs).toISOString().slice(0, 16).replace('T', ' ')}</text>
<text class="tick" x="${WIDTH - RIGHT}" y="${height - 4}" text-anchor="end">${new Date(lastMs).toISOString().slice(0, 16).replace('T', ' ')} UTC</text>
</svg>`;
}

/**
 * `GET /waiting`: the runs a human must act on (MANUAL_REQUIRED: approval required, misfire
 * MANUAL, a stalled lease with onStall manual) and the unfinished runs (queued, running, retrying,
 * pending behind another), oldest slot first.
 */
import type { Database } from '../../db/client.js';
import { listRunsAwaitingAction, listUnfinishedRuns, type WaitingRunRow } from '../../db/dashboard-queries.js';
import { runActions, scheduleLink, statusLabel } from './fragments.js';
import { formatInstant, formatRelative } from './format.js';
import { html, type Html } from './html.js';

export const WAITING_LIMIT = 200;

function table(runs: WaitingRunRow[], total: number, nowMs: number, actionsAllowed: boolean, empty: string): Html {
  if (runs.length === 0) return html`<p class="empty">${empty}</p>`;
  return html`${total > runs.length ? html`<p class="muted">The oldest ${runs.length} of ${total}.</p>` : ''}<table class="waiting">
<thead><tr><th>Run</th><th>Schedule</th><th>Slot</th><th>Trigger</th><th>Status</th><th>Attempts</th>${actionsAllowed ? html`<th>Actions</th>` : ''}</tr></thead>
<tbody>${runs.map(
    (run) => html`<tr data-run="${run.id}"><td class="num">${run.id}</td><td class="name">${scheduleLink(run.schedule)}</td>
<td>${formatInstant(run.scheduledFor)} <span class="muted">(${formatRelative(run.scheduledFor.getTime(), nowMs)})</span></td><td>${run.triggerType}</td>
<td>${statusLabel(run.status, run.statusReason)}</td><td class="num">${run.attempts}</td>${actionsAllowed ? html`<td>${runActions(run)}</td>` : ''}</tr>`,
  )}</tbody></table>`;
}

export async function renderWaitingPage(database: Database, nowMs: number, actionsAllowed: boolean): Promise<{ title: string; body: Html }> {
  const [manual, unfinished] = await Promise.all([listRunsAwaitingAction(database.db, WAITING_LIMIT), listUnfinishedRuns(database.db, WAITING_LIMIT)]);
  return {
    title: 'Waiting runs',
    body: html`<h1>Runs waiting for a human <span class="muted">(${manual.total})</span></h1>
<p class="muted">MANUAL_REQUIRED: approval required, a misfire with <code>misfire: MANUAL</code>, or a stalled run with <code>onStall: manual</code>. Approve to run it, reject to cancel it.</p>
${table(manual.runs, manual.total, nowMs, actionsAllowed, 'No run waits for approval or manual action.')}
<h2>Unfinished runs <span class="muted">(${unfinished.total})</span></h2>
${table(unfinished.runs, unfinished.total, nowMs, actionsAllowed, 'No run is queued, running or waiting to retry.')}`,
  };
}

/**
 * `GET /schedules/<name>`: one schedule: what it runs and when, its pause, its latest runs as a
 * chart (duration, start delay) and as a table whose rows open onto their attempts and output tails.
 */
import type { JobDefinition, RunJobDefinition } from '../../compile/definition.js';
import { describeQueueTarget } from '../../compile/queue-job.js';
import type { Database } from '../../db/client.js';
import { findScheduleDetail } from '../../db/dashboard-queries.js';
import { listHandOffsOfRuns, type RunHandOffLine } from '../../db/queue-handoff-queries.js';
import { listAttemptsOfRuns, type AttemptRow } from '../../db/run-detail-queries.js';
import { listProgressOfRuns, type RunProgressLine } from '../../db/run-progress-queries.js';
import { listRuns, type RunEntry } from '../../operations/runs/list-runs.js';
import { readScheduleStatus } from '../../operations/runs/schedule-status.js';
import { describeCronWords } from '../../time/describe.js';
import { runActions, statusLabel } from './fragments.js';
import { formatDuration, formatInstant, formatPercent, formatRelative } from './format.js';
import { html, visible, visibleLines, type Html } from './html.js';
import { renderRunChart } from './run-chart.js';
import { badges, STATS_RECENT_RUNS } from './schedules-page.js';

/** Runs on the chart; the table shows the newest HISTORY_ROWS of them with their attempts. */
export const CHART_RUNS = 100;
export const HISTORY_ROWS = 50;
/** Failed items shown under a run's status; `runs show` lists more. */
const FAILED_ITEMS_SHOWN = 3;

function describeJob(job: RunJobDefinition): Html {
  if (job.type === 'steps') return html`<ol>${job.steps.map((step) => html`<li>${visible(step.name)}: ${describeSingleJob(step)}</li>`)}</ol>`;
  return describeSingleJob(job);
}

function describeSingleJob(job: JobDefinition): Html {
  if (job.type === 'command') return html`<code>${job.command.map((arg) => visible(JSON.stringify(arg))).join(' ')}</code>${job.cwd && job.cwd !== '.' ? html` <span class="muted">in ${visible(job.cwd)}</span>` : ''}`;
  if (job.type === 'queue') return html`<code>${visible(describeQueueTarget(job))}</code>`;
  return html`<code>${visible(job.method)} ${visible(job.url)}</code>`;
}

function tail(label: string, text: string | null): Html {
  if (text === null || text === '') return html``;
  return html`<div class="tail"><div class="muted">${label}</div><pre>${visibleLines(text)}</pre></div>`;
}

/**
 * A handed-off attempt's queue job: its target and the queue's job id. The id is the queue's data
 * (a sql function returns any text), so it is escaped text made visible, like every other value.
 */
function handOffLine(handOff: RunHandOffLine | undefined): Html | string {
  if (!handOff) return '';
  const id = handOff.externalJobId !== null
    ? html`queue job <code class="queue-job-id">${visible(handOff.externalJobId)}</code>`
    : handOff.delivered
      ? html`<span class="muted">the queue returned no job id</span>`
      : html`<span class="muted">queue job id not recorded yet (delivery pending)</span>`;
  return html`<div class="handoff">handed off to ${visible(handOff.target)} · ${id}</div>`;
}

function attemptBlock(attempt: AttemptRow, handOff?: RunHandOffLine): Html {
  const outcome = attempt.exitCode !== null ? `exit ${attempt.exitCode}` : attempt.httpStatus !== null ? `HTTP ${attempt.httpStatus}` : '';
  const took = attempt.finishedAt ? formatDuration(attempt.finishedAt.getTime() - attempt.startedAt.getTime()) : 'still running';
  return html`<div class="attempt" data-attempt="${attempt.attempt}">
<div><strong>attempt ${attempt.attempt}</strong> · ${statusLabel(attempt.status)} · ${outcome} · runner <code>${visible(attempt.runnerId)}</code> · ${formatInstant(attempt.startedAt)} · ${took}</div>
${handOffLine(handOff)}
${attempt.error ? html`<div class="error">error: ${visible(attempt.error)}</div>` : ''}
${tail('stdout (tail)', attempt.stdoutTail)}
${tail('stderr (tail)', attempt.stderrTail)}
</div>`;
}

/** What the run's job reported (SPEC §8a): counts, what it would affect, a few failed items. */
function progressLine(progress: RunProgressLine | undefined): Html {
  if (!progress) return html``;
  const count = (value: number): string => value.toLocaleString('en-US');
  const total = progress.total === null ? '' : ` of ${count(progress.total)}`;
  const affect = progress.wouldAffect === null ? '' : ` · would affect ${count(progress.wouldAffect)}`;
  const failed = progress.failedItems.map((item) => html`<div class="error">failed <code>${visible(item.key)}</code>${item.error ? html`: ${visible(item.error)}` : ''}</div>`);
  return html`<div class="progress muted">${count(progress.done)}${total} done · ${count(progress.failed)} failed${affect}</div>${failed}`;
}

function historyRow(run: RunEntry, attempts: AttemptRow[], actionsAllowed: boolean, progress?: RunProgressLine, handOffs: RunHandOffLine[] = []): Html {
  // The current attempt's queue job id, visible without opening the attempts.
  const current = handOffs.find((h) => h.attempt === run.attempts);
  const delayMs = run.startedAt === null ? null : Date.parse(run.startedAt) - Date.parse(run.scheduledFor);
  return html`<tr data-run="${run.id}">
<td class="num">${run.id}</td>
<td>${formatInstant(run.scheduledFor)}</td>
<td>${run.trigger}</td>
<td>${statusLabel(run.status, run.statusReason)}${run.summarizedSlots ? html` <span class="muted">(${run.summarizedSlots} slots)</span>` : ''}${progressLine(progress)}</td>
<td class="num">${run.attempts}/${run.maxAttempts}</td>
<td class="num">${delayMs === null ? '—' : formatDuration(Math.max(0, delayMs))}</td>
<td class="num">${run.durationMs === null ? '—' : formatDuration(run.durationMs)}</td>
<td>${attempts.length === 0 ? html`<span class="muted">no attempt</span>` : html`<details><summary>${attempts.length} attempt${attempts.length === 1 ? '' : 's'}${current?.externalJobId ? html` · queue job <code class="queue-job-id">${visible(current.externalJobId)}</code>` : ''}</summary>${attempts.map((a) => attemptBlock(a, handOffs.find((h) => h.attempt === a.attempt)))}</details>`}</td>
${actionsAllowed ? html`<td>${runActions(run)}</td>` : ''}
</tr>`;
}

function scheduleActions(name: string, paused: boolean): Html {
  return html`<div class="toolbar">
<form class="inline" data-action="trigger" data-schedule="${name}"><button type="submit">Trigger now</button></form>
${paused
  ? html`<form class="inline" data-action="resume" data-schedule="${name}"><select name="missed" aria-label="missed runs"><option value="skip">leave skipped runs</option><option value="last">run the last skipped</option><option value="all">run all skipped</option></select><button type="submit">Resume</button></form>`
  : html`<form class="inline" data-action="pause" data-schedule="${name}"><input name="reason" required maxlength="500" placeholder="reason (audited)" aria-label="pause reason"><button type="submit" class="danger">Pause</button></form>`}
</div>`;
}

export async function renderSchedulePage(database: Database, name: string, nowMs: number, actionsAllowed: boolean): Promise<{ title: string; body: Html } | undefined> {
  const detail = await findScheduleDetail(database.db, name);
  if (!detail) return undefined;
  const [report, runs] = await Promise.all([
    readScheduleStatus(database, { nowMs, page: { name, offset: 0, limit: 1 }, recentRunsCap: STATS_RECENT_RUNS }),
    listRuns(database, { name, limit: CHART_RUNS, nowMs }),
  ]);
  const history = runs.slice(0, HISTORY_ROWS);
  const [attempts, progress, handOffs] = await Promise.all([
    listAttemptsOfRuns(database.db, history.map((run) => run.id)),
    listProgressOfRuns(database.db, history.map((run) => run.id), FAILED_ITEMS_SHOWN),
    // Whatever the job is now: a run handed off under an earlier version keeps its queue job.
    listHandOffsOfRuns(database.db, history.map((run) => run.id)),
  ]);
  const handOffsByRun = new Map<number, RunHandOffLine[]>();
  for (const handOff of handOffs) handOffsByRun.set(handOff.runId, [...(handOffsByRun.get(handOff.runId) ?? []), handOff]);
  const progressByRun = new Map(progress.map((line) => [line.runId, line]));
  const attemptsByRun = new Map<number, AttemptRow[]>();
  for (const attempt of attempts) attemptsByRun.set(attempt.runId, [...(attemptsByRun.get(attempt.runId) ?? []), attempt]);
  const entry = report.schedules[0];
  const definition = detail.definition;
  const paused = detail.pausedAt !== null;
  const chart = renderRunChart(
    runs.map((run) => ({
      runId: run.id,
      scheduledForMs: Date.parse(run.scheduledFor),
      durationMs: run.durationMs,
      startDelayMs: run.startedAt === null ? null : Date.parse(run.startedAt) - Date.parse(run.scheduledFor),
    })),
  );
  const body = html`<h1>${visible(detail.name)} ${entry ? badges(entry) : html`<span class="badge badge-disabled">${detail.status.toLowerCase()}</span>`}</h1>
${definition.description ? html`<p class="description">${visible(definition.description)}</p>` : ''}
${actionsAllowed && detail.status === 'ACTIVE' ? scheduleActions(detail.name, paused) : ''}
<dl class="facts">
<dt>When</dt><dd>${definition.cron === null ? visible(`after ${(definition.after ?? []).map((a) => a.schedule).join(', ')} succeeds`) : html`${visible(describeCronWords(definition.cron))} <code class="muted">${visible(definition.cron)}</code>`}</dd>
<dt>Zone</dt><dd>${visible(definition.timezone)}</dd>
<dt>Next slot</dt><dd>${detail.nextRunAt ? html`${formatInstant(detail.nextRunAt)} (${formatRelative(detail.nextRunAt.getTime(), nowMs)})` : '—'}</dd>
<dt>Job</dt><dd>${describeJob(definition.job)}</dd>
<dt>Owner</dt><dd>${visible(definition.owner) || '—'}</dd>
<dt>Policies</dt><dd>overlap ${definition.overlap} · misfire ${definition.misfire} · retry ${definition.retry.maxAttempts} attempt(s) · timeout ${formatDuration(definition.timeoutMs)} · criticality ${definition.criticality} · approval ${definition.approval}</dd>
${paused ? html`<dt>Paused</dt><dd>since ${formatInstant(detail.pausedAt)} by ${visible(detail.pausedBy ?? 'unknown')}${detail.pausedReason ? html`: ${visible(detail.pausedReason)}` : ''}${detail.pausedUntil ? html`, until ${formatInstant(detail.pausedUntil)}` : ''}</dd>` : ''}
${entry ? html`<dt>Success (7 d)</dt><dd>${formatPercent(entry.successRate)} of ${entry.finishedRuns} finished · p95 start delay ${entry.p95StartDelayMs === null ? '—' : formatDuration(entry.p95StartDelayMs)} · ${entry.runsToday} runs today (UTC)</dd>` : ''}
<dt>Version</dt><dd>${detail.version}</dd>
</dl>
<h2>Duration and start delay, latest ${runs.length} runs</h2>
${chart}
<h2>Latest runs</h2>
${history.length === 0
  ? html`<p class="empty">No runs yet.</p>`
  : html`<table class="runs"><thead><tr><th>Run</th><th>Slot</th><th>Trigger</th><th>Status</th><th>Attempts</th><th>Start delay</th><th>Duration</th><th>Attempts and output</th>${actionsAllowed ? html`<th>Actions</th>` : ''}</tr></thead>
<tbody>${history.map((run) => historyRow(run, attemptsByRun.get(run.id) ?? [], actionsAllowed, progressByRun.get(run.id), handOffsByRun.get(run.id)))}</tbody></table>`}`;
  return { title: detail.name, body };
}

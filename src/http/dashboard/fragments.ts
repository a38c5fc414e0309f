/** Small pieces several pages print: a run's status, a schedule link, action buttons, a pager. */
import { CANCELLABLE_STATUSES } from '../../operations/runs/cancel.js';
import { RETRYABLE_STATUSES } from '../../operations/runs/retry.js';
import type { RunStatus } from '../../db/run-vocabulary.js';
import { html, pathSegment, visible, type Html } from './html.js';

export function statusLabel(status: string, reason: string | null = null): Html {
  return html`<span class="status status-${status.replace(/[^A-Z_]/g, '')}">${status}</span>${reason ? html` <span class="muted">${visible(reason)}</span>` : ''}`;
}

export function scheduleHref(name: string): string {
  return `/schedules/${pathSegment(name)}`;
}

export function scheduleLink(name: string): Html {
  return html`<a href="${scheduleHref(name)}">${visible(name)}</a>`;
}

/** A button that POSTs one action through the dashboard script (never a plain form submit). */
export function runAction(action: 'approve' | 'retry' | 'cancel', runId: number, label: string, danger = false): Html {
  return html`<form class="inline" data-action="${action}" data-run-id="${runId}"><button type="submit"${danger ? html` class="danger"` : ''}>${label}</button></form>`;
}

/** The actions a run's status allows, as the CLI would accept them. */
export function runActions(run: { id: number; status: string }): Html {
  const status = run.status as RunStatus;
  return html`${status === 'MANUAL_REQUIRED' ? runAction('approve', run.id, 'Approve') : ''}${RETRYABLE_STATUSES.includes(status) ? runAction('retry', run.id, 'Retry') : ''}${CANCELLABLE_STATUSES.includes(status) ? runAction('cancel', run.id, status === 'MANUAL_REQUIRED' ? 'Reject' : 'Cancel', true) : ''}`;
}

export interface Paging {
  page: number;
  pageSize: number;
  total: number;
  /** Query parameters kept on the links (besides page). */
  keep: Record<string, string>;
  path: string;
}

export function pager(paging: Paging): Html {
  const pages = Math.max(1, Math.ceil(paging.total / paging.pageSize));
  const link = (page: number) => {
    const query = new URLSearchParams({ ...paging.keep, page: String(page) });
    return `${paging.path}?${query.toString()}`;
  };
  return html`<div class="pager">
${paging.page > 1 ? html`<a href="${link(paging.page - 1)}" rel="prev">← previous</a>` : ''}
<span class="muted">page ${paging.page} of ${pages} · ${paging.total} schedule${paging.total === 1 ? '' : 's'}</span>
${paging.page < pages ? html`<a href="${link(paging.page + 1)}" rel="next">next →</a>` : ''}
</div>`;
}

export function searchForm(path: string, query: string): Html {
  return html`<form class="toolbar" method="get" action="${path}" role="search">
<label for="q">Schedule name contains</label><input id="q" name="q" value="${query}" maxlength="200"><button type="submit">Filter</button>${query ? html`<a href="${path}">clear</a>` : ''}
</form>`;
}

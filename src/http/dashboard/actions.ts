/**
 * `POST /actions/<verb>`: the operator commands of the CLI, through the same operations, so each
 * is checked and audited exactly as `cronform trigger|approve|retry|cancel|pause|resume` is; the
 * audit row's actor is the dashboard's (DashboardOptions.actor), its reason the one typed in.
 * Reached only when actions are allowed and the request carries the token (dashboard-handler).
 */
import type { Database } from '../../db/client.js';
import type { ChangeAuthor } from '../../operations/actor.js';
import { approveRun } from '../../operations/runs/approve.js';
import { cancelRun } from '../../operations/runs/cancel.js';
import { pauseSchedule } from '../../operations/runs/pause.js';
import { resumeSchedule, type MissedMode } from '../../operations/runs/resume.js';
import { retryRun } from '../../operations/runs/retry.js';
import { triggerRun } from '../../operations/runs/trigger.js';

export const ACTIONS = ['trigger', 'approve', 'retry', 'cancel', 'pause', 'resume'] as const;
export type DashboardAction = (typeof ACTIONS)[number];

/** A request the dashboard refuses before any operation runs (HTTP 400). */
export class ActionRequestError extends Error {}

export interface ActionOutcome {
  message: string;
  result: unknown;
}

const MAX_REASON_LENGTH = 500;

function runIdOf(body: Record<string, unknown>): number {
  const runId = body.runId;
  if (typeof runId !== 'number' || !Number.isSafeInteger(runId) || runId < 1) throw new ActionRequestError('runId must be a run id (a positive whole number)');
  return runId;
}

function scheduleOf(body: Record<string, unknown>): string {
  const schedule = body.schedule;
  if (typeof schedule !== 'string' || schedule === '' || schedule.length > 253) throw new ActionRequestError('schedule must be a schedule name');
  return schedule;
}

function reasonOf(body: Record<string, unknown>): string | null {
  const reason = body.reason;
  if (reason === undefined || reason === null) return null;
  if (typeof reason !== 'string' || reason.length > MAX_REASON_LENGTH) throw new ActionRequestError(`reason must be text of at most ${MAX_REASON_LENGTH} characters`);
  return reason;
}

export async function performAction(database: Database, action: DashboardAction, body: Record<string, unknown>, context: { nowMs: number; actor: string }): Promise<ActionOutcome> {
  const author = (): ChangeAuthor => ({ actor: context.actor, reason: reasonOf(body), gitSha: null });
  const { nowMs } = context;
  switch (action) {
    case 'trigger': {
      const result = await triggerRun(database, { name: scheduleOf(body), forceNew: body.forceNew === true, nowMs, author: author() });
      return { message: `run ${result.runId} of ${result.schedule} is ${result.status}`, result };
    }
    case 'approve': {
      const result = await approveRun(database, { runId: runIdOf(body), nowMs, author: author() });
      return { message: `run ${result.runId} approved: ${result.status}`, result };
    }
    case 'retry': {
      const result = await retryRun(database, { runId: runIdOf(body), nowMs, author: author() });
      return { message: `run ${result.runId} queued for attempt ${result.attempt}`, result };
    }
    case 'cancel': {
      const result = await cancelRun(database, { runId: runIdOf(body), nowMs, author: author() });
      return { message: `run ${result.runId} cancelled`, result };
    }
    case 'pause': {
      const result = await pauseSchedule(database, { name: scheduleOf(body), reason: reasonOf(body) ?? '', untilMs: null, nowMs, author: author() });
      return { message: `${result.schedule} paused`, result };
    }
    case 'resume': {
      const missed = body.missed ?? 'skip';
      if (missed !== 'skip' && missed !== 'last' && missed !== 'all') throw new ActionRequestError('missed must be skip, last or all');
      const result = await resumeSchedule(database, { name: scheduleOf(body), missed: missed as MissedMode, nowMs, author: author() });
      return { message: `${result.schedule} resumed (${result.requeued.length} run(s) put back)`, result };
    }
  }
}

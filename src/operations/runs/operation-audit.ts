/** The audit rows written by operator commands on runs and schedules (SPEC §6, §7). */
import type { NewAuditRow } from '../../db/schedule-queries.js';
import type { ChangeAuthor } from '../actor.js';

export type OperationAction = 'RUN_TRIGGERED' | 'BACKFILL_CREATED' | 'RUN_RETRIED' | 'RUN_APPROVED' | 'RUN_CANCELLED' | 'SCHEDULE_PAUSED' | 'SCHEDULE_RESUMED';

export interface AuditedSchedule {
  id: number;
  name: string;
  version: number;
}

export function operationAuditRow(
  author: ChangeAuthor,
  at: Date,
  action: OperationAction,
  schedule: AuditedSchedule,
  details: { runId?: number; before?: unknown; after?: unknown; reason?: string | null },
): NewAuditRow {
  return {
    at,
    actor: author.actor,
    action,
    scheduleId: schedule.id,
    scheduleName: schedule.name,
    version: schedule.version,
    runId: details.runId ?? null,
    before: details.before ?? null,
    after: details.after ?? null,
    reason: details.reason ?? author.reason,
    gitSha: author.gitSha,
  };
}

/** `runs [name]`: run history, newest slot first (SPEC §7 operations). */
import type { Database } from '../../db/client.js';
import { listRuns as selectRuns, scheduleNameExists } from '../../db/run-report-queries.js';
import { RUN_STATUSES, type RunStatus } from '../../db/run-vocabulary.js';
import { RunOperationError } from './run-operation-error.js';
import { describeRunReason } from './run-reason.js';
import { MS_PER_DAY } from '../../time/civil.js';

export const DEFAULT_RUN_LIMIT = 50;

export interface ListRunsOptions {
  name?: string | undefined;
  status?: string | undefined;
  /** Runs whose slot is at or after this instant. */
  sinceMs?: number | undefined;
  limit?: number | undefined;
  /** Now: the newest week's runs are read first (db/run-report-queries.ts, `recentFrom`). */
  nowMs?: number | undefined;
}

/** How far back `runs` first looks for the newest runs before it reads older days. */
const RECENT_RUNS_MS = 7 * MS_PER_DAY;

export interface RunEntry {
  id: number;
  schedule: string;
  scheduledFor: string;
  trigger: string;
  status: string;
  /**
   * SKIPPED/MISSED/STALLED… as recorded; for a run whose last attempt failed (FAILED, RETRY_PENDING,
   * CANCELLED) and that recorded none, that attempt's error, exit code or HTTP status.
   */
  statusReason: string | null;
  attempts: number;
  maxAttempts: number;
  businessDate: string | null;
  /** First attempt's start. */
  startedAt: string | null;
  finishedAt: string | null;
  /** finishedAt − startedAt: with retries it includes the time between attempts. */
  durationMs: number | null;
  /** A summary row standing for this many slots of a long outage. */
  summarizedSlots: number | null;
  /** How the latest attempt ended; null before the first. */
  lastAttempt: { attempt: number; status: string; exitCode: number | null; httpStatus: number | null; error: string | null } | null;
}

export async function listRuns(database: Database, options: ListRunsOptions): Promise<RunEntry[]> {
  const limit = options.limit ?? DEFAULT_RUN_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) throw new RunOperationError(`--limit must be a whole number of at least 1 (got ${limit})`);
  const status = options.status?.toUpperCase();
  if (status !== undefined && !RUN_STATUSES.includes(status as RunStatus)) throw new RunOperationError(`--status must be one of ${RUN_STATUSES.join(', ')} (got ${JSON.stringify(options.status)})`);
  if (options.name !== undefined && !(await scheduleNameExists(database.db, options.name))) {
    // `runs 4` is most often meant as the details of run 4 (SPEC §8): say so.
    const hint = /^[0-9]+$/.test(options.name) ? ` (did you mean \`cronform runs show ${options.name}\` for the details of run ${options.name}?)` : '';
    throw new RunOperationError(`no schedule named ${JSON.stringify(options.name)}${hint}`);
  }
  const rows = await selectRuns(database.db, {
    scheduleName: options.name,
    status,
    since: options.sinceMs === undefined ? undefined : new Date(options.sinceMs),
    limit,
    recentFrom: options.nowMs === undefined ? undefined : new Date(options.nowMs - RECENT_RUNS_MS),
  });
  return rows.map((row) => ({
    id: row.id,
    schedule: row.schedule,
    scheduledFor: row.scheduledFor.toISOString(),
    trigger: row.triggerType,
    status: row.status,
    statusReason: describeRunReason(row.status, row.statusReason, row.lastAttempt),
    attempts: row.attempts,
    maxAttempts: row.maxAttempts,
    businessDate: row.businessDate,
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    durationMs: row.startedAt && row.finishedAt ? row.finishedAt.getTime() - row.startedAt.getTime() : null,
    summarizedSlots: row.summarizedSlots,
    lastAttempt: row.lastAttempt,
  }));
}

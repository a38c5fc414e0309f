/**
 * `runs show <runId>` and `logs <runId>` (SPEC §8): one run with every attempt, as an on-call
 * engineer needs it. Output tails are read as stored: the runner redacted the values of the job's
 * `fromEnv` references before writing them (runner/executors/secret-redaction.ts), so what is
 * shown here is what the database holds, and nothing is redacted twice or differently.
 */
import type { Database } from '../../db/client.js';
import { findRunDetail, listRunAttempts, listRunEvents, type AttemptRow } from '../../db/run-detail-queries.js';
import { findDownstreamRuns, loadRunContexts } from '../../db/dependency-queries.js';
import { PRIORITY_RANK } from '../../runner/run-types.js';
import { RunOperationError } from './run-operation-error.js';
import { describeAttemptFailure, describeRunReason } from './run-reason.js';

export interface AttemptDetail {
  attempt: number;
  runnerId: string;
  /** CLAIMED, RUNNING, SUCCEEDED, FAILED, TIMED_OUT, STALLED, CANCELLED. */
  status: string;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  exitCode: number | null;
  httpStatus: number | null;
  error: string | null;
  /** Why it did not succeed, in one line (the error, else exit code or HTTP status); null if it did. */
  failure: string | null;
  /** The last bytes of stdout (a command) or of the response body (http), secrets redacted by the runner. */
  stdoutTail: string | null;
  stderrTail: string | null;
}

export interface RunEvent {
  at: string;
  actor: string;
  action: string;
  reason: string | null;
}

export interface RunDetail {
  id: number;
  schedule: string;
  /** The definition version the run was created with. */
  scheduleVersion: number;
  scheduledFor: string;
  trigger: string;
  idempotencyKey: string;
  businessDate: string | null;
  status: string;
  /** As in `runs`: the recorded reason, else the last attempt's failure. */
  statusReason: string | null;
  priority: string;
  queue: string;
  /** Earliest start: slot + jitter, or the retry time. */
  runAfter: string;
  attempts: number;
  maxAttempts: number;
  leaseOwner: string | null;
  leaseExpiresAt: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  summarizedSlots: number | null;
  attemptDetails: AttemptDetail[];
  /** Operations recorded against this run (trigger, retry, approve, cancel), oldest first. */
  events: RunEvent[];
  /** The upstream run whose SUCCESS created this DEPENDENCY run (`spec.after`); null otherwise. */
  upstreamRunId: number | null;
  /** The DEPENDENCY runs this run's SUCCESS created. */
  downstreamRuns: Array<{ runId: number; schedule: string; status: string }>;
  /** `spec.inputs` as frozen at the run's first claim; null before it, or without inputs. */
  inputs: Record<string, string> | null;
}

const PRIORITY_NAMES = Object.fromEntries(Object.entries(PRIORITY_RANK).map(([name, rank]) => [rank, name])) as Record<number, string>;

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;
const elapsedMs = (from: Date | null, to: Date | null): number | null => (from && to ? to.getTime() - from.getTime() : null);

function toAttemptDetail(row: AttemptRow): AttemptDetail {
  return {
    attempt: row.attempt,
    runnerId: row.runnerId,
    status: row.status,
    startedAt: row.startedAt.toISOString(),
    finishedAt: iso(row.finishedAt),
    durationMs: elapsedMs(row.startedAt, row.finishedAt),
    exitCode: row.exitCode,
    httpStatus: row.httpStatus,
    error: row.error,
    failure: describeAttemptFailure(row),
    stdoutTail: row.stdoutTail,
    stderrTail: row.stderrTail,
  };
}

export async function showRun(database: Database, runId: number): Promise<RunDetail> {
  const run = await findRunDetail(database.db, runId);
  if (!run) throw new RunOperationError(`no run with id ${runId} (\`cronform runs\` lists recent runs with their ids)`);
  const [attempts, events, contexts, downstream] = await Promise.all([
    listRunAttempts(database.db, runId),
    listRunEvents(database.db, runId),
    loadRunContexts(database.db, [runId]),
    findDownstreamRuns(database.db, runId),
  ]);
  const context = contexts.get(runId);
  const last = attempts[attempts.length - 1] ?? null;
  return {
    id: run.id,
    schedule: run.schedule,
    scheduleVersion: run.scheduleVersion,
    scheduledFor: run.scheduledFor.toISOString(),
    trigger: run.triggerType,
    idempotencyKey: run.idempotencyKey,
    businessDate: run.businessDate,
    status: run.status,
    statusReason: describeRunReason(run.status, run.statusReason, last),
    priority: PRIORITY_NAMES[run.priority] ?? String(run.priority),
    queue: run.queue,
    runAfter: run.runAfter.toISOString(),
    attempts: run.attempts,
    maxAttempts: run.maxAttempts,
    leaseOwner: run.leaseOwner,
    leaseExpiresAt: iso(run.leaseExpiresAt),
    createdAt: run.createdAt.toISOString(),
    startedAt: iso(run.startedAt),
    finishedAt: iso(run.finishedAt),
    durationMs: elapsedMs(run.startedAt, run.finishedAt),
    summarizedSlots: run.summarizedSlots,
    attemptDetails: attempts.map(toAttemptDetail),
    events: events.map((event) => ({ at: event.at.toISOString(), actor: event.actor, action: event.action, reason: event.reason })),
    upstreamRunId: context?.upstreamRunId ?? null,
    downstreamRuns: downstream.map((d) => ({ runId: d.runId, schedule: d.scheduleName, status: d.status })),
    inputs: context?.inputs ?? null,
  };
}

export interface RunLogs {
  runId: number;
  schedule: string;
  attempt: number;
  status: string;
  stdoutTail: string | null;
  stderrTail: string | null;
}

/** The stored tails of one attempt: the latest unless `attempt` is given. */
export async function readRunLogs(database: Database, runId: number, attempt?: number): Promise<RunLogs> {
  const run = await findRunDetail(database.db, runId);
  if (!run) throw new RunOperationError(`no run with id ${runId} (\`cronform runs\` lists recent runs with their ids)`);
  const attempts = await listRunAttempts(database.db, runId, attempt);
  const chosen = attempts[attempts.length - 1];
  if (!chosen) {
    if (attempt === undefined) throw new RunOperationError(`run ${runId} of ${run.schedule} has no attempt yet (it is ${run.status}): nothing ran, so there is no output`);
    throw new RunOperationError(`run ${runId} of ${run.schedule} has no attempt ${attempt} (attempts used: ${run.attempts})`);
  }
  return { runId, schedule: run.schedule, attempt: chosen.attempt, status: chosen.status, stdoutTail: chosen.stdoutTail, stderrTail: chosen.stderrTail };
}

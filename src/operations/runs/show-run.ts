/**
 * `runs show <runId>` and `logs <runId>` (SPEC §8): one run with every attempt, as an on-call
 * engineer needs it. Output tails are read as stored: the runner redacted the values of the job's
 * `fromEnv` references before writing them (runner/executors/secret-redaction.ts), so what is
 * shown here is what the database holds, and nothing is redacted twice or differently.
 */
import type { Database } from '../../db/client.js';
import { listHandOffs, type HandOffDetail } from '../../db/queue-handoff-queries.js';
import { findRunDetail, listRunAttempts, listRunEvents, type AttemptRow } from '../../db/run-detail-queries.js';
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
  /** Present only for an attempt handed to a queue (job type queue): the queue's job and the worker's reports. */
  handOff?: HandOffSummary;
}

/** Where a handed-off attempt went and what its worker reported (docs/queue-handoff.md). */
export interface HandOffSummary {
  system: string;
  target: string;
  /** The key the queue deduplicates by. */
  jobKey: string;
  /** The queue's own id of the job (graphile-worker job id, pg-boss uuid, a sql function's result). */
  externalJobId: string | null;
  handedOffAt: string;
  /** The attempt's timeout: its lease never reaches past it. */
  deadlineAt: string;
  reportedStartAt: string | null;
  lastHeartbeatAt: string | null;
  reportedFinishAt: string | null;
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
}

const PRIORITY_NAMES = Object.fromEntries(Object.entries(PRIORITY_RANK).map(([name, rank]) => [rank, name])) as Record<number, string>;

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;
const elapsedMs = (from: Date | null, to: Date | null): number | null => (from && to ? to.getTime() - from.getTime() : null);

function toHandOffSummary(handOff: HandOffDetail): HandOffSummary {
  return {
    system: handOff.system,
    target: handOff.target,
    jobKey: handOff.jobKey,
    externalJobId: handOff.externalJobId,
    handedOffAt: handOff.handedOffAt.toISOString(),
    deadlineAt: handOff.deadlineAt.toISOString(),
    reportedStartAt: iso(handOff.startedAt),
    lastHeartbeatAt: iso(handOff.lastHeartbeatAt),
    reportedFinishAt: iso(handOff.finishedAt),
  };
}

function toAttemptDetail(row: AttemptRow, handOff: HandOffDetail | undefined): AttemptDetail {
  return {
    ...(handOff ? { handOff: toHandOffSummary(handOff) } : {}),
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
  const [attempts, events, handOffs] = await Promise.all([listRunAttempts(database.db, runId), listRunEvents(database.db, runId), listHandOffs(database.db, runId)]);
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
    attemptDetails: attempts.map((row) => toAttemptDetail(row, handOffs.find((h) => h.attempt === row.attempt))),
    events: events.map((event) => ({ at: event.at.toISOString(), actor: event.actor, action: event.action, reason: event.reason })),
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

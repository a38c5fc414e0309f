/**
 * `runs show <runId>` and `logs <runId>` (SPEC §8): one run with every attempt, as an on-call
 * engineer needs it. Output tails are read as stored: the runner redacted the values of the job's
 * `fromEnv` references before writing them (runner/executors/secret-redaction.ts), so what is
 * shown here is what the database holds, and nothing is redacted twice or differently.
 */
import type { Database } from '../../db/client.js';
import { listHandOffs, type HandOffDetail } from '../../db/queue-handoff-queries.js';
import { findRunDetail, listRunAttempts, listRunEvents, type AttemptRow } from '../../db/run-detail-queries.js';
import { loadRunProgress } from '../../db/run-progress-queries.js';
import { findRunSteps, type StepRow } from '../../db/step-queries.js';
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
  /** A queue in another database: the outbox delivery (pending until the queue's job id is recorded). */
  delivery?: { urlFromEnv: string; delivered: boolean; tries: number; lastError: string | null };
}

/** What the run's job reported (SPEC §8a): counts across attempts, and its items, failed first. */
export interface RunProgressDetail {
  total: number | null;
  done: number;
  failed: number;
  wouldAffect: number | null;
  /** After `approve` of a run stopped by `safety.maxAffected`: what its next attempts may affect. */
  approvedAffected: number | null;
  /** More items than a run keeps one by one were reported: they are counted, not listed. */
  itemsTruncated: boolean;
  updatedAt: string;
  /** At most SHOWN_ITEMS, failed first, then by key. */
  items: Array<{ key: string; status: string; attempt: number; error: string | null }>;
}

/** Items listed by `runs show`; the counts cover them all. */
export const SHOWN_ITEMS = 20;

/** One step of a workflow in one attempt (docs/workflows.md). */
export interface StepDetail {
  attempt: number;
  /** 0-based position in the run's definition. */
  index: number;
  name: string;
  /** RUNNING, SUCCEEDED, FAILED, TIMED_OUT, CANCELLED, or RESET (to run again, `retry --from-step`). */
  status: string;
  /** Tries inside the attempt (the step's own retry). */
  tries: number;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  exitCode: number | null;
  httpStatus: number | null;
  error: string | null;
  stdoutTail: string | null;
  stderrTail: string | null;
  /** The JSON object it wrote to CRONFORM_STEP_OUTPUT, read by later steps. */
  result: Record<string, unknown> | null;
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
  /** A workflow's steps, by attempt then position; empty for a single job. */
  steps: StepDetail[];
  /** Operations recorded against this run (trigger, retry, approve, cancel), oldest first. */
  events: RunEvent[];
  /** Only when the job reported progress. */
  progress?: RunProgressDetail;
  /** The upstream run whose SUCCESS created this DEPENDENCY run (`spec.after`); null otherwise. */
  upstreamRunId: number | null;
  /** Every upstream run of this DEPENDENCY run, schedule name → run id (a join has several); null otherwise. */
  upstreamRunIds: Record<string, number> | null;
  /** The DEPENDENCY runs this run's SUCCESS created. */
  downstreamRuns: Array<{ runId: number; schedule: string; status: string }>;
  /** `spec.inputs` as frozen at the run's first claim; null before it, or without inputs. */
  inputs: Record<string, string> | null;
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
    ...(handOff.delivery ? { delivery: handOff.delivery } : {}),
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

function toStepDetail(row: StepRow): StepDetail {
  return {
    attempt: row.attempt,
    index: row.stepIndex,
    name: row.name,
    status: row.status,
    tries: row.tries,
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
    durationMs: elapsedMs(row.startedAt, row.finishedAt),
    exitCode: row.exitCode,
    httpStatus: row.httpStatus,
    error: row.error,
    stdoutTail: row.stdoutTail,
    stderrTail: row.stderrTail,
    result: row.result,
  };
}

export async function showRun(database: Database, runId: number): Promise<RunDetail> {
  const run = await findRunDetail(database.db, runId);
  if (!run) throw new RunOperationError(`no run with id ${runId} (\`cronform runs\` lists recent runs with their ids)`);
  const [attempts, events, reported, steps, contexts, downstream, handOffs] = await Promise.all([
    listRunAttempts(database.db, runId),
    listRunEvents(database.db, runId),
    loadRunProgress(database.db, runId, SHOWN_ITEMS),
    findRunSteps(database.db, runId),
    loadRunContexts(database.db, [runId]),
    findDownstreamRuns(database.db, runId),
    listHandOffs(database.db, runId),
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
    attemptDetails: attempts.map((row) => toAttemptDetail(row, handOffs.find((h) => h.attempt === row.attempt))),
    steps: steps.map(toStepDetail),
    events: events.map((event) => ({ at: event.at.toISOString(), actor: event.actor, action: event.action, reason: event.reason })),
    ...(reported.progress ? { progress: { ...reported.progress, updatedAt: reported.progress.updatedAt.toISOString(), items: reported.items } } : {}),
    upstreamRunId: context?.upstreamRunId ?? null,
    upstreamRunIds: context?.upstreamRunIds ?? null,
    downstreamRuns: downstream.map((d) => ({ runId: d.runId, schedule: d.scheduleName, status: d.status })),
    inputs: context?.inputs ?? null,
  };
}

export interface RunLogs {
  runId: number;
  schedule: string;
  attempt: number;
  /** The step whose output this is (`logs --step`); absent for the attempt's own. */
  step?: string;
  status: string;
  stdoutTail: string | null;
  stderrTail: string | null;
}

/** The stored tails of one attempt: the latest unless `attempt` is given; of one of its steps with `step`. */
export async function readRunLogs(database: Database, runId: number, attempt?: number, step?: string): Promise<RunLogs> {
  const run = await findRunDetail(database.db, runId);
  if (!run) throw new RunOperationError(`no run with id ${runId} (\`cronform runs\` lists recent runs with their ids)`);
  if (step !== undefined) return readStepLogs(database, run, attempt, step);
  const attempts = await listRunAttempts(database.db, runId, attempt);
  const chosen = attempts[attempts.length - 1];
  if (!chosen) {
    if (attempt === undefined) throw new RunOperationError(`run ${runId} of ${run.schedule} has no attempt yet (it is ${run.status}): nothing ran, so there is no output`);
    throw new RunOperationError(`run ${runId} of ${run.schedule} has no attempt ${attempt} (attempts used: ${run.attempts})`);
  }
  return { runId, schedule: run.schedule, attempt: chosen.attempt, status: chosen.status, stdoutTail: chosen.stdoutTail, stderrTail: chosen.stderrTail };
}

/** A step's tails: from the latest attempt that ran it (RESET rows ran nothing), or from `attempt`. */
async function readStepLogs(database: Database, run: { id: number; schedule: string }, attempt: number | undefined, step: string): Promise<RunLogs> {
  const rows = await findRunSteps(database.db, run.id);
  const names = [...new Set(rows.map((row) => row.name))];
  const ran = rows.filter((row) => row.name === step && row.status !== 'RESET' && (attempt === undefined || row.attempt === attempt));
  const chosen = ran[ran.length - 1];
  if (!chosen) {
    if (names.length === 0) throw new RunOperationError(`run ${run.id} of ${run.schedule} has no recorded steps: --step is for workflows (spec.job.steps) that have started`);
    if (!names.includes(step)) throw new RunOperationError(`run ${run.id} of ${run.schedule} has no step ${JSON.stringify(step)} (recorded steps: ${names.join(', ')})`);
    throw new RunOperationError(`step ${JSON.stringify(step)} of run ${run.id} did not run${attempt === undefined ? '' : ` in attempt ${attempt}`}`);
  }
  return { runId: run.id, schedule: run.schedule, attempt: chosen.attempt, step, status: chosen.status, stdoutTail: chosen.stdoutTail, stderrTail: chosen.stderrTail };
}

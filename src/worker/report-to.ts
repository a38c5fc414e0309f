/**
 * `cronform/worker`: what a queue's worker uses to report on a run cronform handed off
 * (docs/queue-handoff.md). `reportTo` wraps a graphile-worker task or a pg-boss handler: it
 * reports the start, heartbeats while the handler runs, and the outcome, through the SQL
 * functions `cronform migrate` installs (`cronform.run_started`, `run_heartbeat`, `run_finished`).
 * Nothing else of cronform is loaded: a worker process pays only for this file.
 */

/** What every queue job cronform hands off carries (its payload, whatever the queue). */
export interface HandedOffRun {
  scheduleRunId: number;
  attempt: number;
  /** Stable across attempts and hand-offs of one run: make the job's side effects idempotent on it. */
  idempotencyKey: string;
  schedule: string;
  businessDate: string | null;
  scheduledFor: string;
  trigger: string;
  /** The manifest's `spec.payload`. */
  payload: Record<string, unknown>;
}

/** A pg Pool or Client (anything with pg's `query(text, values)`) connected to cronform's database. */
export interface ReportingClient {
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

export interface RunReports {
  /** False when the run is no longer waiting for this attempt (finished, cancelled, declared stalled): do not do the work. */
  started(run: HandedOffRun): Promise<boolean>;
  /** Extends the run's lease; false when cronform no longer considers this attempt running. */
  heartbeat(run: HandedOffRun): Promise<boolean>;
  /** The run's new status (SUCCESS, FAILED, RETRY_PENDING), or null when the report was ignored. */
  finished(run: HandedOffRun, status: 'SUCCESS' | 'FAILED', error?: string): Promise<string | null>;
}

/** The three report functions, called on `client` with bound parameters. */
export function runReports(client: ReportingClient): RunReports {
  return {
    async started(run) {
      const { rows } = await client.query('select cronform.run_started($1::bigint, $2::int) as ok', [run.scheduleRunId, run.attempt]);
      return rows[0]?.ok === true;
    },
    async heartbeat(run) {
      const { rows } = await client.query('select cronform.run_heartbeat($1::bigint, $2::int) as ok', [run.scheduleRunId, run.attempt]);
      return rows[0]?.ok === true;
    },
    async finished(run, status, error) {
      const { rows } = await client.query('select cronform.run_finished($1::bigint, $2::text, $3::text, $4::int) as status', [run.scheduleRunId, status, error ?? null, run.attempt]);
      return (rows[0]?.status as string | null | undefined) ?? null;
    },
  };
}

export interface ReportOptions {
  /** Between heartbeats; keep it well under the runner's lease (default 10 s, a third of the default 30 s lease). */
  heartbeatMs?: number;
  /** Told when a heartbeat could not be sent (the handler keeps running; the lease may expire). */
  onHeartbeatError?: (error: unknown) => void;
}

export interface HandlerContext {
  /** Aborted when cronform no longer considers this attempt running (cancelled, or declared stalled). */
  signal: AbortSignal;
  /** The queue's own job object (graphile-worker's helpers.job, or pg-boss's job). */
  job: unknown;
}

export type RunHandler<R> = (run: HandedOffRun, context: HandlerContext) => Promise<R>;

/**
 * Wraps `handler` as a graphile-worker task `(payload, helpers)` or a pg-boss (10) work handler
 * `(jobs)`, told apart by their arguments. A failure is reported only on the queue's last
 * attempt of the job (cronform's defaults allow one), so that a queue retry does not end the run
 * early; the error is rethrown to the queue either way.
 */
export function reportTo<R>(client: ReportingClient, handler: RunHandler<R>, options: ReportOptions = {}): (first: unknown, second?: unknown) => Promise<R | R[] | undefined> {
  const reports = runReports(client);
  return async (first, second) => {
    if (Array.isArray(first)) {
      // pg-boss: a batch of jobs; its retryCount/retryLimit are there with includeMetadata.
      const results: R[] = [];
      for (const job of first as Array<{ data: unknown; retryCount?: number; retryLimit?: number }>) {
        const final = job.retryLimit === undefined || (job.retryCount ?? 0) >= job.retryLimit;
        const result = await runOne(reports, handler, options, job.data, job, final);
        if (result.ran) results.push(result.value);
      }
      return results;
    }
    const job = (second as { job?: { attempts: number; max_attempts: number } } | undefined)?.job;
    const final = job === undefined || job.attempts >= job.max_attempts;
    const result = await runOne(reports, handler, options, first, job, final);
    return result.ran ? result.value : undefined;
  };
}

function handedOffRunOf(payload: unknown): HandedOffRun {
  const run = payload as Partial<HandedOffRun> | null;
  if (!run || typeof run !== 'object' || !Number.isInteger(run.scheduleRunId) || !Number.isInteger(run.attempt) || typeof run.idempotencyKey !== 'string') {
    throw new TypeError('not a cronform hand-off: the job payload has no scheduleRunId, attempt and idempotencyKey');
  }
  return run as HandedOffRun;
}

async function runOne<R>(reports: RunReports, handler: RunHandler<R>, options: ReportOptions, payload: unknown, job: unknown, final: boolean): Promise<{ ran: true; value: R } | { ran: false }> {
  const run = handedOffRunOf(payload);
  // A stale job (its run finished, was cancelled, or moved to a newer attempt) does no work.
  if (!(await reports.started(run))) return { ran: false };
  const controller = new AbortController();
  const timer = setInterval(() => {
    reports.heartbeat(run).then(
      (held) => {
        if (!held) controller.abort('cronform no longer runs this attempt (cancelled, or declared stalled)');
      },
      (error: unknown) => options.onHeartbeatError?.(error),
    );
  }, options.heartbeatMs ?? 10_000);
  timer.unref?.();
  try {
    const value = await handler(run, { signal: controller.signal, job });
    await reports.finished(run, 'SUCCESS');
    return { ran: true, value };
  } catch (error) {
    if (final) await reports.finished(run, 'FAILED', error instanceof Error ? error.message : String(error));
    throw error;
  } finally {
    clearInterval(timer);
  }
}

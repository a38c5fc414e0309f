/**
 * `GET /healthz`: is this runner doing its work? 200 when its loop (schedule, claim, heartbeat,
 * reconcile) completed within the last `staleAfterMs` and the database answers now; 503 otherwise,
 * with the reason. The loop completes at least every third of a lease (it heartbeats), so the
 * runner command uses one lease: a runner whose loop has not completed for a whole lease can no
 * longer renew its leases, and other runners are about to take its runs over. Before the first
 * completed loop the runner's start counts as one (a long first catch-up is not a failure).
 * The body (JSON) is for a person reading a failed probe: runner id, database reachable, last
 * successful loop.
 */
import type { Database } from '../db/client.js';
import { pingDatabase } from '../db/metrics-queries.js';
import type { Clock } from '../shared/clock.js';
import type { HttpHandler } from './http-handler.js';
import { acceptReadOnly, sendJson } from './responses.js';

export interface HealthSource {
  runnerId: string;
  /** When the runner's loop last completed, by `clock`; undefined before the first. */
  lastSuccessfulLoopMs(): number | undefined;
}

export interface HealthOptions {
  source: HealthSource;
  database: Database;
  clock: Clock;
  staleAfterMs: number;
  /** How long the database may take to answer the probe's query. */
  databaseTimeoutMs?: number;
}

export function createHealthHandler(options: HealthOptions): HttpHandler {
  const startedMs = options.clock.nowMs();
  return async (_request, response, url) => {
    if (url.pathname !== '/healthz') return false;
    if (!acceptReadOnly(response)) return true;
    const nowMs = options.clock.nowMs();
    const lastLoopMs = options.source.lastSuccessfulLoopMs();
    const loopAgeMs = nowMs - (lastLoopMs ?? startedMs);
    const databaseError = await checkDatabase(options.database, options.clock, options.databaseTimeoutMs ?? 2_000);
    const problems = [
      ...(loopAgeMs > options.staleAfterMs ? [`runner loop has not completed for ${Math.round(loopAgeMs / 1000)} s (limit ${Math.round(options.staleAfterMs / 1000)} s)`] : []),
      ...(databaseError === null ? [] : [`database unreachable: ${databaseError}`]),
    ];
    sendJson(response, problems.length === 0 ? 200 : 503, {
      status: problems.length === 0 ? 'ok' : 'failing',
      runnerId: options.source.runnerId,
      database: { reachable: databaseError === null },
      lastSuccessfulLoop: lastLoopMs === undefined ? null : new Date(lastLoopMs).toISOString(),
      problems,
    });
    return true;
  };
}

async function checkDatabase(database: Database, clock: Clock, timeoutMs: number): Promise<string | null> {
  let cancelTimer: (() => void) | undefined;
  const timeout = new Promise<string>((resolve) => {
    cancelTimer = clock.setTimer(timeoutMs, () => resolve(`no answer within ${timeoutMs} ms`));
  });
  try {
    return await Promise.race([pingDatabase(database.db).then(() => null), timeout]);
  } catch (error) {
    return (error as Error).message;
  } finally {
    cancelTimer?.();
  }
}

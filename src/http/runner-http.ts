/**
 * The HTTP server of `cronform runner --http` and `cronform dev --http`: the one place that lists
 * what it serves: metrics, health, then the dashboard (which answers only its own paths).
 */
import type { Database } from '../db/client.js';
import type { Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
import { createDashboardHandler } from './dashboard/index.js';
import { createHealthHandler, type HealthSource } from './health-handler.js';
import type { HttpHandler } from './http-handler.js';
import { createMetricsHandler } from './metrics/metrics-handler.js';
import { RunnerMetrics } from './metrics/runner-metrics.js';
import { startHttpServer, type HttpServer } from './server.js';

export interface RunnerHttpContext {
  database: Database;
  clock: Clock;
  logger: Logger;
  metrics: RunnerMetrics;
  runner: HealthSource;
  /** The runner's lease: /healthz fails once its loop has not completed for that long. */
  leaseMs: number;
  /** The dashboard at `/`: read-only unless `allowActions` (then `token` is required, checked before start). */
  dashboard: { allowActions: boolean; token?: string | undefined; allowedHosts?: readonly string[] | undefined };
}

/** The metrics the runner must report to (its `observer`), made before the runner itself. */
export function createRunnerMetrics(context: { database: Database; clock: Clock; logger: Logger; leaseMs: number }): RunnerMetrics {
  // A runner is alive while the reconciler would not yet mark it stopped (three leases of silence).
  return new RunnerMetrics({ database: context.database, clock: context.clock, logger: context.logger, runnerSilenceMs: context.leaseMs * 3 });
}

export function runnerHandlers(context: RunnerHttpContext): HttpHandler[] {
  return [
    createMetricsHandler(context.metrics),
    createHealthHandler({ source: context.runner, database: context.database, clock: context.clock, staleAfterMs: context.leaseMs }),
    createDashboardHandler({
      database: context.database,
      clock: context.clock,
      allowActions: context.dashboard.allowActions,
      token: context.dashboard.token,
      allowedHosts: context.dashboard.allowedHosts,
      onError: (error, what) => context.logger.error(`dashboard: ${what}`, { err: error instanceof Error ? error.message : String(error) }),
    }),
  ];
}

export function startRunnerHttpServer(address: string, context: RunnerHttpContext): Promise<HttpServer> {
  return startHttpServer({ address, handlers: runnerHandlers(context), logger: context.logger });
}

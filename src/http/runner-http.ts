/**
 * The HTTP server of `cronform runner --http` and `cronform dev --http`: the one place that lists
 * what it serves. A new part (the dashboard) is one more handler in `runnerHandlers`.
 */
import type { Database } from '../db/client.js';
import type { Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
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
  ];
}

export function startRunnerHttpServer(address: string, context: RunnerHttpContext): Promise<HttpServer> {
  return startHttpServer({ address, handlers: runnerHandlers(context), logger: context.logger });
}

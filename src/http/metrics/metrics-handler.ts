import type { HttpHandler } from '../http-handler.js';
import { acceptReadOnly, sendText } from '../responses.js';
import type { RunnerMetrics } from './runner-metrics.js';

/** `GET /metrics`: the Prometheus text of this runner's registry (runner-metrics.ts says what each value means). */
export function createMetricsHandler(metrics: RunnerMetrics): HttpHandler {
  return async (_request, response, url) => {
    if (url.pathname !== '/metrics') return false;
    if (acceptReadOnly(response)) sendText(response, 200, metrics.contentType, await metrics.render());
    return true;
  };
}

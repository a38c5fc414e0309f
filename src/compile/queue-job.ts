/**
 * Words for a queue job (docs/queue-handoff.md) that the plan, the dashboard and the run details
 * share: what it targets, and which of its fields make it a different job.
 */
import type { QueueJobDefinition } from './definition.js';

/** `graphile-worker task send-report (queue reports)`, `pg-boss queue send-report`, `sql app.enqueue_report(a => businessDate)` (arguments by name: their order means nothing). */
export function describeQueueTarget(job: QueueJobDefinition): string {
  return job.url === undefined ? describeQueueJobTarget(job) : `${describeQueueJobTarget(job)} in database $${job.url.fromEnv}`;
}

function describeQueueJobTarget(job: QueueJobDefinition): string {
  switch (job.system) {
    case 'graphile-worker':
      return `graphile-worker task ${job.task}${job.queueName !== undefined ? ` (queue ${job.queueName})` : ''}`;
    case 'pg-boss':
      return `pg-boss queue ${job.name}`;
    case 'sql':
      return `sql ${job.function}(${Object.keys(job.arguments).length === 0 ? 'document' : Object.entries(job.arguments).sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, source]) => `${name} => ${source}`).join(', ')})`;
  }
}

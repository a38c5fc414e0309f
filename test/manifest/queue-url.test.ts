/**
 * A queue job's `url` (docs/queue-handoff.md, "A queue in another database"): only ever a
 * reference to the runner's environment, since a database URL carries its password. A literal is
 * CF040 at its position and nothing is compiled; a reference compiles, and the plan names the
 * variable, never a value.
 */
import { describe, expect, it } from 'vitest';
import { compileSources } from '../../src/compile/compile-sources.js';
import { describeJob } from '../../src/plan/render-job.js';

const NOW_MS = Date.parse('2026-12-01T00:00:00Z');
const manifest = (url: string) =>
  ['apiVersion: cronform/v1', 'kind: Schedule', 'metadata:', '  name: remote-report', 'spec:', '  cron: "0 * * * *"', '  timezone: UTC', '  job:', '    type: queue', '    system: graphile-worker', '    task: report', `    url: ${url}`, ''].join('\n');

describe('queue job url', () => {
  it('rejects a literal URL with a located CF040 that never quotes it', () => {
    const secret = 'postgres://queue:s3cr3t-pw@queue.internal:5432/jobs';
    const result = compileSources([{ file: 'schedules/remote.yaml', text: manifest(secret) }], NOW_MS);
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => [d.file, d.line, d.column, d.code])).toEqual([['schedules/remote.yaml', 12, 10, 'CF040']]);
    expect(errors[0]!.message).toBe(`literal database URL in spec.job.url: a queue's url carries credentials (${secret.length} chars)`);
    expect(JSON.stringify(result.diagnostics)).not.toContain('s3cr3t');
  });

  it('rejects a reference to a malformed variable name through the schema', () => {
    const result = compileSources([{ file: 'schedules/remote.yaml', text: manifest('{ fromEnv: "queue-url" }') }], NOW_MS);
    expect(result.diagnostics.filter((d) => d.severity === 'error').length).toBeGreaterThan(0);
  });

  it('compiles a reference, and the plan shows the variable', () => {
    const result = compileSources([{ file: 'schedules/remote.yaml', text: manifest('{ fromEnv: QUEUE_DATABASE_URL }') }], NOW_MS);
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const job = result.schedules[0]!.definition.job;
    expect(job).toEqual({ type: 'queue', system: 'graphile-worker', task: 'report', maxAttempts: 1, url: { fromEnv: 'QUEUE_DATABASE_URL' } });
    expect(describeJob(job)).toContainEqual({ field: 'url', values: ['fromEnv QUEUE_DATABASE_URL'] });
  });
});

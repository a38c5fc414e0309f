import { describe, expect, it } from 'vitest';
import { compileSources } from '../../src/compile/compile-sources.js';
import { describeQueueTarget } from '../../src/compile/queue-job.js';
import { renderManifestFile, scheduleManifestOf } from '../../src/operations/runs/manifest-export.js';

const nowMs = Date.parse('2026-11-29T12:00:00Z');
const manifest = (job: string) => `apiVersion: cronform/v1\nkind: Schedule\nmetadata:\n  name: report\nspec:\n  cron: "0 3 * * *"\n  timezone: UTC\n  job: ${job}\n`;
const compile = (job: string) => {
  const result = compileSources([{ file: 'schedules/report.yaml', text: manifest(job) }], nowMs);
  return { diagnostics: result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.severity} ${d.code} ${d.message}`), job: result.schedules[0]?.definition.job };
};

describe('queue jobs', () => {
  it("compile with the queue's own retries off: cronform's retry policy decides", () => {
    expect(compile('{ type: queue, system: graphile-worker, task: send-report }').job).toEqual({ type: 'queue', system: 'graphile-worker', task: 'send-report', maxAttempts: 1 });
    expect(compile('{ type: queue, system: pg-boss, name: reports, options: { priority: 3 } }').job).toEqual({ type: 'queue', system: 'pg-boss', name: 'reports', options: { priority: 3, retryLimit: 0 } });
    expect(compile('{ type: queue, system: sql, function: app.enqueue_report }').job).toEqual({ type: 'queue', system: 'sql', function: 'app.enqueue_report', arguments: {} });
  });

  it.each([
    ['a function name that is SQL', '{ type: queue, system: sql, function: "app.x(); drop table t; --" }', 'schedules/report.yaml:8:46 error CF013 spec.job.function must be a schema-qualified function name of lower-case letters, digits and "_", e.g. app.enqueue_report (got "app.x(); drop table t; --")'],
    ['an unqualified function (resolved through search_path)', '{ type: queue, system: sql, function: enqueue }', 'schedules/report.yaml:8:46 error CF013 spec.job.function must be a schema-qualified function name of lower-case letters, digits and "_", e.g. app.enqueue_report (got "enqueue")'],
    ['a quoted identifier', '{ type: queue, system: sql, function: \'"App".x\' }', 'schedules/report.yaml:8:46 error CF013 spec.job.function must be a schema-qualified function name of lower-case letters, digits and "_", e.g. app.enqueue_report (got "\\"App\\".x")'],
    ['an argument name that is SQL', '{ type: queue, system: sql, function: app.f, arguments: { "a => 1); --": payload } }', 'schedules/report.yaml:8:66 error CF013 spec.job.arguments: key "a => 1); --" must be a parameter name of lower-case letters, digits and "_", e.g. report_date'],
    ['an argument value that is not a run value', '{ type: queue, system: sql, function: app.f, arguments: { a: "now()" } }', 'schedules/report.yaml:8:69 error CF013 spec.job.arguments.a must be one of document, scheduleRunId, attempt, idempotencyKey, schedule, businessDate, scheduledFor, trigger, payload (got "now()")'],
    ['an unknown queue system', '{ type: queue, system: rabbit, task: x }', 'schedules/report.yaml:8:31 error CF013 spec.job.system must be one of graphile-worker, pg-boss, sql (got "rabbit")'],
    ['a graphile-worker job without a task', '{ type: queue, system: graphile-worker }', 'schedules/report.yaml:8:3 error CF014 missing required field "spec.job.task"'],
  ])('rejects %s with a located diagnostic', (_what, job, diagnostic) => {
    const result = compile(job);
    expect(result.job).toBeUndefined();
    expect(result.diagnostics).toEqual([diagnostic]);
  });

  it.each([
    '{ type: queue, system: graphile-worker, task: send-report }',
    '{ type: queue, system: graphile-worker, task: send-report, queueName: reports, priority: -3, maxAttempts: 4 }',
    '{ type: queue, system: pg-boss, name: reports }',
    '{ type: queue, system: pg-boss, name: reports, options: { retryLimit: 2, priority: 1, expireInSeconds: 60 } }',
    '{ type: queue, system: sql, function: app.enqueue_report, arguments: { d: businessDate, doc: document } }',
  ])('exports %s as a manifest that compiles back to the same job', (job) => {
    const first = compileSources([{ file: 'schedules/report.yaml', text: manifest(job) }], nowMs).schedules[0]!;
    const exported = renderManifestFile([scheduleManifestOf(first.definition)]);
    const again = compileSources([{ file: 'schedules/report.yaml', text: exported }], nowMs);
    expect(again.diagnostics).toEqual([]);
    expect(again.schedules[0]!.definition.job).toEqual(first.definition.job);
    expect(again.schedules[0]!.digest).toBe(first.digest);
  });

  it('names its target the same way wherever it is shown', () => {
    expect(describeQueueTarget({ type: 'queue', system: 'graphile-worker', task: 't', queueName: 'q', maxAttempts: 1 })).toBe('graphile-worker task t (queue q)');
    expect(describeQueueTarget({ type: 'queue', system: 'pg-boss', name: 'reports', options: { retryLimit: 0 } })).toBe('pg-boss queue reports');
    expect(describeQueueTarget({ type: 'queue', system: 'sql', function: 'app.f', arguments: { b: 'payload', a: 'document' } })).toBe('sql app.f(a => document, b => payload)');
  });
});

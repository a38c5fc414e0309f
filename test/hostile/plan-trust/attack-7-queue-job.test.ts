/**
 * Attack 7: a queue job is code the reviewer must see. A `sql` hand-off calls a database function
 * with the runner's role, so creating one, or changing any of its fields (function or arguments),
 * is HIGH; the system, task, queue and function are shown in full; and a change of a queue job's
 * target is a job change like any other.
 */
import { describe, expect, it } from 'vitest';
import { planScenario, schedule } from './plan-scenario.js';

const sqlJob = (fields: Record<string, unknown>) => ({ report: schedule('report', { job: { type: 'queue', system: 'sql', function: 'app.enqueue_report', ...fields } }) });
const graphileJob = (fields: Record<string, unknown>) => ({ report: schedule('report', { job: { type: 'queue', system: 'graphile-worker', task: 'send-report', ...fields } }) });

describe('attack 7: queue jobs in the plan', () => {
  it('a created sql hand-off is HIGH, shows function and arguments in full, and fails --fail-on high', async () => {
    const [text, markdown, gate] = await planScenario({}, sqlJob({ arguments: { p_key: 'idempotencyKey', p_doc: 'document' } }), [['--format', 'text'], ['--format', 'markdown'], ['--fail-on', 'high']]);
    expect(text!.stdout).toContain('[HIGH] CF515');
    expect(text!.stdout).toContain('system: sql');
    expect(text!.stdout).toContain('function: "app.enqueue_report"');
    expect(text!.stdout).toContain('arguments: p_doc => document, p_key => idempotencyKey');
    expect(markdown!.stdout).toMatch(/\| \*\*HIGH\*\* \| CF515 \| report \|/);
    expect(gate!.exitCode).toBe(3);
  });

  it('changing only the arguments of a sql hand-off is HIGH again', async () => {
    const [text, gate] = await planScenario(sqlJob({}), sqlJob({ arguments: { p_doc: 'payload' } }), [['--format', 'text'], ['--fail-on', 'high']]);
    expect(text!.stdout).toContain('[HIGH] CF515');
    expect(text!.stdout).toContain('job.arguments');
    expect(gate!.exitCode).toBe(3);
  });

  it('a graphile-worker hand-off shows its task and queue, and a new task is a job target change', async () => {
    const [created] = await planScenario({}, graphileJob({ queueName: 'reports' }), [['--format', 'text']]);
    expect(created!.stdout).toContain('system: graphile-worker');
    expect(created!.stdout).toContain('task: "send-report"');
    expect(created!.stdout).toContain('queueName: "reports"');
    expect(created!.stdout).toContain('maxAttempts: 1');
    expect(created!.stdout).not.toContain('CF515');
    const [changed, medium] = await planScenario(graphileJob({ queueName: 'reports' }), graphileJob({ task: 'drop-everything', queueName: 'reports' }), [['--format', 'text'], ['--fail-on', 'medium']]);
    expect(changed!.stdout).toContain('[MEDIUM] CF504 job target changed: graphile-worker task send-report (queue reports) → graphile-worker task drop-everything (queue reports)');
    expect(medium!.exitCode).toBe(3);
  });
});

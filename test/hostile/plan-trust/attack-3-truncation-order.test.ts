/**
 * Attack 3: fields were rendered alphabetically under one budget, so a long description pushed a
 * job change out of the comment, and the headline named changed keys only when timing did not
 * change. Now the job comes first and whole, free text last, and the headline names every key.
 */
import { describe, expect, it } from 'vitest';
import { planScenario, schedule } from './plan-scenario.js';

describe('attack 3: a long description cannot push the job out', () => {
  it('shows the job change first and whole, names every changed key, and gates it', async () => {
    const base = { report: schedule('report', { cron: '0 3 * * *', timeout: '15m' }, { description: 'short' }) };
    const longDescription = Array.from({ length: 400 }, (_, i) => `line ${i} ${'lorem ipsum '.repeat(10)}`).join('\n');
    const script = `jobs/report.js${' '.repeat(400)}--and-then-something-else`;
    const head = {
      report: schedule('report', { cron: '0 4 * * *', timeout: '20m', job: { type: 'command', command: ['node', script] } }, { description: longDescription, labels: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`l${i}`, 'x'.repeat(200)])) }),
    };
    const [markdown, text, gate] = await planScenario(base, head, [['--format', 'markdown'], ['--format', 'text'], ['--fail-on', 'medium']]);
    const md = markdown!.stdout;
    expect(md).toContain('changed job.command, cron, timeout, description, labels');
    // The whole argv element, padding included, with nothing cut.
    expect(md).toContain(JSON.stringify(script));
    expect(md).toContain('+ timeout: "20m"');
    expect(md).not.toContain('timeoutMs');
    expect(md.indexOf('job.command')).toBeLessThan(md.indexOf('+ cron:'));
    expect(md.indexOf('+ cron:')).toBeLessThan(md.indexOf('  description:'));
    expect(md).toContain('more changed payload or free-text fields not shown');
    expect(text!.stdout).toContain(JSON.stringify(script));
    expect(text!.stdout).toContain('timeout: "15m" → "20m"');
    expect(gate!.exitCode).toBe(3);
  });
});

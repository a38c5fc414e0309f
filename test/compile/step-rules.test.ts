/** Validation of workflows (`spec.job.steps`): located diagnostics with stable codes, and the compiled form. */
import { describe, expect, it } from 'vitest';
import { compileSources } from '../../src/compile/compile-sources.js';
import { renderManifestFile, scheduleManifestOf } from '../../src/operations/runs/manifest-export.js';
import { formatDiagnostic } from '../../src/shared/diagnostics.js';

const nowMs = Date.parse('2026-11-29T12:00:00Z');
const HEAD = `apiVersion: cronform/v1
kind: Schedule
metadata: { name: wf }
spec:
  cron: "0 3 * * *"
  timezone: UTC
  timeout: 10m
`;

function check(job: string) {
  const result = compileSources([{ file: 'wf.yaml', text: HEAD + job }], nowMs);
  return { schedules: result.schedules, diagnostics: result.diagnostics.map(formatDiagnostic) };
}

describe('workflow validation', () => {
  it('compiles steps with their own timeout and retry', () => {
    const { schedules, diagnostics } = check(`  job:
    steps:
      - { name: extract, type: command, command: [node, x.js], timeout: 2m, retry: { maxAttempts: 3, backoff: fixed } }
      - { name: push, type: http, url: "https://api.example.com/load", body: { rows: "{{steps.extract.output.rows}}" } }
`);
    expect(diagnostics).toEqual([]);
    expect(schedules[0]!.definition.job).toEqual({
      type: 'steps',
      steps: [
        { name: 'extract', type: 'command', command: ['node', 'x.js'], cwd: '.', env: {}, timeoutMs: 120_000, retry: { maxAttempts: 3, backoff: 'fixed', initialDelayMs: 30_000, maxDelayMs: 600_000 } },
        { name: 'push', type: 'http', url: 'https://api.example.com/load', method: 'POST', headers: {}, body: { rows: '{{steps.extract.output.rows}}' }, expectStatus: [[200, 299]] },
      ],
    });
    // A finding in a step is located where the step writes it.
    expect(schedules[0]!.locateField('job.steps.1.url')).toEqual({ file: 'wf.yaml', line: 11, column: 40 });
  });

  it('a job with both type and steps is one located error (CF070)', () => {
    expect(check(`  job:
    type: command
    command: [node, x.js]
    steps:
      - { name: a, type: command, command: [node] }
`).diagnostics).toEqual([
      'wf.yaml:9:5 error CF070 spec.job has both type and steps: a job is either one command or http job, or a list of steps\n  hint: move the job into a step (each step has its own name and type), or remove steps',
      'wf.yaml:10:5 error CF011 unknown field "command" in spec.job\n  hint: allowed fields: steps',
    ]);
  });

  it('reports only the alternative the author meant', () => {
    expect(check(`  job:\n    steps: []\n`).diagnostics).toEqual(['wf.yaml:9:12 error CF013 spec.job.steps must have at least 1 item']);
    expect(check(`  job:\n    steps:\n      - { name: a, type: command, comand: [node] }\n`).diagnostics).toEqual([
      'wf.yaml:10:9 error CF014 missing required field "spec.job.steps[0].command"',
      'wf.yaml:10:35 error CF011 unknown field "comand" in spec.job.steps[0]\n  hint: did you mean "command"?',
    ]);
    expect(check(`  job:\n    type: command\n    comand: [x]\n`).diagnostics).toEqual([
      'wf.yaml:8:3 error CF014 missing required field "spec.job.command"',
      'wf.yaml:10:5 error CF011 unknown field "comand" in spec.job\n  hint: did you mean "command"?',
    ]);
  });

  it('duplicate names (CF071), a step timeout above the schedule (CF072), unknown or later references (CF073)', () => {
    const { schedules, diagnostics } = check(`  job:
    steps:
      - { name: a, type: command, command: [node] }
      - { name: a, type: command, command: [node], timeout: 20m }
      - { name: c, type: command, command: [node, "--x={{steps.d.output.x}}", "{{steps.a.output.y}}", "{{ steps.zz.output.k }}"] }
      - { name: d, type: command, command: [node, "{{steps.c.bogus}}", "{{steps.d.output.self}}"] }
`);
    expect(schedules).toEqual([]);
    expect(diagnostics).toEqual([
      'wf.yaml:11:17 error CF071 step name "a" is used twice (steps[0] and steps[1])\n  hint: give every step its own name: results, retries (--from-step) and logs (--step) address steps by name',
      'wf.yaml:11:61 error CF072 step "a" has timeout 20m, more than the schedule\'s timeout 10m, which bounds the whole attempt\n  hint: lower the step\'s timeout, or raise spec.timeout to at least 20m',
      'wf.yaml:12:56 error CF073 {{steps.d.output.x}} in steps[2] names step "d", which runs later: a step reads only earlier steps\' results\n  hint: write {{steps.NAME.output.KEY}} with NAME a step before this one; KEY is a key of the JSON object that step writes to $CRONFORM_STEP_OUTPUT',
      'wf.yaml:12:104 error CF073 {{steps.zz.output.k}} in steps[2] names no step: there is no step "zz"\n  hint: write {{steps.NAME.output.KEY}} with NAME a step before this one; KEY is a key of the JSON object that step writes to $CRONFORM_STEP_OUTPUT',
      'wf.yaml:13:52 error CF073 {{steps.c.bogus}} in steps[3] is not a step reference: the form is {{steps.NAME.output.KEY}}\n  hint: write {{steps.NAME.output.KEY}} with NAME a step before this one; KEY is a key of the JSON object that step writes to $CRONFORM_STEP_OUTPUT',
      'wf.yaml:13:73 error CF073 {{steps.d.output.self}} in steps[3] reads the step\'s own result: a step reads only earlier steps\' results\n  hint: write {{steps.NAME.output.KEY}} with NAME a step before this one; KEY is a key of the JSON object that step writes to $CRONFORM_STEP_OUTPUT',
    ]);
  });

  it('checks literal secrets in every step, located there', () => {
    const { diagnostics } = check(`  job:
    steps:
      - { name: a, type: command, command: [node] }
      - { name: b, type: command, command: [node], env: { API_TOKEN: "ghp_abcdefghijklmnopqrstuvwxyz0123456789" } }
`);
    expect(diagnostics.map((d) => d.split(' ').slice(0, 3).join(' '))).toEqual(['wf.yaml:11:70 error CF040']);
  });

  it('exports a workflow back to a manifest that compiles to the same definition', () => {
    const { schedules } = check(`  job:
    steps:
      - { name: extract, type: command, command: [node, x.js], env: { MODE: full }, timeout: 2m, retry: { maxAttempts: 3 } }
      - { name: push, type: http, url: "https://api.example.com/load", method: PUT, expectStatus: [204] }
`);
    const exported = renderManifestFile([scheduleManifestOf(schedules[0]!.definition)]);
    const again = compileSources([{ file: 'exported.yaml', text: exported }], nowMs);
    expect(again.diagnostics).toEqual([]);
    expect(again.schedules[0]!.digest).toBe(schedules[0]!.digest);
  });
});

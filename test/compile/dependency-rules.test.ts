import { describe, expect, it } from 'vitest';
import { compileSources } from '../../src/compile/compile-sources.js';
import { formatDiagnostic } from '../../src/shared/diagnostics.js';

const NOW = Date.parse('2026-11-29T12:00:00Z');

function schedule(name: string, spec: string): string {
  return `apiVersion: cronform/v1\nkind: Schedule\nmetadata: { name: ${name} }\nspec:\n  timezone: UTC\n  job: { type: command, command: ["true"] }\n${spec}`;
}

function validate(files: Record<string, string>) {
  const result = compileSources(Object.entries(files).map(([file, text]) => ({ file, text })), NOW);
  return { result, lines: result.diagnostics.map(formatDiagnostic) };
}

describe('spec.after validation', () => {
  it('prints a cycle across files once, at the entry of its first member', () => {
    const { lines } = validate({
      'a.yaml': schedule('a', '  after: [{ schedule: b }]\n'),
      'b.yaml': schedule('b', '  after: [{ schedule: c }]\n'),
      'c.yaml': schedule('c', '  after:\n    - schedule: a\n'),
    });
    expect(lines).toMatchInlineSnapshot(`
      [
        "a.yaml:7:23 error CF051 dependency cycle: a → b → c → a
        hint: a schedule in a cycle would wait for itself forever: remove one spec.after entry of the loop",
      ]
    `);
  });

  it('a schedule that depends on itself, an unknown upstream, a disabled upstream', () => {
    const { lines } = validate({
      'self.yaml': schedule('self', '  after: [{ schedule: self }]\n'),
      'lost.yaml': schedule('lost', '  after: [{ schedule: nowhere }]\n'),
      'off.yaml': schedule('off', '  cron: "0 6 * * *"\n  enabled: false\n'),
      'after-off.yaml': schedule('after-off', '  after: [{ schedule: off }]\n'),
    });
    expect(lines).toMatchInlineSnapshot(`
      [
        "after-off.yaml:7:23 warning CF053 upstream "off" is disabled: after-off will not run until it is enabled again",
        "lost.yaml:7:23 error CF050 spec.after names "nowhere", which is not a schedule in this repository
        hint: name the metadata.name of a Schedule manifest",
        "self.yaml:7:23 error CF051 self depends on itself
        hint: a schedule in a cycle would wait for itself forever: remove one spec.after entry of the loop",
      ]
    `);
  });

  it('cron is optional only with spec.after; a dependent compiles with cron null and no slots', () => {
    const { result, lines } = validate({
      'up.yaml': schedule('up', '  cron: "0 6 * * *"\n'),
      'down.yaml': schedule('down', '  after: [{ schedule: up }]\n'),
      'nothing.yaml': schedule('nothing', ''),
    });
    expect(lines).toMatchInlineSnapshot(`
      [
        "nothing.yaml:4:1 error CF014 missing required field "spec.cron"
        hint: give the schedule a cron, or spec.after: [{ schedule: NAME }] to run after another schedule succeeds",
      ]
    `);
    const down = result.schedules.find((s) => s.definition.name === 'down')!;
    expect(down.definition.cron).toBeNull();
    expect(down.definition.after).toEqual([{ schedule: 'up', status: 'SUCCESS' }]);
    // Schedules without the new fields keep their definitions (and so their stored digests).
    const up = result.schedules.find((s) => s.definition.name === 'up')!;
    expect('after' in up.definition || 'inputs' in up.definition).toBe(false);
  });

  it('several upstreams (a join): up to 10, each named once; a cycle through a later entry is found there', () => {
    const names = Array.from({ length: 11 }, (_, i) => `u${i}`);
    const upstreams = Object.fromEntries(names.map((n) => [`${n}.yaml`, schedule(n, '  cron: "0 6 * * *"\n')]));
    const { result, lines } = validate({
      ...upstreams,
      'join.yaml': schedule('join', '  after: [{ schedule: u0 }, { schedule: u1 }]\n'),
      'ten.yaml': schedule('ten', `  after: [${names.slice(0, 10).map((n) => `{ schedule: ${n} }`).join(', ')}]\n`),
      'eleven.yaml': schedule('eleven', `  after: [${names.map((n) => `{ schedule: ${n} }`).join(', ')}]\n`),
      'twice.yaml': schedule('twice', '  after: [{ schedule: u0 }, { schedule: u0 }]\n'),
      'loop-a.yaml': schedule('loop-a', '  after: [{ schedule: u0 }, { schedule: loop-b }]\n'),
      'loop-b.yaml': schedule('loop-b', '  after: [{ schedule: u1 }, { schedule: loop-a }]\n'),
    });
    expect(lines.filter((l) => !l.startsWith('eleven.yaml'))).toMatchInlineSnapshot(`
      [
        "loop-a.yaml:7:41 error CF051 dependency cycle: loop-a → loop-b → loop-a
        hint: a schedule in a cycle would wait for itself forever: remove one spec.after entry of the loop",
        "twice.yaml:7:41 error CF054 spec.after names "u0" twice
        hint: name each upstream schedule once",
      ]
    `);
    expect(lines.filter((l) => l.startsWith('eleven.yaml'))).toEqual([expect.stringMatching(/^eleven\.yaml:7:\d+ error CF013 /)]);
    expect(result.schedules.find((s) => s.definition.name === 'join')!.definition.after).toEqual([
      { schedule: 'u0', status: 'SUCCESS' },
      { schedule: 'u1', status: 'SUCCESS' },
    ]);
    expect(result.schedules.find((s) => s.definition.name === 'ten')!.definition.after).toHaveLength(10);
  });

  it('an input template that cannot be read is located at its character', () => {
    const { lines } = validate({ 'a.yaml': schedule('a', '  cron: "0 6 * * *"\n  inputs:\n    from: "day {{businessDate - 7x}}"\n    to: "{{now}}"\n') });
    expect(lines).toMatchInlineSnapshot(`
      [
        "a.yaml:9:16 error CF052 input from: cannot read {{businessDate - 7x}}: write {{NAME}} or {{businessDate - 7d}}
        hint: variables: businessDate, scheduledFor, schedule, trigger; date arithmetic: {{businessDate - 7d}}, {{businessDate + 1w}}",
        "a.yaml:10:10 error CF052 input to: unknown variable "now" (known: businessDate, scheduledFor, schedule, trigger)
        hint: variables: businessDate, scheduledFor, schedule, trigger; date arithmetic: {{businessDate - 7d}}, {{businessDate + 1w}}",
      ]
    `);
  });
});

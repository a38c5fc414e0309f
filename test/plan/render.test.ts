import { describe, expect, it } from 'vitest';
import { renderPlanJson, parsePlanJson } from '../../src/plan/render-json.js';
import { renderPlanText } from '../../src/plan/render-text.js';
import { makeChange, makeDefinition, makePlan, makeRealisticPlan, makeSummary } from './render-fixtures.js';

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[/;

describe('renderPlanText', () => {
  it('renders errors, changes, findings, drift and one summary line', () => {
    expect(renderPlanText(makeRealisticPlan(), { color: false })).toMatchInlineSnapshot(`
      "schedules/b.yaml:3:13 error CF012 timezone must be an IANA zone (got "KST")
        hint: use Asia/Seoul

      ~ billing-sync [HIGH] runs/day 24 → 1,440
        cron: "0 * * * *" → "* * * * *"
        payload:
          - {}
          + {
          +   "region": "eu",
          +   "batch": 500,
          +   "note": "moved to the new ledger service"
          + }
        next slots before: 13:00, 14:00, 15:00
        next slots after:  12:01, 12:02, 12:03
        [HIGH] CF101 runs/day 24 → 1,440 (×60)  schedules/a.yaml:7:9
          fix: if every minute is intended, accept the risk in metadata.riskAccepted

      - legacy-export [MEDIUM] stops 1 run/day; last ran 2026-05-31T02:00:00Z
        last run 2026-05-31T02:00:00Z · 30 runs in the last 30 days
        [MEDIUM] CF201 archives a HIGH criticality schedule
          fix: confirm with team-data

      + nightly-report new: runs/day 1 at 02:00 Europe/Berlin
        job:
          type: command
          command: "node", "sync.js"
          cwd: "."
          env: (none)
        [MEDIUM] CF301 02:00 falls in the 2027-03-28 DST gap  schedules/report.yaml:4:9 [accepted until 2026-12-15: shifted run is fine]

      → invoice-mailer (from mailer) renamed from mailer; history kept

      ↺ cache-warm restored: runs/day 0 → 96

      Drift
      ! ledger-close  paused from the CLI; apply will resume it  (CF601 MEDIUM)
          fix: add enabled: false to keep it paused

      Plan: 1 to create, 1 to update, 1 to archive, 1 to restore, 1 to rename, 14 unchanged, 1 drift, 1 error · runs/day 1,234 → 2,745 · peak runs/min 12 → 15 · highest risk HIGH
      "
    `);
  });

  it('colours only when asked', () => {
    const plan = makeRealisticPlan();
    expect(renderPlanText(plan, { color: true })).toMatch(ANSI);
    expect(renderPlanText(plan, { color: false })).not.toMatch(ANSI);
  });

  it('says so when nothing changes', () => {
    const plan = makePlan({ unchanged: 14, summary: makeSummary({ unchanged: 14 }) });
    expect(renderPlanText(plan, { color: false })).toBe('No changes. 14 schedules unchanged.\n');
  });

  it('keeps drift visible without changes', () => {
    const plan = makeRealisticPlan();
    const quiet = makePlan({ drift: plan.drift, unchanged: 1, summary: makeSummary({ unchanged: 1, drift: 1 }) });
    expect(renderPlanText(quiet, { color: false })).toMatchInlineSnapshot(`
      "Drift
      ! ledger-close  paused from the CLI; apply will resume it  (CF601 MEDIUM)
          fix: add enabled: false to keep it paused

      No changes. 1 schedule unchanged. 1 drifted schedule.
      "
    `);
  });

  it('diffs long multi-line values line by line with unchanged runs collapsed', () => {
    const before = { steps: Array.from({ length: 20 }, (_, index) => `step-${index}`) };
    const after = { steps: before.steps.map((step) => (step === 'step-10' ? 'step-10b' : step)) };
    const plan = makePlan({
      changes: [makeChange({ action: 'update', name: 'etl', headline: 'payload changed', fieldChanges: [{ path: 'payload', before, after }] })],
      summary: makeSummary({ update: 1 }),
    });
    expect(renderPlanText(plan, { color: false })).toMatchInlineSnapshot(`
      "~ etl payload changed
        payload:
            … 9 unchanged lines
                "step-7",
                "step-8",
                "step-9",
          -     "step-10",
          +     "step-10b",
                "step-11",
                "step-12",
                "step-13",
            … 8 unchanged lines

      Plan: 0 to create, 1 to update, 0 to archive, 0 to restore, 0 to rename, 0 unchanged, 0 drift · runs/day 0 → 0 · peak runs/min 0 → 0 · highest risk NONE
      "
    `);
  });

  it('bounds a pathological value', () => {
    const huge = 'x'.repeat(200_000);
    const plan = makePlan({
      changes: [makeChange({ action: 'update', name: 'etl', headline: 'payload changed', fieldChanges: [{ path: 'payload', before: {}, after: { huge } }] })],
      summary: makeSummary({ update: 1 }),
    });
    const text = renderPlanText(plan, { color: false });
    expect(text.length).toBeLessThan(5_000);
    expect(text).toContain('more characters)');
  });

  it("shows a new schedule's payload under its job: whole when short, cut with its length and digest", () => {
    const render = (payload: Record<string, unknown>) =>
      renderPlanText(makePlan({ changes: [makeChange({ action: 'create', name: 'etl', after: makeDefinition({ payload }) })], summary: makeSummary({ create: 1 }) }), { color: false });
    expect(render({ mode: 'drop-all', note: '\u202eevil' })).toContain('    payload: {"mode":"drop-all","note":"\\u202Eevil"}\n');
    const long = render({ rows: 'r'.repeat(5_000) });
    expect(long).toMatch(/ {4}payload: \{"rows":"r{591}…, \(5011 characters of JSON, sha256:[0-9a-f]{12}\)\n/);
    expect(render({})).not.toContain('payload');
  });

  it('writes Policy durations as the manifest does, at any depth, not as milliseconds', () => {
    const DAY = 86_400_000;
    const fieldChanges = [
      { path: 'minIntervalMs', before: 60_000, after: 30_000 },
      { path: 'retention.runsMs', before: 90 * DAY, after: 30 * DAY },
      { path: 'retention.keepLast', before: null, after: 10 },
      { path: 'queues', before: null, after: { default: { concurrency: 5 } } },
      { path: 'alerts', before: { targetsMs: 'not a number' }, after: { nested: { deeperMs: 1_500 } } },
    ];
    const plan = makePlan({ policyChange: { beforeDigest: 'sha256:1', afterDigest: 'sha256:2', after: {} as never, fieldChanges, findings: [] } });
    expect(renderPlanText(plan, { color: false }).split('\n').slice(0, 6)).toEqual([
      '~ policy',
      '  minInterval: "1m" → "30s"',
      '  retention.runs: "90d" → "30d"',
      '  retention.keepLast: (none) → 10',
      '  queues: (none) → {"default":{"concurrency":5}}',
      '  alerts: {"targetsMs":"not a number"} → {"nested":{"deeper":"1500ms"}}',
    ]);
  });
});

describe('plan JSON', () => {
  it('round-trips and ends with a newline', () => {
    const plan = makeRealisticPlan();
    const text = renderPlanJson(plan);
    expect(text.endsWith('}\n')).toBe(true);
    expect(parsePlanJson(text)).toEqual(plan);
  });

  it.each([
    { text: 'not json', error: /^not a cronform plan file: invalid JSON/ },
    { text: '[]', error: /^not a cronform plan file: formatVersion is missing/ },
    { text: '{"formatVersion":2}', error: /^plan formatVersion 2 is not supported by this cronform/ },
    { text: '{"formatVersion":1,"planId":"p","createdAt":"c","unchanged":0,"against":{},"summary":{},"changes":{},"drift":[],"errors":[]}', error: /changes must be an array/ },
    { text: '{"formatVersion":1,"planId":"p","createdAt":"c","unchanged":0,"against":{},"summary":{},"changes":[{"name":"a","action":"delete"}],"drift":[],"errors":[]}', error: /changes\[0\] is not a planned change/ },
  ])('rejects $text', ({ text, error }) => {
    expect(() => parsePlanJson(text)).toThrow(error);
  });
});

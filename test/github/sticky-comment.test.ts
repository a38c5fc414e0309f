import { describe, expect, it } from 'vitest';
import { renderApplyComment } from '../../src/github/render-apply-comment.js';
import {
  APPLY_COMMENT_MARKER,
  GITHUB_COMMENT_MAX_CHARS,
  composeCustomComment,
  composePlanComment,
  planWarrantsComment,
  readRiskMarker,
  riskOfPlan,
  startsWithMarker,
} from '../../src/github/sticky-comment.js';
import { PLAN_COMMENT_MARKER } from '../../src/plan/render-markdown.js';
import { makeChange, makePlan, makeRealisticPlan, makeSummary } from '../plan/render-fixtures.js';

const highPlan = makePlan({
  changes: [makeChange({ action: 'update', name: 'billing-sync', headline: 'runs/day 24 → 1,440', risk: 'HIGH', findings: [{ code: 'CF101', level: 'HIGH', message: 'runs/day ×60' }] })],
  summary: makeSummary({ update: 1, highestRisk: 'HIGH' }),
});

describe('plan comment body', () => {
  it('starts with the plan marker, then the risk marker', () => {
    const { body, risk } = composePlanComment(highPlan, null);
    expect(risk).toBe('HIGH');
    expect(body.split('\n').slice(0, 3)).toEqual([PLAN_COMMENT_MARKER, '<!-- cronform:risk=HIGH -->', '## cronform plan: highest risk HIGH']);
    expect(readRiskMarker(body)).toBe('HIGH');
    expect(startsWithMarker(body, PLAN_COMMENT_MARKER)).toBe(true);
  });

  it('ranks a plan with errors above HIGH', () => {
    expect(riskOfPlan(makeRealisticPlan())).toBe('ERROR');
    expect(riskOfPlan(makePlan())).toBe('NONE');
  });

  it('records an accepted risk with the label, commit, run and actor', () => {
    const { body } = composePlanComment(highPlan, { label: 'cronform/accept-risk', commit: 'abc1234def56', actor: 'octo_cat', runUrl: 'https://github.com/acme/s/actions/runs/9' });
    expect(body).toContain('> **Risk accepted** with the `cronform/accept-risk` label: findings at or above the failing level do not fail the check (highest risk in this plan: HIGH).');
    expect(body).toContain('> Recorded for commit `abc1234def56` by [this workflow run](https://github.com/acme/s/actions/runs/9) started by @octo\\_cat.');
  });

  it('stays under GitHub\'s limit with the markers and the note added', () => {
    const many = makePlan({
      changes: Array.from({ length: 400 }, (_, i) => makeChange({ action: 'create', name: `job-${i}`, headline: 'x'.repeat(400), risk: 'LOW', findings: [{ code: 'CF302', level: 'LOW', message: 'y'.repeat(300) }] })),
      summary: makeSummary({ create: 400, highestRisk: 'LOW' }),
    });
    const { body } = composePlanComment(many, { label: 'cronform/accept-risk', commit: 'abc', actor: 'a'.repeat(100), runUrl: `https://x/${'r'.repeat(200)}` });
    expect(body.length).toBeLessThanOrEqual(GITHUB_COMMENT_MAX_CHARS);
    expect(body).toContain('Output truncated');
    expect(body).toContain('**Risk accepted**');
  });

  it('asks for a comment only when the plan changes something or cannot be applied', () => {
    expect(planWarrantsComment(highPlan)).toBe(true);
    expect(planWarrantsComment(makePlan({ drift: makeRealisticPlan().drift }))).toBe(false);
    expect(planWarrantsComment(makePlan({ errors: makeRealisticPlan().errors }))).toBe(true);
  });
});

describe('custom and apply bodies', () => {
  it('marks a --body-file body once and cuts it to the limit', () => {
    const marked = composeCustomComment(`${PLAN_COMMENT_MARKER}\n# plan\n`, PLAN_COMMENT_MARKER, 'MEDIUM');
    expect(marked).toBe(`${PLAN_COMMENT_MARKER}\n<!-- cronform:risk=MEDIUM -->\n# plan\n`);
    const huge = composeCustomComment('z'.repeat(100_000), PLAN_COMMENT_MARKER, null);
    expect(huge.length).toBe(GITHUB_COMMENT_MAX_CHARS);
    expect(huge.startsWith(`${PLAN_COMMENT_MARKER}\nzzz`)).toBe(true);
    expect(huge).toContain('Truncated');
  });

  it('reports the apply outcome with the commit, actor, run and output', () => {
    const body = renderApplyComment({ exitCode: 0, log: 'Applied plan sha256:1: create nightly (v1)\n', commit: '0123456789abcdef', actor: 'octocat', runUrl: 'https://github.com/acme/s/actions/runs/5' });
    expect(body).toMatchInlineSnapshot(`
      "<!-- cronform:apply -->
      ## cronform apply: ✅ applied

      commit \`0123456789ab\` · by @octocat · [workflow run](https://github.com/acme/s/actions/runs/5)

      <details><summary>Output of cronform apply</summary>

      \`\`\`text
      Applied plan sha256:1: create nightly (v1)
      \`\`\`

      </details>
      "
    `);
  });

  it('names the failure and keeps a long or hostile log inside its fence', () => {
    const log = `${'x'.repeat(70_000)}\n\`\`\`\`\n</details>\nstale`;
    const body = renderApplyComment({ exitCode: 4, log, commit: null, actor: null, runUrl: null });
    expect(body.startsWith(`${APPLY_COMMENT_MARKER}\n## cronform apply: ❌ refused: the database moved since the plan`)).toBe(true);
    expect(body.length).toBeLessThan(GITHUB_COMMENT_MAX_CHARS);
    expect(body).toContain('characters cut');
    expect(body).toContain('`````text');
    expect(renderApplyComment({ exitCode: 9, log: '', commit: null, actor: null, runUrl: null })).toContain('❌ failed (exit 9)');
  });
});

import { describe, expect, it } from 'vitest';
import type { PlannedChange } from '../../src/plan/plan-types.js';
import { renderPlanMarkdown } from '../../src/plan/render-markdown.js';
import { makeChange, makePlan, makeRealisticPlan, makeSummary } from './render-fixtures.js';

const GITHUB_LIMIT = 65_536;

function makeManyChanges(count: number): PlannedChange[] {
  return Array.from({ length: count }, (_, index) =>
    makeChange({
      action: 'update',
      name: `job-${String(index).padStart(4, '0')}`,
      headline: 'runs/day 24 → 288',
      changedPaths: ['cron', 'timeoutMs'],
      fieldChanges: [
        { path: 'cron', before: '0 * * * *', after: '*/5 * * * *' },
        { path: 'timeoutMs', before: 60_000, after: 600_000 },
      ],
      findings: [
        { code: 'CF101', level: 'HIGH', message: 'runs/day 24 → 288 (×12)', location: { file: `schedules/job-${index}.yaml`, line: 7, column: 9 }, hint: 'keep the hourly cron' },
        { code: 'CF501', level: 'MEDIUM', message: 'timeout 10m ≥ interval 5m: overlap certain', location: { file: `schedules/job-${index}.yaml`, line: 9, column: 5 } },
      ],
      risk: 'HIGH',
    }),
  );
}

describe('renderPlanMarkdown', () => {
  it('renders the sticky marker, headline, risk table outside details and diffs inside', () => {
    expect(renderPlanMarkdown(makeRealisticPlan())).toMatchInlineSnapshot(`
      "<!-- cronform:plan -->
      ## cronform plan: highest risk HIGH

      **Plan: 1 to create, 1 to update, 1 to archive, 1 to restore, 1 to rename, 14 unchanged, 1 drift, 1 error · runs/day 1,234 → 2,745 · peak runs/min 12 → 15 · highest risk HIGH**

      <sub>Planned against the postgres database at 2026-06-01T12:00:00.000Z · plan sha256:3f2a9c</sub>

      ### Errors (1)

      - **error** CF012 timezone must be an IANA zone (got &quot;KST&quot;) · schedules/b.yaml:3:13 — fix: use Asia/Seoul

      ### Risk

      | Risk | Code | Schedule | Message | Location |
      |---|---|---|---|---|
      | **HIGH** | CF101 | billing-sync | runs/day 24 → 1,440 (×60) | schedules/a.yaml:7:9 |
      | **MEDIUM** | CF201 | legacy-export | archives a HIGH criticality schedule |  |
      | **MEDIUM** | CF601 | ledger-close | paused outside git |  |
      | MEDIUM (accepted) | CF301 | nightly-report | 02:00 falls in the 2027-03-28 DST gap<br>accepted until 2026-12-15: shifted run is fine | schedules/report.yaml:4:9 |

      ### Drift (1)

      - ! ledger-close paused from the CLI; apply will resume it (CF601 MEDIUM) — fix: add enabled: false to keep it paused

      ### Changes

      <details><summary>~ <code>billing-sync</code> [HIGH] runs/day 24 → 1,440</summary>

      \`\`\`diff
      - cron: "0 * * * *"
      + cron: "* * * * *"
        payload:
      -   {}
      +   {
      +     "region": "eu",
      +     "batch": 500,
      +     "note": "moved to the new ledger service"
      +   }
      - next slots: 13:00, 14:00, 15:00
      + next slots: 12:01, 12:02, 12:03
      \`\`\`

      - **HIGH** CF101 runs/day 24 → 1,440 (×60) · schedules/a.yaml:7:9 — fix: if every minute is intended, accept the risk in metadata.riskAccepted

      </details>

      <details><summary>- <code>legacy-export</code> [MEDIUM] stops 1 run/day; last ran 2026-05-31T02:00:00Z</summary>

      Last run 2026-05-31T02:00:00Z · 30 runs in the last 30 days

      - **MEDIUM** CF201 archives a HIGH criticality schedule — fix: confirm with team-data

      </details>

      <details><summary>+ <code>nightly-report</code> new: runs/day 1 at 02:00 Europe/Berlin</summary>

      **Job** (what will run)

      - type: \`command\`
      - command: \`"node"\` \`"sync.js"\`
      - cwd: \`"."\`
      - env: (none)

      - MEDIUM CF301 02:00 falls in the 2027-03-28 DST gap · schedules/report.yaml:4:9 · _accepted until 2026-12-15: shifted run is fine_

      </details>

      <details><summary>→ <code>invoice-mailer</code> (from <code>mailer</code>) renamed from mailer; history kept</summary>

      No field changes and no findings.

      </details>

      <details><summary>↺ <code>cache-warm</code> restored: runs/day 0 → 96</summary>

      No field changes and no findings.

      </details>
      "
    `);
  });

  it('renders no changes', () => {
    const plan = makePlan({ unchanged: 14, summary: makeSummary({ unchanged: 14 }) });
    expect(renderPlanMarkdown(plan)).toMatchInlineSnapshot(`
      "<!-- cronform:plan -->
      ## cronform plan: no changes

      **No changes. 14 schedules unchanged.**

      <sub>Planned against the postgres database at 2026-06-01T12:00:00.000Z · plan sha256:3f2a9c</sub>

      No risk findings.
      "
    `);
  });

  it('stays under GitHub’s limit for 2,000 changes and says what it cut', () => {
    const plan = makePlan({ changes: makeManyChanges(2_000), summary: makeSummary({ update: 2_000, highestRisk: 'HIGH' }) });
    const markdown = renderPlanMarkdown(plan);
    expect(markdown.length).toBeLessThanOrEqual(GITHUB_LIMIT);
    expect(markdown.startsWith('<!-- cronform:plan -->\n')).toBe(true);
    expect(markdown).toContain('### Risk\n\n| Risk | Code | Schedule | Message | Location |');
    expect(markdown).toMatch(/> ⚠ Output truncated: 2,000 of 2,000 changes not shown in detail \(the risk table lists [\d,]+ of 4,000 findings\)/);
    expect(markdown).toContain('Plan: 0 to create, 2,000 to update');
  });

  it('shows details for what fits when the table is small', () => {
    const changes = makeManyChanges(2_000).map((change) => ({ ...change, findings: [] }));
    const markdown = renderPlanMarkdown(makePlan({ changes, summary: makeSummary({ update: 2_000 }) }));
    expect(markdown.length).toBeLessThanOrEqual(GITHUB_LIMIT);
    const shown = markdown.split('<details>').length - 1;
    expect(shown).toBeGreaterThan(50);
    expect(markdown).toContain(`> ⚠ Output truncated: ${(2_000 - shown).toLocaleString('en-US')} of 2,000 changes not shown in detail (the risk table lists 0 of 0 findings)`);
    expect(markdown.trimEnd().endsWith('for the full plan.')).toBe(true);
  });

  it('carries no comment marker or details tag from a changed value into the comment text', () => {
    const hostile = '<!-- cronform:plan --></details></details><DETAILS open>';
    const plan = makePlan({
      changes: [makeChange({ action: 'update', name: 'etl', headline: 'payload changed', fieldChanges: [{ path: 'payload', before: {}, after: { note: hostile } }] })],
      summary: makeSummary({ update: 1 }),
    });
    const markdown = renderPlanMarkdown(plan);
    expect(markdown.split('<!-- cronform:plan -->')).toHaveLength(2);
    expect(markdown.split(/<details/i).length).toBe(markdown.split('</details>').length);
    expect(markdown).toContain('\\u003C!-- cronform:plan -->\\u003C/details>');
  });

  it('bounds a single 200 KB payload diff', () => {
    const payload = Object.fromEntries(Array.from({ length: 4_000 }, (_, index) => [`key${index}`, 'v'.repeat(40)]));
    const plan = makePlan({
      changes: [
        makeChange({ action: 'update', name: 'etl', headline: 'payload changed', fieldChanges: [{ path: 'payload', before: {}, after: payload }] }),
        makeChange({ action: 'update', name: 'blob', headline: 'payload changed', fieldChanges: [{ path: 'payload', before: 'a', after: 'b'.repeat(200_000) }] }),
      ],
      summary: makeSummary({ update: 2 }),
    });
    const markdown = renderPlanMarkdown(plan);
    expect(markdown.length).toBeLessThan(30_000);
    expect(markdown).toContain('more diff lines not shown');
    expect(markdown).toContain('more characters)');
    expect(markdown).not.toContain('Output truncated');
  });

  it('escapes user text in cells, lists and summaries', () => {
    const plan = makePlan({
      changes: [
        makeChange({
          action: 'update', name: 'etl', headline: 'runs <b>twice</b>', risk: 'HIGH',
          fieldChanges: [{ path: 'job.command', before: ['echo', '```'], after: ['echo', 'a|b'] }],
          findings: [{ code: 'CF501', level: 'HIGH', message: 'command `rm -rf` | <script>alert(1)</script>\nsecond line' }],
        }),
      ],
      summary: makeSummary({ update: 1, highestRisk: 'HIGH' }),
    });
    const markdown = renderPlanMarkdown(plan);
    expect(markdown).not.toContain('<script>');
    expect(markdown).not.toContain('<b>');
    // A backtick run in a value lengthens the fence so the value cannot close it.
    expect(markdown).toContain('````diff\n- job.command: ["echo","```"]');
    // The newline is written visibly (`\n`, backslash-escaped for markdown): the row stays one row.
    expect(markdown).toContain('| **HIGH** | CF501 | etl | command \\`rm -rf\\` \\| &lt;script&gt;alert(1)&lt;/script&gt;\\\\nsecond line |  |');
    expect(markdown).toContain('<summary>~ <code>etl</code> [HIGH] runs &lt;b&gt;twice&lt;/b&gt;</summary>');
  });

  it('never exceeds a tiny maxChars', () => {
    const markdown = renderPlanMarkdown(makeRealisticPlan(), { maxChars: 300 });
    expect(markdown.length).toBeLessThanOrEqual(300);
    expect(markdown).toContain('Output truncated');
  });
});

/**
 * The plan/apply suite on a fresh migrated PGlite per test, plus what only needs checking once:
 * every action and risk code occurs across the suite, and the rendered rich plan is pinned.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Plan } from '../../src/plan/plan-types.js';
import { renderPlanMarkdown } from '../../src/plan/render-markdown.js';
import { renderPlanText } from '../../src/plan/render-text.js';
import { RiskCodes } from '../../src/plan/risk.js';
import { createPgliteDatabase } from '../support/databases.js';
import { buildRichPlan, definePlanApplySuite, PlanApplyDriver } from './plan-apply.suite.js';

const seen: Plan[] = [];

definePlanApplySuite('plan and apply (PGlite)', async () => {
  const database = await createPgliteDatabase();
  return { database, cleanup: () => database.close() };
}, { onPlan: (plan) => seen.push(plan) });

describe('coverage of the PGlite suite', () => {
  afterAll(() => {
    seen.length = 0;
  });

  it('planned every action, every risk code, both drift kinds and both guards at least once', () => {
    const actions = new Set(seen.flatMap((plan) => plan.changes.map((c) => c.action)));
    const findings = new Set(seen.flatMap((plan) => [...plan.changes.flatMap((c) => c.findings.map((f) => f.code)), ...(plan.policyChange?.findings ?? []).map((f) => f.code), ...(plan.riskAcceptanceChange?.findings ?? []).map((f) => f.code), ...plan.drift.map((d) => d.finding.code), ...plan.errors.map((e) => e.code)]));
    expect([...actions].sort()).toEqual(['archive', 'create', 'rename', 'restore', 'update']);
    expect([...findings].sort()).toEqual([...Object.keys(RiskCodes), 'CF204', 'CF205', 'CF601', 'CF602'].sort());
  });
});

describe('the rich plan, rendered', () => {
  it('pins the text and markdown of a plan with every action, drift and an accepted finding', async () => {
    const database = await createPgliteDatabase();
    try {
      const plan = await buildRichPlan(new PlanApplyDriver(database));
      expect(renderPlanText(plan, { color: false })).toMatchInlineSnapshot(`
        "- legacy-export [HIGH] archive: last run 2026-11-28T14:15Z, 3 runs in 30 days will stop
          last run 2026-11-28T14:15:00.000Z · 3 runs in the last 30 days
          [MEDIUM] CF201 archiving stops all runs: last run 2026-11-28T14:15Z, 3 runs in 30 days
            fix: intended? nothing to do; otherwise restore the manifest file (history is kept either way)
          [HIGH] CF202 archiving a HIGH criticality schedule: its runs and alerts stop
            fix: make sure its work is done elsewhere, or use \`cronform pause --until\` for a temporary stop

        ~ billing-sync [HIGH] runs/day 24 → 48; next slot 13:00Z → 12:30Z; changed job.command, job.env, cron, approval, timeout, gracePeriod
          job.command: ["node","jobs/billing-sync.js"] → ["node","jobs/billing-sync-v2.js"]
          job.env.API_HOST: {"fromEnv":"BILLING_API_HOST"} → "billing.internal"
          job.env.BILLING_TOKEN: null → {"fromEnv":"BILLING_TOKEN"}
          cron: "0 * * * *" → "*/30 * * * *"
          approval: "required" → "none"
          timeout: "10m" → "45m"
          gracePeriod: "1h" → "30m"
          next slots before: 2026-11-29 13:00:00 +00:00, 2026-11-29 14:00:00 +00:00, 2026-11-29 15:00:00 +00:00
          next slots after:  2026-11-29 12:30:00 +00:00, 2026-11-29 13:00:00 +00:00, 2026-11-29 13:30:00 +00:00
          [MEDIUM] CF106 runs/day 24 → 48 (×2)  schedules/billing-sync.yaml:11:9
            fix: confirm the job and its downstream can absorb the extra runs
          [MEDIUM] CF303 cron change moves the next slots: 2026-11-29T13:00Z, 2026-11-29T14:00Z, 2026-11-29T15:00Z → 2026-11-29T12:30Z, 2026-11-29T13:00Z, 2026-11-29T13:30Z  schedules/billing-sync.yaml:11:9
            fix: confirm the new times against whatever depends on the old ones
          [HIGH] CF402 job.env.API_HOST was read from environment variable BILLING_API_HOST and is now a literal value (not shown)  schedules/billing-sync.yaml:19:17
            fix: restore { fromEnv: BILLING_API_HOST }: a literal is stored in the database and shown to reviewers
          [LOW] CF401 job.env.BILLING_TOKEN reads a secret from environment variable BILLING_TOKEN  schedules/billing-sync.yaml:21:9
            fix: every runner must have BILLING_TOKEN set in its environment
          [MEDIUM] CF501 timeout 45m ≥ shortest interval 30m: a run that uses its timeout overlaps the next slot; overlap SKIP_NEW skips the slots that fall during a run  schedules/billing-sync.yaml:23:12
            fix: set spec.timeout below 30m, or space the slots further apart
          [LOW] CF502 a 1h outage leads to 1 run, a 24h outage to 1 run (misfire RUN_ONCE, gracePeriod 30m; 2 and 48 slots missed)  schedules/billing-sync.yaml:10:1
            fix: nothing to do unless the job cannot absorb these runs
          [HIGH] CF503 approval removed: runs start without waiting for a human (MANUAL_REQUIRED)  schedules/billing-sync.yaml:22:13 [accepted by the author in this change (not counted: needs a stored acceptance or the accept label) until 2027-01-31: runs are idempotent since v2]
            fix: keep approval: required unless the job is safe to run unattended
          [MEDIUM] CF504 job target changed: node jobs/billing-sync.js → node jobs/billing-sync-v2.js  schedules/billing-sync.yaml:14:5
            fix: check the new target exists where the runners run and does the intended work

        → weekly-report (from old-report) [MEDIUM] renamed from old-report (history kept); next slot 08:00Z → 09:00Z; changed cron
          cron: "0 9 * * 1" → "0 10 * * 1"
          name: "old-report" → "weekly-report"
          [MEDIUM] CF303 cron change moves the next slots: 2026-11-30T08:00Z, 2026-12-07T08:00Z, 2026-12-14T08:00Z → 2026-11-30T09:00Z, 2026-12-07T09:00Z, 2026-12-14T09:00Z  schedules/weekly-report.yaml:8:9
            fix: confirm the new times against whatever depends on the old ones
          [LOW] CF502 a 1h outage leads to 1 run, a 24h outage to 1 run (misfire RUN_ONCE, gracePeriod 7d; 1 and 1 slots missed)  schedules/weekly-report.yaml:7:1
            fix: nothing to do unless the job cannot absorb these runs

        ↺ cleanup [LOW] restore: 1 run/day (peak 1), next 2026-11-30 02:30 Europe/Berlin; DST: 2 transitions in 12 months (gap shift, fold first)
          job:
            type: command
            command: "node", "jobs/cleanup.js"
            cwd: "."
            env: (none)
          [LOW] CF302 DST touches this schedule 2 times in the next 12 months: 2027-03-28T01:00Z: 02:00:00–03:00:00 does not exist on 2027-03-28: 1 slot(s) shift forward by 60 min (dst.gap: shift) (02:30 local → 2027-03-28T01:30Z); 2027-10-31T01:00Z: 02:00:00–03:00:00 happens twice on 2027-10-31: 1 slot(s) run once, at the first occurrence (dst.fold: first) (02:30 local → 2027-10-31T00:30Z)  schedules/cleanup.yaml:6:1
            fix: check spec.dst (gap: shift|skip, fold: first|second|both), or pick a local time outside the transition hours
          [LOW] CF502 a 1h outage leads to 1 run, a 24h outage to 1 run (misfire RUN_ONCE, gracePeriod 1d; 1 and 1 slots missed)  schedules/cleanup.yaml:6:1
            fix: nothing to do unless the job cannot absorb these runs

        + invoice-push [LOW] new: 1 run/day (peak 1), next 2026-11-30 06:00 UTC
          job:
            type: http
            method: "POST"
            url: "https://erp.example.com/invoices"
            headers: (none)
            body: (none)
            expectStatus: 200-299
          [LOW] CF502 a 1h outage leads to 1 run, a 24h outage to 1 run (misfire RUN_ONCE, gracePeriod 1d; 1 and 1 slots missed)  schedules/invoice-push.yaml:6:1
            fix: nothing to do unless the job cannot absorb these runs
          [LOW] CF505 POST is retried up to 3 attempts: a retry after a timeout may repeat the side effect  schedules/invoice-push.yaml:14:18
            fix: make the endpoint honour the Idempotency-Key header cronform sends, or set retry.maxAttempts: 1

        ~ risk acceptances (apply stores them; until then they count for nothing)
          + billing-sync CF503 until 2027-01-31: runs are idempotent since v2

        Drift
        ! health-check  paused by oncall@example.com at 2026-11-29T12:02:00.000Z: INC-42 upstream outage  (CF601 MEDIUM)
            fix: cronform resume health-check when the incident is over

        Plan: 1 to create, 1 to update, 1 to archive, 1 to restore, 1 to rename, 1 unchanged, 1 drift · runs/day 169.14 → 194.14 · peak runs/min 3 → 3 · highest risk HIGH
        "
      `);
      expect(renderPlanMarkdown(plan)).toMatchInlineSnapshot(`
        "<!-- cronform:plan -->
        ## cronform plan: highest risk HIGH

        **Plan: 1 to create, 1 to update, 1 to archive, 1 to restore, 1 to rename, 1 unchanged, 1 drift · runs/day 169.14 → 194.14 · peak runs/min 3 → 3 · highest risk HIGH**

        <sub>Planned against the pglite database at 2026-11-29T12:03:00.000Z · plan plan-29ce56c6e370a349505a746d</sub>

        ### Risk

        | Risk | Code | Schedule | Message | Location |
        |---|---|---|---|---|
        | **HIGH** | CF202 | legacy-export | archiving a HIGH criticality schedule: its runs and alerts stop |  |
        | **HIGH** | CF402 | billing-sync | job.env.API\\_HOST was read from environment variable BILLING\\_API\\_HOST and is now a literal value (not shown) | schedules/billing-sync.yaml:19:17 |
        | **HIGH** (self-accepted) | CF503 | billing-sync | approval removed: runs start without waiting for a human (MANUAL\\_REQUIRED)<br>accepted by the author in this change (not counted: needs a stored acceptance or the accept label) until 2027-01-31: runs are idempotent since v2 | schedules/billing-sync.yaml:22:13 |
        | **MEDIUM** | CF201 | legacy-export | archiving stops all runs: last run 2026-11-28T14:15Z, 3 runs in 30 days |  |
        | **MEDIUM** | CF106 | billing-sync | runs/day 24 → 48 (×2) | schedules/billing-sync.yaml:11:9 |
        | **MEDIUM** | CF303 | billing-sync | cron change moves the next slots: 2026-11-29T13:00Z, 2026-11-29T14:00Z, 2026-11-29T15:00Z → 2026-11-29T12:30Z, 2026-11-29T13:00Z, 2026-11-29T13:30Z | schedules/billing-sync.yaml:11:9 |
        | **MEDIUM** | CF501 | billing-sync | timeout 45m ≥ shortest interval 30m: a run that uses its timeout overlaps the next slot; overlap SKIP\\_NEW skips the slots that fall during a run | schedules/billing-sync.yaml:23:12 |
        | **MEDIUM** | CF504 | billing-sync | job target changed: node jobs/billing-sync.js → node jobs/billing-sync-v2.js | schedules/billing-sync.yaml:14:5 |
        | **MEDIUM** | CF303 | weekly-report | cron change moves the next slots: 2026-11-30T08:00Z, 2026-12-07T08:00Z, 2026-12-14T08:00Z → 2026-11-30T09:00Z, 2026-12-07T09:00Z, 2026-12-14T09:00Z | schedules/weekly-report.yaml:8:9 |
        | **MEDIUM** | CF601 | health-check | health-check is paused by oncall@example.com at 2026-11-29T12:02:00.000Z: INC-42 upstream outage; apply keeps it paused |  |
        | **LOW** | CF401 | billing-sync | job.env.BILLING\\_TOKEN reads a secret from environment variable BILLING\\_TOKEN | schedules/billing-sync.yaml:21:9 |
        | **LOW** | CF502 | billing-sync | a 1h outage leads to 1 run, a 24h outage to 1 run (misfire RUN\\_ONCE, gracePeriod 30m; 2 and 48 slots missed) | schedules/billing-sync.yaml:10:1 |
        | **LOW** | CF502 | weekly-report | a 1h outage leads to 1 run, a 24h outage to 1 run (misfire RUN\\_ONCE, gracePeriod 7d; 1 and 1 slots missed) | schedules/weekly-report.yaml:7:1 |
        | **LOW** | CF302 | cleanup | DST touches this schedule 2 times in the next 12 months: 2027-03-28T01:00Z: 02:00:00–03:00:00 does not exist on 2027-03-28: 1 slot(s) shift forward by 60 min (dst.gap: shift) (02:30 local → 2027-03-28T01:30Z); 2027-10-31T01:00Z: 02:00:00–03:00:00 happens twice on 2027-10-31: 1 slot(s) run once, at t… (71 more characters) | schedules/cleanup.yaml:6:1 |
        | **LOW** | CF502 | cleanup | a 1h outage leads to 1 run, a 24h outage to 1 run (misfire RUN\\_ONCE, gracePeriod 1d; 1 and 1 slots missed) | schedules/cleanup.yaml:6:1 |
        | **LOW** | CF502 | invoice-push | a 1h outage leads to 1 run, a 24h outage to 1 run (misfire RUN\\_ONCE, gracePeriod 1d; 1 and 1 slots missed) | schedules/invoice-push.yaml:6:1 |
        | **LOW** | CF505 | invoice-push | POST is retried up to 3 attempts: a retry after a timeout may repeat the side effect | schedules/invoice-push.yaml:14:18 |

        ### Drift (1)

        - ! health-check paused by oncall@example.com at 2026-11-29T12:02:00.000Z: INC-42 upstream outage (CF601 MEDIUM) — fix: cronform resume health-check when the incident is over

        ### Risk acceptances

        \`\`\`diff
        ~ risk acceptances (apply stores them; until then they count for nothing)
          + billing-sync CF503 until 2027-01-31: runs are idempotent since v2
        \`\`\`

        ### Changes

        <details><summary>- <code>legacy-export</code> [HIGH] archive: last run 2026-11-28T14:15Z, 3 runs in 30 days will stop</summary>

        Last run 2026-11-28T14:15:00.000Z · 3 runs in the last 30 days

        - **MEDIUM** CF201 archiving stops all runs: last run 2026-11-28T14:15Z, 3 runs in 30 days — fix: intended? nothing to do; otherwise restore the manifest file (history is kept either way)
        - **HIGH** CF202 archiving a HIGH criticality schedule: its runs and alerts stop — fix: make sure its work is done elsewhere, or use \\\`cronform pause --until\\\` for a temporary stop

        </details>

        <details><summary>~ <code>billing-sync</code> [HIGH] runs/day 24 → 48; next slot 13:00Z → 12:30Z; changed job.command, job.env, cron, approval, timeout, gracePeriod</summary>

        \`\`\`diff
        - job.command: ["node","jobs/billing-sync.js"]
        + job.command: ["node","jobs/billing-sync-v2.js"]
        - job.env.API_HOST: {"fromEnv":"BILLING_API_HOST"}
        + job.env.API_HOST: "billing.internal"
        - job.env.BILLING_TOKEN: null
        + job.env.BILLING_TOKEN: {"fromEnv":"BILLING_TOKEN"}
        - cron: "0 * * * *"
        + cron: "*/30 * * * *"
        - approval: "required"
        + approval: "none"
        - timeout: "10m"
        + timeout: "45m"
        - gracePeriod: "1h"
        + gracePeriod: "30m"
        - next slots: 2026-11-29 13:00:00 +00:00, 2026-11-29 14:00:00 +00:00, 2026-11-29 15:00:00 +00:00
        + next slots: 2026-11-29 12:30:00 +00:00, 2026-11-29 13:00:00 +00:00, 2026-11-29 13:30:00 +00:00
        \`\`\`

        - **MEDIUM** CF106 runs/day 24 → 48 (×2) · schedules/billing-sync.yaml:11:9 — fix: confirm the job and its downstream can absorb the extra runs
        - **MEDIUM** CF303 cron change moves the next slots: 2026-11-29T13:00Z, 2026-11-29T14:00Z, 2026-11-29T15:00Z → 2026-11-29T12:30Z, 2026-11-29T13:00Z, 2026-11-29T13:30Z · schedules/billing-sync.yaml:11:9 — fix: confirm the new times against whatever depends on the old ones
        - **HIGH** CF402 job.env.API\\_HOST was read from environment variable BILLING\\_API\\_HOST and is now a literal value (not shown) · schedules/billing-sync.yaml:19:17 — fix: restore { fromEnv: BILLING\\_API\\_HOST }: a literal is stored in the database and shown to reviewers
        - **LOW** CF401 job.env.BILLING\\_TOKEN reads a secret from environment variable BILLING\\_TOKEN · schedules/billing-sync.yaml:21:9 — fix: every runner must have BILLING\\_TOKEN set in its environment
        - **MEDIUM** CF501 timeout 45m ≥ shortest interval 30m: a run that uses its timeout overlaps the next slot; overlap SKIP\\_NEW skips the slots that fall during a run · schedules/billing-sync.yaml:23:12 — fix: set spec.timeout below 30m, or space the slots further apart
        - **LOW** CF502 a 1h outage leads to 1 run, a 24h outage to 1 run (misfire RUN\\_ONCE, gracePeriod 30m; 2 and 48 slots missed) · schedules/billing-sync.yaml:10:1 — fix: nothing to do unless the job cannot absorb these runs
        - **HIGH** CF503 approval removed: runs start without waiting for a human (MANUAL\\_REQUIRED) · schedules/billing-sync.yaml:22:13 · _accepted by the author in this change (not counted: needs a stored acceptance or the accept label) until 2027-01-31: runs are idempotent since v2_ — fix: keep approval: required unless the job is safe to run unattended
        - **MEDIUM** CF504 job target changed: node jobs/billing-sync.js → node jobs/billing-sync-v2.js · schedules/billing-sync.yaml:14:5 — fix: check the new target exists where the runners run and does the intended work

        </details>

        <details><summary>→ <code>weekly-report</code> (from <code>old-report</code>) [MEDIUM] renamed from old-report (history kept); next slot 08:00Z → 09:00Z; changed cron</summary>

        \`\`\`diff
        - cron: "0 9 * * 1"
        + cron: "0 10 * * 1"
        - name: "old-report"
        + name: "weekly-report"
        \`\`\`

        - **MEDIUM** CF303 cron change moves the next slots: 2026-11-30T08:00Z, 2026-12-07T08:00Z, 2026-12-14T08:00Z → 2026-11-30T09:00Z, 2026-12-07T09:00Z, 2026-12-14T09:00Z · schedules/weekly-report.yaml:8:9 — fix: confirm the new times against whatever depends on the old ones
        - **LOW** CF502 a 1h outage leads to 1 run, a 24h outage to 1 run (misfire RUN\\_ONCE, gracePeriod 7d; 1 and 1 slots missed) · schedules/weekly-report.yaml:7:1 — fix: nothing to do unless the job cannot absorb these runs

        </details>

        <details><summary>↺ <code>cleanup</code> [LOW] restore: 1 run/day (peak 1), next 2026-11-30 02:30 Europe/Berlin; DST: 2 transitions in 12 months (gap shift, fold first)</summary>

        **Job** (what will run)

        - type: \`command\`
        - command: \`"node"\` \`"jobs/cleanup.js"\`
        - cwd: \`"."\`
        - env: (none)

        - **LOW** CF302 DST touches this schedule 2 times in the next 12 months: 2027-03-28T01:00Z: 02:00:00–03:00:00 does not exist on 2027-03-28: 1 slot(s) shift forward by 60 min (dst.gap: shift) (02:30 local → 2027-03-28T01:30Z); 2027-10-31T01:00Z: 02:00:00–03:00:00 happens twice on 2027-10-31: 1 slot(s) run once, at t… (71 more characters) · schedules/cleanup.yaml:6:1 — fix: check spec.dst (gap: shift\\|skip, fold: first\\|second\\|both), or pick a local time outside the transition hours
        - **LOW** CF502 a 1h outage leads to 1 run, a 24h outage to 1 run (misfire RUN\\_ONCE, gracePeriod 1d; 1 and 1 slots missed) · schedules/cleanup.yaml:6:1 — fix: nothing to do unless the job cannot absorb these runs

        </details>

        <details><summary>+ <code>invoice-push</code> [LOW] new: 1 run/day (peak 1), next 2026-11-30 06:00 UTC</summary>

        **Job** (what will run)

        - type: \`http\`
        - method: \`"POST"\`
        - url: \`"https://erp.example.com/invoices"\`
        - headers: (none)
        - body: (none)
        - expectStatus: \`200-299\`

        - **LOW** CF502 a 1h outage leads to 1 run, a 24h outage to 1 run (misfire RUN\\_ONCE, gracePeriod 1d; 1 and 1 slots missed) · schedules/invoice-push.yaml:6:1 — fix: nothing to do unless the job cannot absorb these runs
        - **LOW** CF505 POST is retried up to 3 attempts: a retry after a timeout may repeat the side effect · schedules/invoice-push.yaml:14:18 — fix: make the endpoint honour the Idempotency-Key header cronform sends, or set retry.maxAttempts: 1

        </details>
        "
      `);
    } finally {
      await database.close();
    }
  });
});

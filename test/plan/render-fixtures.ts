/** Hand-built Plans for renderer tests: renderers are pure, so no planner or database is needed. */
import type { Definition } from '../../src/compile/definition.js';
import type { DriftItem, Finding, Plan, PlannedChange, PlanSummary, ScheduleFigures } from '../../src/plan/plan-types.js';
import { makeDefinition as makeNeutralDefinition } from '../support/definition.js';

/** The shared neutral Definition, as the pinned renders know it (billing-sync of team-billing). */
export function makeDefinition(overrides: Partial<Definition> = {}): Definition {
  return makeNeutralDefinition({
    name: 'billing-sync',
    owner: 'team-billing',
    job: { type: 'command', command: ['node', 'sync.js'], cwd: '.', env: {} },
    timeoutMs: 300_000,
    overlap: 'SKIP_NEW',
    maxCatchUp: 1,
    gracePeriodMs: 60_000,
    retry: { maxAttempts: 3, backoff: 'exponential', initialDelayMs: 1_000, maxDelayMs: 60_000 },
    ...overrides,
  });
}

export function makeFigures(runsPerDay: number, nextSlotsLocal: string[] = []): ScheduleFigures {
  return {
    runsPerDayPeak: runsPerDay,
    runsPerDayAverage: runsPerDay,
    peakRunsPerMinute: Math.max(1, Math.ceil(runsPerDay / 1440)),
    minIntervalMs: Math.floor(86_400_000 / Math.max(1, runsPerDay)),
    nextSlots: [],
    nextSlotsLocal,
  };
}

export function makeChange(overrides: Partial<PlannedChange> & Pick<PlannedChange, 'action' | 'name'>): PlannedChange {
  return {
    scheduleId: null,
    beforeVersion: null,
    beforeDigest: null,
    afterDigest: null,
    before: null,
    after: null,
    changedPaths: [],
    fieldChanges: [],
    headline: '',
    figures: { before: null, after: null },
    findings: [],
    risk: 'NONE',
    source: null,
    ...overrides,
  };
}

export function makeSummary(overrides: Partial<PlanSummary> = {}): PlanSummary {
  return {
    create: 0, update: 0, archive: 0, restore: 0, rename: 0, unchanged: 0, drift: 0,
    runsPerDayBefore: 0, runsPerDayAfter: 0, peakRunsPerMinuteBefore: 0, peakRunsPerMinuteAfter: 0,
    highestRisk: 'NONE', errors: 0,
    // Without acceptances the risk is the same unless a test says otherwise.
    highestRiskWithoutAcceptances: overrides.highestRisk ?? 'NONE',
    ...overrides,
  };
}

export function makePlan(overrides: Partial<Plan> = {}): Plan {
  return {
    formatVersion: 1,
    planId: 'sha256:3f2a9c',
    createdAt: '2026-06-01T12:00:00.000Z',
    against: { kind: 'database', engine: 'postgres' },
    changes: [],
    policyChange: null,
    policyInForce: 'stored',
    riskAcceptanceChange: null,
    drift: [],
    unchanged: 0,
    summary: makeSummary(),
    errors: [],
    ...overrides,
  };
}

const cf101: Finding = {
  code: 'CF101',
  level: 'HIGH',
  message: 'runs/day 24 → 1,440 (×60)',
  location: { file: 'schedules/a.yaml', line: 7, column: 9 },
  hint: 'if every minute is intended, accept the risk in metadata.riskAccepted',
};

const driftItem: DriftItem = {
  name: 'ledger-close',
  scheduleId: 9,
  kind: 'paused',
  message: 'paused from the CLI; apply will resume it',
  finding: { code: 'CF601', level: 'MEDIUM', message: 'paused outside git', hint: 'add enabled: false to keep it paused' },
};

/** One of everything: create, update (HIGH), archive with history, rename, restore, drift, error. */
export function makeRealisticPlan(): Plan {
  const before = makeDefinition();
  const after = makeDefinition({ cron: '* * * * *', payload: { region: 'eu', batch: 500 } });
  return makePlan({
    changes: [
      makeChange({
        action: 'update', name: 'billing-sync', scheduleId: 3, beforeVersion: 4, beforeDigest: 'sha256:aa', afterDigest: 'sha256:bb',
        before, after, changedPaths: ['cron', 'payload'],
        fieldChanges: [
          { path: 'cron', before: '0 * * * *', after: '* * * * *' },
          { path: 'payload', before: {}, after: { region: 'eu', batch: 500, note: 'moved to the new ledger service' } },
        ],
        headline: 'runs/day 24 → 1,440',
        figures: { before: makeFigures(24, ['13:00', '14:00', '15:00']), after: makeFigures(1440, ['12:01', '12:02', '12:03']) },
        findings: [cf101], risk: 'HIGH', source: { file: 'schedules/a.yaml', line: 1, column: 1 },
      }),
      makeChange({
        action: 'archive', name: 'legacy-export', scheduleId: 5, beforeVersion: 2, beforeDigest: 'sha256:cc',
        before: makeDefinition({ name: 'legacy-export', criticality: 'HIGH' }),
        headline: 'stops 1 run/day; last ran 2026-05-31T02:00:00Z',
        findings: [{ code: 'CF201', level: 'MEDIUM', message: 'archives a HIGH criticality schedule', hint: 'confirm with team-data' }],
        risk: 'MEDIUM', history: { lastRunAt: '2026-05-31T02:00:00Z', runsLast30Days: 30 },
      }),
      makeChange({
        action: 'create', name: 'nightly-report', afterDigest: 'sha256:dd', after: makeDefinition({ name: 'nightly-report', cron: '0 2 * * *' }),
        headline: 'new: runs/day 1 at 02:00 Europe/Berlin',
        findings: [{
          code: 'CF301', level: 'MEDIUM', message: '02:00 falls in the 2027-03-28 DST gap', location: { file: 'schedules/report.yaml', line: 4, column: 9 },
          accepted: { reason: 'shifted run is fine', until: '2026-12-15' },
        }],
        risk: 'NONE', source: { file: 'schedules/report.yaml', line: 1, column: 1 },
      }),
      makeChange({ action: 'rename', name: 'invoice-mailer', previousName: 'mailer', scheduleId: 7, beforeVersion: 1, headline: 'renamed from mailer; history kept' }),
      makeChange({ action: 'restore', name: 'cache-warm', scheduleId: 8, beforeVersion: 6, headline: 'restored: runs/day 0 → 96' }),
    ],
    drift: [driftItem],
    unchanged: 14,
    summary: makeSummary({
      create: 1, update: 1, archive: 1, restore: 1, rename: 1, unchanged: 14, drift: 1,
      runsPerDayBefore: 1234, runsPerDayAfter: 2745, peakRunsPerMinuteBefore: 12, peakRunsPerMinuteAfter: 15, highestRisk: 'HIGH', errors: 1,
    }),
    errors: [{
      severity: 'error', code: 'CF012', message: 'timezone must be an IANA zone (got "KST")',
      file: 'schedules/b.yaml', line: 3, column: 13, hint: 'use Asia/Seoul',
    }],
  });
}

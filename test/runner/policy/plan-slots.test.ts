import { describe, expect, it } from 'vitest';
import type { Definition } from '../../../src/compile/definition.js';
import { countSlotsBetween } from '../../../src/time/timing-cache.js';
import type { PlannedSlot } from '../../../src/runner/run-types.js';
import { planDueSlots, type DueSlotsInput } from '../../../src/runner/policy/plan-slots.js';
import { at, DAY_MS, HOUR_MS, iso, makeDefinition } from './definition-fixture.js';

const MINUTE_MS = 60_000;
const OUTAGE_START = '2026-03-01T00:00:00.000Z';

function plan(definition: Partial<Definition>, input: Partial<Omit<DueSlotsInput, 'definition'>> = {}) {
  return planDueSlots({
    name: 'hourly-sync',
    definition: makeDefinition(definition),
    nextRunAtMs: at(OUTAGE_START),
    nowMs: at('2026-03-03T00:10:00Z'),
    misfireThresholdMs: MINUTE_MS,
    paused: null,
    ...input,
  });
}

const label = (row: PlannedSlot) => `${row.summarizedSlots === null ? '' : `summary of ${row.summarizedSlots}: `}${row.status}${row.reason ? `/${row.reason}` : ''}`;

/** Consecutive rows with the same decision, as `decision ×count first…last`: exact per slot, still readable. */
function runs(rows: PlannedSlot[]): string[] {
  const groups: Array<{ label: string; count: number; first: number; last: number }> = [];
  for (const row of rows) {
    const previous = groups[groups.length - 1];
    if (previous && previous.label === label(row) && row.summarizedSlots === null) {
      previous.count += 1;
      previous.last = row.scheduledForMs;
    } else groups.push({ label: label(row), count: 1, first: row.scheduledForMs, last: row.scheduledForMs });
  }
  return groups.map((group) => `${group.label} ×${group.count} ${iso(group.first)}…${iso(group.last)}`);
}

describe('planDueSlots: a 2-day outage of an hourly schedule (49 slots, 03-01T00:00 … 03-03T00:00, now 03-03T00:10)', () => {
  it.each([
    // gracePeriod 2h: only 03-02T23:00 and 03-03T00:00 are recent enough to be auto-run.
    { misfire: 'SKIP', gracePeriodMs: 2 * HOUR_MS, expected: ['SKIPPED/GRACE_EXCEEDED ×47 2026-03-01T00:00:00.000Z…2026-03-02T22:00:00.000Z', 'SKIPPED/MISFIRE ×2 2026-03-02T23:00:00.000Z…2026-03-03T00:00:00.000Z'] },
    { misfire: 'RUN_ONCE', gracePeriodMs: 2 * HOUR_MS, expected: ['SKIPPED/GRACE_EXCEEDED ×47 2026-03-01T00:00:00.000Z…2026-03-02T22:00:00.000Z', 'SKIPPED/MISFIRE ×1 2026-03-02T23:00:00.000Z…2026-03-02T23:00:00.000Z', 'QUEUED ×1 2026-03-03T00:00:00.000Z…2026-03-03T00:00:00.000Z'] },
    { misfire: 'CATCH_UP_ALL', gracePeriodMs: 2 * HOUR_MS, expected: ['SKIPPED/GRACE_EXCEEDED ×47 2026-03-01T00:00:00.000Z…2026-03-02T22:00:00.000Z', 'QUEUED ×2 2026-03-02T23:00:00.000Z…2026-03-03T00:00:00.000Z'] },
    { misfire: 'MANUAL', gracePeriodMs: 2 * HOUR_MS, expected: ['SKIPPED/GRACE_EXCEEDED ×47 2026-03-01T00:00:00.000Z…2026-03-02T22:00:00.000Z', 'MANUAL_REQUIRED ×2 2026-03-02T23:00:00.000Z…2026-03-03T00:00:00.000Z'] },
    // gracePeriod 7d: the whole outage is within grace and the misfire policy alone decides.
    { misfire: 'SKIP', gracePeriodMs: 7 * DAY_MS, expected: ['SKIPPED/MISFIRE ×49 2026-03-01T00:00:00.000Z…2026-03-03T00:00:00.000Z'] },
    { misfire: 'RUN_ONCE', gracePeriodMs: 7 * DAY_MS, expected: ['SKIPPED/MISFIRE ×48 2026-03-01T00:00:00.000Z…2026-03-02T23:00:00.000Z', 'QUEUED ×1 2026-03-03T00:00:00.000Z…2026-03-03T00:00:00.000Z'] },
    { misfire: 'CATCH_UP_ALL', gracePeriodMs: 7 * DAY_MS, expected: ['SKIPPED/CATCH_UP_CAP ×25 2026-03-01T00:00:00.000Z…2026-03-02T00:00:00.000Z', 'QUEUED ×24 2026-03-02T01:00:00.000Z…2026-03-03T00:00:00.000Z'] },
    { misfire: 'MANUAL', gracePeriodMs: 7 * DAY_MS, expected: ['MANUAL_REQUIRED ×49 2026-03-01T00:00:00.000Z…2026-03-03T00:00:00.000Z'] },
  ] as const)('$misfire, gracePeriod $gracePeriodMs ms', ({ misfire, gracePeriodMs, expected }) => {
    const result = plan({ misfire, gracePeriodMs, maxCatchUp: 24 });
    expect(runs(result.slots)).toEqual(expected);
    expect(result.slots).toHaveLength(49);
    expect(iso(result.nextRunAtMs!)).toBe('2026-03-03T01:00:00.000Z');
    expect(result.slots.every((row) => row.runAfterMs === row.scheduledForMs && row.summarizedSlots === null)).toBe(true);
  });

  it('folds the oldest slots into one summary row when more than maxRowsPerTick rows would be written', () => {
    const result = plan({ misfire: 'RUN_ONCE', gracePeriodMs: 7 * DAY_MS }, { maxRowsPerTick: 10 });
    expect(runs(result.slots)).toEqual([
      'summary of 40: MISSED/MISFIRE ×1 2026-03-01T00:00:00.000Z…2026-03-01T00:00:00.000Z',
      'SKIPPED/MISFIRE ×8 2026-03-02T16:00:00.000Z…2026-03-02T23:00:00.000Z',
      'QUEUED ×1 2026-03-03T00:00:00.000Z…2026-03-03T00:00:00.000Z',
    ]);
    expect(result.slots[0]).toEqual({ scheduledForMs: at(OUTAGE_START), status: 'MISSED', reason: 'MISFIRE', runAfterMs: at(OUTAGE_START), businessDate: '2026-03-01', summarizedSlots: 40 });
  });
});

describe('planDueSlots: an every-second schedule after a 2-day outage', () => {
  const definition = { cron: '* * * * * *', gracePeriodMs: MINUTE_MS, misfire: 'RUN_ONCE' } as const;
  const nowMs = at(OUTAGE_START) + 2 * DAY_MS - 1000; // 172,800 due slots: 03-01T00:00:00 … 03-02T23:59:59

  it('writes 1,000 rows: one summary row for the oldest 171,801 slots, then 999 slot rows', () => {
    expect(countSlotsBetween(makeDefinition(definition), at(OUTAGE_START), nowMs + 1)).toBe(172_800);
    const result = plan(definition, { nowMs });
    expect(result.slots).toHaveLength(1000);
    expect(result.slots[0]).toEqual({ scheduledForMs: at(OUTAGE_START), status: 'MISSED', reason: 'GRACE_EXCEEDED', runAfterMs: at(OUTAGE_START), businessDate: '2026-03-01', summarizedSlots: 172_800 - 999 });
    // The 61 slots of the last minute (now - slot <= 60 s) are on time and all run.
    expect(runs(result.slots.slice(1))).toEqual(['SKIPPED/GRACE_EXCEEDED ×938 2026-03-02T23:43:21.000Z…2026-03-02T23:58:58.000Z', 'QUEUED ×61 2026-03-02T23:58:59.000Z…2026-03-02T23:59:59.000Z']);
    expect(result.slots.reduce((sum, row) => sum + (row.summarizedSlots ?? 1), 0)).toBe(172_800);
    expect(iso(result.nextRunAtMs!)).toBe('2026-03-03T00:00:00.000Z');
  });

  it('counts a year-long outage just as well (31,536,000 slots, never enumerated)', () => {
    const result = plan(definition, { nowMs: at(OUTAGE_START) + 365 * DAY_MS - 1000 });
    expect(result.slots).toHaveLength(1000);
    expect(result.slots[0]!.summarizedSlots).toBe(365 * 86_400 - 999);
  });

  it('gives one summary row per reason when the fold spans a pause, the grace boundary and the catch-up cap', () => {
    const result = plan({ ...definition, gracePeriodMs: DAY_MS, misfire: 'CATCH_UP_ALL', maxCatchUp: 500 }, { nowMs, paused: { untilMs: at('2026-03-01T01:00:00Z') } });
    expect(result.slots).toHaveLength(1000);
    expect(result.slots.filter((row) => row.summarizedSlots !== null).map((row) => [iso(row.scheduledForMs), row.status, row.reason, row.summarizedSlots])).toEqual([
      ['2026-03-01T00:00:00.000Z', 'MISSED', 'PAUSED', 3600],
      ['2026-03-01T01:00:00.000Z', 'MISSED', 'GRACE_EXCEEDED', 82_799],
      ['2026-03-01T23:59:59.000Z', 'MISSED', 'CATCH_UP_CAP', 85_404],
    ]);
    // 997 slot rows: the 436 newest capped slots, the newest 500 missed ones, the 61 on-time ones.
    expect(runs(result.slots.slice(3))).toEqual(['SKIPPED/CATCH_UP_CAP ×436 2026-03-02T23:43:23.000Z…2026-03-02T23:50:38.000Z', 'QUEUED ×561 2026-03-02T23:50:39.000Z…2026-03-02T23:59:59.000Z']);
    expect(result.slots.reduce((sum, row) => sum + (row.summarizedSlots ?? 1), 0)).toBe(172_800);
  });

  it.each(['SKIP', 'RUN_ONCE', 'CATCH_UP_ALL', 'MANUAL'] as const)('folds exactly what the slot rows would have said (%s, grace 10 min, pause until 00:03)', (misfire) => {
    const input = { nowMs: at('2026-03-01T00:30:00Z'), paused: { untilMs: at('2026-03-01T00:03:00Z') } };
    const overrides = { ...definition, misfire, gracePeriodMs: 10 * MINUTE_MS, maxCatchUp: 300, approval: 'required' as const };
    const full = plan(overrides, { ...input, maxRowsPerTick: 5000 }).slots;
    expect(full).toHaveLength(1801);
    const folded = plan(overrides, { ...input, maxRowsPerTick: 100 }).slots;
    expect(folded.length).toBeLessThanOrEqual(100);
    const summaries = folded.filter((row) => row.summarizedSlots !== null);
    const foldedCount = summaries.reduce((sum, row) => sum + row.summarizedSlots!, 0);
    expect(folded.slice(summaries.length)).toEqual(full.slice(foldedCount));
    const expectedReasons = new Map<string, number>();
    for (const row of full.slice(0, foldedCount)) expectedReasons.set(row.reason ?? 'MISFIRE', (expectedReasons.get(row.reason ?? 'MISFIRE') ?? 0) + 1);
    expect(new Map(summaries.map((row) => [row.reason!, row.summarizedSlots!]))).toEqual(expectedReasons);
  });
});

describe('planDueSlots: on-time and missed slots together', () => {
  const nowMs = at('2026-03-03T00:00:30Z'); // 03-03T00:00 is on time, the 48 before it are missed

  it.each([
    { misfire: 'RUN_ONCE', gracePeriodMs: 7 * DAY_MS, expected: ['SKIPPED/MISFIRE ×48 2026-03-01T00:00:00.000Z…2026-03-02T23:00:00.000Z', 'QUEUED ×1 2026-03-03T00:00:00.000Z…2026-03-03T00:00:00.000Z'] },
    { misfire: 'RUN_ONCE', gracePeriodMs: 2 * HOUR_MS, expected: ['SKIPPED/GRACE_EXCEEDED ×47 2026-03-01T00:00:00.000Z…2026-03-02T22:00:00.000Z', 'SKIPPED/MISFIRE ×1 2026-03-02T23:00:00.000Z…2026-03-02T23:00:00.000Z', 'QUEUED ×1 2026-03-03T00:00:00.000Z…2026-03-03T00:00:00.000Z'] },
    // The cap counts catch-up runs only: the on-time slot runs on top of the newest 24 missed ones.
    { misfire: 'CATCH_UP_ALL', gracePeriodMs: 7 * DAY_MS, expected: ['SKIPPED/CATCH_UP_CAP ×24 2026-03-01T00:00:00.000Z…2026-03-01T23:00:00.000Z', 'QUEUED ×25 2026-03-02T00:00:00.000Z…2026-03-03T00:00:00.000Z'] },
    { misfire: 'SKIP', gracePeriodMs: 7 * DAY_MS, expected: ['SKIPPED/MISFIRE ×48 2026-03-01T00:00:00.000Z…2026-03-02T23:00:00.000Z', 'QUEUED ×1 2026-03-03T00:00:00.000Z…2026-03-03T00:00:00.000Z'] },
  ] as const)('$misfire, gracePeriod $gracePeriodMs ms: the on-time slot runs', ({ misfire, gracePeriodMs, expected }) => {
    expect(runs(plan({ misfire, gracePeriodMs, maxCatchUp: 24 }, { nowMs }).slots)).toEqual(expected);
  });

  it.each([
    { lateMs: MINUTE_MS, status: 'QUEUED', reason: null }, // exactly the threshold: still on time
    { lateMs: MINUTE_MS + 1, status: 'SKIPPED', reason: 'MISFIRE' },
  ])('a slot processed $lateMs ms late under SKIP is $status', ({ lateMs, status, reason }) => {
    const slotMs = at('2026-03-03T00:00:00Z');
    expect(plan({ misfire: 'SKIP' }, { nextRunAtMs: slotMs, nowMs: slotMs + lateMs }).slots).toMatchObject([{ status, reason }]);
  });

  it.each([
    { lateMs: HOUR_MS, status: 'QUEUED', reason: null }, // exactly the grace period: still auto-run
    { lateMs: HOUR_MS + 1, status: 'SKIPPED', reason: 'GRACE_EXCEEDED' },
  ])('a slot $lateMs ms late with a 1h grace period under RUN_ONCE is $status', ({ lateMs, status, reason }) => {
    const slotMs = at('2026-03-03T00:00:00Z');
    expect(plan({ cron: '0 0 * * *', misfire: 'RUN_ONCE', gracePeriodMs: HOUR_MS }, { nextRunAtMs: slotMs, nowMs: slotMs + lateMs }).slots).toMatchObject([{ status, reason }]);
  });
});

describe('planDueSlots: approval, pause, and the window itself', () => {
  it('approval: required turns every run into MANUAL_REQUIRED and leaves skips alone', () => {
    expect(runs(plan({ approval: 'required', misfire: 'RUN_ONCE', gracePeriodMs: 2 * HOUR_MS }).slots)).toEqual([
      'SKIPPED/GRACE_EXCEEDED ×47 2026-03-01T00:00:00.000Z…2026-03-02T22:00:00.000Z',
      'SKIPPED/MISFIRE ×1 2026-03-02T23:00:00.000Z…2026-03-02T23:00:00.000Z',
      'MANUAL_REQUIRED ×1 2026-03-03T00:00:00.000Z…2026-03-03T00:00:00.000Z',
    ]);
    const slotMs = at('2026-03-03T00:00:00Z');
    expect(plan({ approval: 'required' }, { nextRunAtMs: slotMs, nowMs: slotMs + 5 }).slots).toMatchObject([{ status: 'MANUAL_REQUIRED', reason: null }]);
  });

  it('paused without until: every due slot is SKIPPED/PAUSED, on-time ones included', () => {
    const result = plan({ misfire: 'CATCH_UP_ALL', gracePeriodMs: 7 * DAY_MS }, { nowMs: at('2026-03-03T00:00:30Z'), paused: { untilMs: null } });
    expect(runs(result.slots)).toEqual(['SKIPPED/PAUSED ×49 2026-03-01T00:00:00.000Z…2026-03-03T00:00:00.000Z']);
    expect(iso(result.nextRunAtMs!)).toBe('2026-03-03T01:00:00.000Z');
  });

  it('paused until 03-02T12:00: earlier slots are PAUSED, the slot at until and later ones follow the misfire policy', () => {
    expect(runs(plan({ misfire: 'RUN_ONCE', gracePeriodMs: 7 * DAY_MS }, { paused: { untilMs: at('2026-03-02T12:00:00Z') } }).slots)).toEqual([
      'SKIPPED/PAUSED ×36 2026-03-01T00:00:00.000Z…2026-03-02T11:00:00.000Z',
      'SKIPPED/MISFIRE ×12 2026-03-02T12:00:00.000Z…2026-03-02T23:00:00.000Z',
      'QUEUED ×1 2026-03-03T00:00:00.000Z…2026-03-03T00:00:00.000Z',
    ]);
  });

  it('nothing due: no rows, and nextRunAtMs stays on the first slot not yet turned into a run', () => {
    const result = plan({}, { nextRunAtMs: at('2026-03-03T01:00:00Z'), nowMs: at('2026-03-03T00:10:00Z') });
    expect(result).toEqual({ slots: [], nextRunAtMs: at('2026-03-03T01:00:00Z') });
  });

  it('a window start that is not a slot (the apply time) covers the slots from the next one on', () => {
    const result = plan({}, { nextRunAtMs: at('2026-03-02T23:17:00Z'), nowMs: at('2026-03-03T00:00:10Z') });
    expect(result.slots.map((row) => iso(row.scheduledForMs))).toEqual(['2026-03-03T00:00:00.000Z']);
    expect(iso(result.nextRunAtMs!)).toBe('2026-03-03T01:00:00.000Z');
  });

  it('a disabled schedule plans nothing and has no next run', () => {
    expect(plan({ enabled: false })).toEqual({ slots: [], nextRunAtMs: null });
  });

  it('rejects a maxRowsPerTick too small to hold the summary rows', () => {
    expect(() => plan({}, { maxRowsPerTick: 4 })).toThrow(RangeError);
  });

  it('jitters each start deterministically and keeps it before the next slot', () => {
    const input = { nowMs: at('2026-03-03T00:00:30Z') };
    const first = plan({ jitterMs: 2 * HOUR_MS, misfire: 'CATCH_UP_ALL', gracePeriodMs: 7 * DAY_MS }, input).slots;
    expect(plan({ jitterMs: 2 * HOUR_MS, misfire: 'CATCH_UP_ALL', gracePeriodMs: 7 * DAY_MS }, input).slots).toEqual(first);
    for (const row of first) expect(row.runAfterMs - row.scheduledForMs).toBeGreaterThanOrEqual(0);
    for (const row of first) expect(row.runAfterMs - row.scheduledForMs).toBeLessThan(HOUR_MS);
    // About half the 2h spreads fall past the next slot and are held at its last millisecond before.
    const spreads = first.map((row) => row.runAfterMs - row.scheduledForMs);
    expect(spreads.filter((spread) => spread === HOUR_MS - 1).length).toBeGreaterThan(10);
    expect(new Set(spreads).size).toBeGreaterThan(15);
  });

  it('computes businessDate in the schedule zone: 00:30 in Seoul with offsetDays -1 is the previous local day', () => {
    const result = plan({ cron: '30 0 * * *', timezone: 'Asia/Seoul', businessDate: { offsetDays: -1 }, misfire: 'CATCH_UP_ALL', gracePeriodMs: 7 * DAY_MS }, { nowMs: at('2026-03-02T15:30:00Z') });
    expect(result.slots.map((row) => [iso(row.scheduledForMs), row.businessDate])).toEqual([
      ['2026-03-01T15:30:00.000Z', '2026-03-01'],
      ['2026-03-02T15:30:00.000Z', '2026-03-02'],
    ]);
  });
});

describe('planDueSlots: planning ahead (horizon after now)', () => {
  const SLOT = '2026-03-03T01:00:00.000Z';

  it('turns a slot within the horizon into a QUEUED run due at its slot, and moves next_run_at past it', () => {
    const result = plan({ misfire: 'SKIP' }, { nextRunAtMs: at(SLOT), nowMs: at(SLOT) - 100, horizonMs: at(SLOT) });
    expect(runs(result.slots)).toEqual([`QUEUED ×1 ${SLOT}…${SLOT}`]);
    expect(result.slots[0]!.runAfterMs).toBe(at(SLOT));
    expect(iso(result.nextRunAtMs!)).toBe('2026-03-03T02:00:00.000Z');
  });

  it('plans nothing while the next slot is beyond the horizon', () => {
    const result = plan({ misfire: 'SKIP' }, { nextRunAtMs: at(SLOT), nowMs: at(SLOT) - 200, horizonMs: at(SLOT) - 100 });
    expect(result).toEqual({ slots: [], nextRunAtMs: at(SLOT) });
  });

  it('still judges lateness at now: after an outage, RUN_ONCE runs the slot within the horizon, not the latest missed one', () => {
    // Slots 00:00…01:00 on 03-03; now is 100 ms before 01:00 and the misfire threshold is a minute.
    const result = plan({ misfire: 'RUN_ONCE', gracePeriodMs: 7 * DAY_MS }, { nextRunAtMs: at('2026-03-03T00:00:00Z'), nowMs: at(SLOT) - 100, horizonMs: at(SLOT) });
    expect(runs(result.slots)).toEqual(['SKIPPED/MISFIRE ×1 2026-03-03T00:00:00.000Z…2026-03-03T00:00:00.000Z', `QUEUED ×1 ${SLOT}…${SLOT}`]);
    // At the horizon itself (no planning ahead) the same slot is the on-time one; nothing changes.
    const atSlot = plan({ misfire: 'RUN_ONCE', gracePeriodMs: 7 * DAY_MS }, { nextRunAtMs: at('2026-03-03T00:00:00Z'), nowMs: at(SLOT) });
    expect(runs(atSlot.slots)).toEqual(runs(result.slots));
  });

  it('measures a slot against the misfire threshold from now, not from the horizon', () => {
    // Per-minute schedule, threshold 1 min: at now = 01:00:59 the 01:00 slot is 59 s late (on
    // time); from the horizon 01:01:01 it would be 61 s late (missed).
    const nowMs = at('2026-03-03T01:00:59Z');
    const result = plan({ cron: '* * * * *', misfire: 'SKIP', gracePeriodMs: 7 * DAY_MS }, { nextRunAtMs: at('2026-03-03T01:00:00Z'), nowMs, horizonMs: nowMs + 2_000 });
    expect(runs(result.slots)).toEqual(['QUEUED ×2 2026-03-03T01:00:00.000Z…2026-03-03T01:01:00.000Z']);
    expect(iso(result.nextRunAtMs!)).toBe('2026-03-03T01:02:00.000Z');
  });
});

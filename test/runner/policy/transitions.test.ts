import { describe, expect, it } from 'vitest';
import { assertTransition, canTransition, IllegalTransitionError, INITIAL_STATUSES, TRANSITIONS } from '../../../src/runner/policy/transitions.js';
import { FINAL_STATUSES, RUN_STATUSES, type RunStatus } from '../../../src/db/run-vocabulary.js';

/** Every edge, named by the operation of SPEC §7 that needs it. Adding an edge means adding it here. */
const EXPECTED: Array<[RunStatus, RunStatus, string]> = [
  ['PENDING', 'QUEUED', 'promotion when the active run ends (QUEUE_NEW)'],
  ['PENDING', 'SKIPPED', 'pause'],
  ['PENDING', 'CANCELLED', 'cancel'],
  ['QUEUED', 'RUNNING', 'claim'],
  ['QUEUED', 'SKIPPED', 'pause'],
  ['QUEUED', 'CANCELLED', 'cancel'],
  ['RUNNING', 'SUCCESS', 'complete'],
  ['RUNNING', 'PARTIAL_SUCCESS', 'complete with failed items within allowedFailures'],
  ['RUNNING', 'FAILED', 'complete, last attempt / stall with onStall fail'],
  ['RUNNING', 'RETRY_PENDING', 'complete with attempts left / stall with onStall retry'],
  ['RUNNING', 'CANCELLED', 'cancel'],
  ['RUNNING', 'MANUAL_REQUIRED', 'stall with onStall manual'],
  ['RUNNING', 'QUEUED', 'graceful shutdown releases the lease'],
  ['RUNNING', 'SKIPPED', 'cronform dev: the job needs a fromEnv variable that is not set (MISSING_SECRET)'],
  ['RETRY_PENDING', 'RUNNING', 'claim a due retry'],
  ['RETRY_PENDING', 'SKIPPED', 'pause'],
  ['RETRY_PENDING', 'CANCELLED', 'cancel'],
  ['MANUAL_REQUIRED', 'QUEUED', 'approve'],
  ['MANUAL_REQUIRED', 'PENDING', 'approve behind an active run (QUEUE_NEW)'],
  ['MANUAL_REQUIRED', 'CANCELLED', 'cancel'],
  ['FAILED', 'QUEUED', 'retry <runId>, backfill --reprocess failed'],
  ['FAILED', 'RETRY_PENDING', 'retry <runId> with backoff'],
  ['SKIPPED', 'QUEUED', 'resume --missed, backfill --reprocess all'],
  ['SKIPPED', 'PENDING', 'resume --missed behind an active run'],
  ['MISSED', 'QUEUED', 'resume --missed, backfill --reprocess all'],
  ['MISSED', 'PENDING', 'resume --missed behind an active run'],
  ['CANCELLED', 'QUEUED', 'retry <runId>, backfill --reprocess all'],
  ['SUCCESS', 'QUEUED', 'backfill --reprocess all'],
  ['PARTIAL_SUCCESS', 'QUEUED', 'retry <runId> (only its failed items), backfill --reprocess all'],
  ['PARTIAL_SUCCESS', 'PENDING', 'backfill --reprocess all beyond its --concurrency'],
  ['FAILED', 'PENDING', 'backfill --reprocess beyond its --concurrency'],
  ['CANCELLED', 'PENDING', 'backfill --reprocess all beyond its --concurrency'],
  ['SUCCESS', 'PENDING', 'backfill --reprocess all beyond its --concurrency'],
];

describe('run status transitions', () => {
  it('the table holds exactly the expected edges, each documented', () => {
    expect(TRANSITIONS.map((edge) => `${edge.from}>${edge.to}`).sort()).toEqual(EXPECTED.map(([from, to]) => `${from}>${to}`).sort());
    for (const edge of TRANSITIONS) expect(edge.by.length).toBeGreaterThan(0);
  });

  it.each(EXPECTED)('%s → %s is allowed (%s)', (from, to) => {
    expect(canTransition(from, to)).toBe(true);
    expect(() => assertTransition(from, to)).not.toThrow();
  });

  it.each<[RunStatus, RunStatus]>([
    ['SUCCESS', 'RUNNING'],
    ['SUCCESS', 'FAILED'],
    ['FAILED', 'SUCCESS'],
    ['FAILED', 'RUNNING'],
    ['CANCELLED', 'RUNNING'],
    ['QUEUED', 'SUCCESS'],
    ['QUEUED', 'PENDING'],
    ['PENDING', 'RUNNING'],
    ['RETRY_PENDING', 'QUEUED'],
    ['RETRY_PENDING', 'SUCCESS'],
    ['MANUAL_REQUIRED', 'RUNNING'],
    ['MISSED', 'RUNNING'],
    ['SKIPPED', 'RUNNING'],
    ['RUNNING', 'PENDING'],
    ['RUNNING', 'MISSED'],
  ])('%s → %s is forbidden', (from, to) => {
    expect(canTransition(from, to)).toBe(false);
    expect(() => assertTransition(from, to)).toThrow(IllegalTransitionError);
  });

  it('no status transitions to itself', () => {
    for (const status of RUN_STATUSES) expect(canTransition(status, status)).toBe(false);
  });

  it('names the edge and the allowed ones when it throws', () => {
    expect(() => assertTransition('SUCCESS', 'RUNNING')).toThrow('illegal run status transition SUCCESS → RUNNING (allowed from SUCCESS: QUEUED, PENDING)');
  });

  it('every unfinished status can be cancelled and has a way out; nothing leads into a status a row cannot reach', () => {
    for (const status of RUN_STATUSES.filter((candidate) => !FINAL_STATUSES.includes(candidate))) expect(canTransition(status, 'CANCELLED')).toBe(true);
    const reachable = new Set<RunStatus>([...INITIAL_STATUSES, ...TRANSITIONS.map((edge) => edge.to)]);
    expect([...reachable].sort()).toEqual([...RUN_STATUSES].sort());
  });

  it('a final status is left only by a human operation that re-queues it', () => {
    for (const edge of TRANSITIONS.filter((candidate) => FINAL_STATUSES.includes(candidate.from))) expect(['QUEUED', 'PENDING', 'RETRY_PENDING']).toContain(edge.to);
  });
});

/** What a claimed run turns into: the job's run context and its attempt's outcome record. */
import { describe, expect, it } from 'vitest';
import type { Definition } from '../../src/compile/definition.js';
import type { ClaimedRun } from '../../src/db/worker-queries.js';
import { attemptCompletionOf, executeClaimedRun, runContextOf, type ExecutionSettings } from '../../src/runner/claimed-run.js';
import { ManualClock } from '../../src/shared/clock.js';
import type { ExecutionOutcome } from '../../src/runner/run-types.js';

const CLAIMED_AT = new Date('2026-11-29T12:00:00.000Z');
const run: ClaimedRun = {
  id: 42,
  scheduleId: 7,
  scheduleName: 'nightly-report',
  scheduleVersion: 3,
  scheduledFor: new Date('2026-11-29T02:00:00.000Z'),
  slot: '2026-11-29T02:00:00.000000Z',
  triggerType: 'SCHEDULED',
  idempotencyKey: 'nightly-report:2026-11-29T02:00:00.000Z:SCHEDULED',
  businessDate: '2026-11-28',
  attempt: 2,
  maxAttempts: 3,
  queue: 'default',
  priority: 2,
  claimedAt: CLAIMED_AT,
  openedRunning: false,
  leaseExpiresAt: new Date('2026-11-29T12:00:30.000Z'),
};
const retry: Definition['retry'] = { maxAttempts: 3, backoff: 'fixed', initialDelayMs: 30_000, maxDelayMs: 30_000 };
const outcome = (status: ExecutionOutcome['status']): ExecutionOutcome => ({ status, exitCode: status === 'SUCCEEDED' ? 0 : 1, httpStatus: null, error: status === 'SUCCEEDED' ? null : 'boom', stdoutTail: 'out', stderrTail: null, durationMs: 5 });
const FINISHED_MS = Date.parse('2026-11-29T12:00:01.000Z');

describe('a claimed run', () => {
  it('gives its job the run context of SPEC §7', () => {
    expect(runContextOf(run, { payload: { region: 'eu' } } as unknown as Definition)).toEqual({
      runId: 42,
      schedule: 'nightly-report',
      scheduledFor: '2026-11-29T02:00:00.000Z',
      businessDate: '2026-11-28',
      idempotencyKey: 'nightly-report:2026-11-29T02:00:00.000Z:SCHEDULED',
      attempt: 2,
      trigger: 'SCHEDULED',
      payload: { region: 'eu' },
    });
  });

  it('hands the job its run\'s abort signal, which aborting the run aborts', async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const settings: ExecutionSettings = {
      killGraceMs: 100,
      env: {},
      baseDir: '/',
      clock: new ManualClock(0),
      execute: async (_job, _context, options) => {
        seen = options.signal;
        return outcome('SUCCEEDED');
      },
    };
    const definition = { job: { type: 'command', command: ['true'] }, timeoutMs: 1000, payload: {} } as unknown as Definition;
    await executeClaimedRun(run, definition, controller, settings);
    expect(seen?.aborted).toBe(false);
    controller.abort();
    expect(seen?.aborted).toBe(true);
  });

  it('redacts the job\'s fromEnv values from what another execute returns or throws', async () => {
    const secret = 'seam-secret-9f8e7d';
    const definition = { job: { type: 'http', url: 'https://example.com', headers: { Authorization: { fromEnv: 'API_KEY' } } }, timeoutMs: 1000, payload: {} } as unknown as Definition;
    const echoing: ExecutionSettings = {
      killGraceMs: 100,
      env: { API_KEY: secret },
      baseDir: '/',
      clock: new ManualClock(0),
      execute: () => Promise.resolve({ ...outcome('FAILED'), error: `rejected ${secret}`, stdoutTail: `out ${secret}`, stderrTail: `err ${secret}` }),
    };
    expect(await executeClaimedRun(run, definition, new AbortController(), echoing)).toMatchObject({
      error: 'rejected [redacted:API_KEY]',
      stdoutTail: 'out [redacted:API_KEY]',
      stderrTail: 'err [redacted:API_KEY]',
    });
    const throwing: ExecutionSettings = { ...echoing, execute: () => Promise.reject(new Error(`cannot use ${secret}`)) };
    await expect(executeClaimedRun(run, definition, new AbortController(), throwing)).rejects.toThrow(/^cannot use \[redacted:API_KEY\]$/);
  });

  it('fails a run whose definition version is missing without executing anything', async () => {
    const settings: ExecutionSettings = { killGraceMs: 100, env: {}, baseDir: '/', clock: new ManualClock(0), execute: () => Promise.reject(new Error('must not run')) };
    expect(await executeClaimedRun(run, undefined, new AbortController(), settings)).toMatchObject({ status: 'FAILED', error: 'definition v3 of nightly-report not found' });
  });

  it.each([
    { status: 'SUCCEEDED' as const, runStatus: 'SUCCESS', runAfter: null },
    { status: 'FAILED' as const, runStatus: 'RETRY_PENDING', runAfter: new Date(FINISHED_MS + 30_000) },
    { status: 'TIMED_OUT' as const, runStatus: 'RETRY_PENDING', runAfter: new Date(FINISHED_MS + 30_000) },
    { status: 'CANCELLED' as const, runStatus: 'CANCELLED', runAfter: null },
  ])('records a $status attempt with the run $runStatus', ({ status, runStatus, runAfter }) => {
    const completion = attemptCompletionOf(run, outcome(status), retry, { startedMs: FINISHED_MS - 5, finishedMs: FINISHED_MS });
    expect(completion).toMatchObject({ runId: 42, attempt: 2, attemptStatus: status, runStatus, runAfter, stdoutTail: 'out', claimedAt: CLAIMED_AT });
    expect(completion.startedAt).toEqual(new Date(FINISHED_MS - 5));
    expect(completion.finishedAt).toEqual(new Date(FINISHED_MS));
  });

  it('fails the run on its last attempt, and records no start for a job that never started', () => {
    const last = attemptCompletionOf({ ...run, attempt: 3 }, outcome('FAILED'), retry, { startedMs: undefined, finishedMs: FINISHED_MS });
    expect(last).toMatchObject({ runStatus: 'FAILED', runAfter: null, startedAt: null });
  });
});

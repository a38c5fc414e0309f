/**
 * The chaos verdict "successful jobs run again although their runner lived" on synthetic job logs
 * and attempt rows: it must fail on a real double execution (an outcome lost while its runner
 * lived, a job that ended on its own and was reported stopped) and pass the retries the runner
 * rightly starts (a job stopped alive at its timeout or lease fence, a SIGKILLed runner).
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript of the chaos suite, no declarations
import { successfulJobsRunAgain } from '../../bench/chaos/reruns.js';

interface Attempt {
  runId: number;
  attempt: number;
  runnerId: string;
  status: string;
  startedMs: number;
  finishedMs: number | null;
  exitCode: number | null;
  error?: string;
}

const T0 = 1_000_000;
const start = (runId: number, attempt: number) => ({ runId, attempt, version: 1, schedule: 'chaos-001' });
const end = (runId: number, attempt: number, atMs: number, code = 0) => ({ runId, attempt, code, atMs });
const attempt = (fields: Partial<Attempt> & Pick<Attempt, 'status'>): Attempt => ({ runId: 1, attempt: 1, runnerId: 'r1', startedMs: T0, finishedMs: T0 + 1_000, exitCode: null, ...fields });

/** Run 1: attempt 1 as given, its job's END 0 line at `endAtMs`, then attempt 2 executes and succeeds. */
function verdict(first: Attempt, endAtMs: number, options: { killedBy?: string | null; fencedAtMs?: number } = {}) {
  const jobLog = { starts: [start(1, 1), start(1, 2)], ends: [end(1, 1, endAtMs), end(1, 2, T0 + 5_000)] };
  const attempts = [first, attempt({ attempt: 2, status: 'SUCCEEDED', startedMs: T0 + 4_000, exitCode: 0 })];
  const fenced = new Map(options.fencedAtMs === undefined ? [] : [['1:1', options.fencedAtMs]]);
  return successfulJobsRunAgain(jobLog, attempts, () => 1_000, () => options.killedBy ?? null, fenced) as { afterKill: number; stoppedAtDeadline: string[]; unexcused: string[] };
}

describe('chaos verdict: successful jobs run again although their runner lived', () => {
  it('fails when an attempt that succeeded was declared stalled while its runner lived (the outcome lost)', () => {
    expect(verdict(attempt({ status: 'STALLED' }), T0 + 300).unexcused).toEqual(['run 1 attempt 1 (STALLED)']);
  });

  it('fails when a job that ended on its own well before its timeout was reported TIMED_OUT and run again', () => {
    const result = verdict(attempt({ status: 'TIMED_OUT', exitCode: 0 }), T0 + 300);
    expect(result.unexcused).toEqual(['run 1 attempt 1 (TIMED_OUT): ended 700 ms before its stop, exit code 0']);
  });

  it('fails when a fenced job had ended well before its runner stopped it', () => {
    expect(verdict(attempt({ status: 'STALLED' }), T0 + 300, { fencedAtMs: T0 + 2_000 }).unexcused).toHaveLength(1);
  });

  it('fails on a second success even when the later attempt is not logged as a new start', () => {
    const jobLog = { starts: [start(1, 1)], ends: [end(1, 1, T0 + 300), end(1, 1, T0 + 400)] };
    expect(successfulJobsRunAgain(jobLog, [attempt({ status: 'SUCCEEDED', exitCode: 0 })], () => 1_000, () => null, new Map()).unexcused).toHaveLength(1);
  });

  it('passes a job killed at its timeout after writing its END line (no exit code: the signal ended it)', () => {
    const result = verdict(attempt({ status: 'TIMED_OUT', exitCode: null }), T0 + 300);
    expect(result.unexcused).toEqual([]);
    expect(result.stoppedAtDeadline).toHaveLength(1);
  });

  it('passes a job whose END line came at its timeout, and one stopped by its lease fence just after its END line', () => {
    expect(verdict(attempt({ status: 'TIMED_OUT', exitCode: 0 }), T0 + 900).unexcused).toEqual([]);
    expect(verdict(attempt({ status: 'STALLED' }), T0 + 1_900, { fencedAtMs: T0 + 2_000 }).unexcused).toEqual([]);
  });

  it('passes a job killed at the end of a SIGTERM drain after writing its END line, not one that had exited', () => {
    const released = { status: 'CANCELLED', error: 'runner shut down before the attempt finished; run released' };
    expect(verdict(attempt({ ...released, exitCode: null }), T0 + 300, { killedBy: 'SIGTERM' }).unexcused).toEqual([]);
    expect(verdict(attempt({ ...released, exitCode: 0 }), T0 + 300, { killedBy: 'SIGTERM' }).unexcused).toHaveLength(1);
  });

  it('passes a run again after its runner was SIGKILLed before it wrote the outcome (guarantee 8)', () => {
    const result = verdict(attempt({ status: 'STALLED' }), T0 + 300, { killedBy: 'SIGKILL' });
    expect(result).toMatchObject({ afterKill: 1, unexcused: [] });
  });

  it('ignores a success that did not run again', () => {
    const jobLog = { starts: [start(1, 1)], ends: [end(1, 1, T0 + 300)] };
    expect(successfulJobsRunAgain(jobLog, [attempt({ status: 'SUCCEEDED', exitCode: 0 })], () => 1_000, () => null, new Map()).unexcused).toEqual([]);
  });
});

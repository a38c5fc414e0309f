/** The one-line reason of a run: recorded, else its last failed attempt's (pure). */
import { describe, expect, it } from 'vitest';
import { describeRunReason } from '../../../src/operations/runs/run-reason.js';

const attempt = (fields: Partial<{ status: string; exitCode: number | null; httpStatus: number | null; error: string | null }>) => ({ status: 'FAILED', exitCode: null, httpStatus: null, error: null, ...fields });

describe('describeRunReason', () => {
  it.each([
    { name: 'a recorded reason wins', status: 'SKIPPED', reason: 'OVERLAP', last: null, expected: 'OVERLAP' },
    { name: 'the attempt error', status: 'FAILED', reason: null, last: attempt({ error: 'environment variable K is not set on this runner' }), expected: 'environment variable K is not set on this runner' },
    { name: 'an exit code without error text', status: 'FAILED', reason: null, last: attempt({ exitCode: 2 }), expected: 'exited with code 2' },
    { name: 'an HTTP status without error text', status: 'RETRY_PENDING', reason: null, last: attempt({ httpStatus: 503 }), expected: 'HTTP 503' },
    { name: 'only the attempt status', status: 'FAILED', reason: null, last: attempt({ status: 'TIMED_OUT' }), expected: 'timed out' },
    { name: 'a cancelled run', status: 'CANCELLED', reason: null, last: attempt({ status: 'CANCELLED', error: 'cancelled' }), expected: 'cancelled' },
    { name: 'a succeeded attempt explains nothing', status: 'FAILED', reason: null, last: attempt({ status: 'SUCCEEDED', exitCode: 0 }), expected: null },
    { name: 'a run queued again by retry is not explained by its old error', status: 'QUEUED', reason: null, last: attempt({ error: 'exited with code 1' }), expected: null },
    { name: 'no attempt', status: 'FAILED', reason: null, last: null, expected: null },
    {
      name: 'a run dev skipped for a missing secret names the variable',
      status: 'SKIPPED',
      reason: 'MISSING_SECRET',
      last: attempt({ error: 'environment variable K is not set on this runner: set K to enable this job' }),
      expected: 'MISSING_SECRET: environment variable K is not set on this runner: set K to enable this job',
    },
  ])('$name', ({ status, reason, last, expected }) => {
    expect(describeRunReason(status, reason, last)).toBe(expected);
  });
});

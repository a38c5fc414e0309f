/**
 * Leases (SPEC §7): a running attempt is owned by one runner until `expiresAt`; heartbeats move it
 * forward. Once expired, the reconciler decides by `onStall`. A stalled attempt counts as an attempt.
 */
import type { OnStall, RetryDefinition } from '../../compile/definition.js';
import { nextAttemptDecision, type AttemptDecision } from './backoff.js';

export type StallDecision = AttemptDecision | { status: 'MANUAL_REQUIRED' };

export function leaseExpiresAt(nowMs: number, leaseMs: number): number {
  return nowMs + leaseMs;
}

/** A lease is valid strictly before its expiry instant and expired from that instant on. */
export function isLeaseExpired(expiresAtMs: number, nowMs: number): boolean {
  return nowMs >= expiresAtMs;
}

/**
 * What an expired lease leads to: `retry` → another attempt after the backoff, or FAILED when no
 * attempt is left; `fail` → FAILED; `manual` → MANUAL_REQUIRED (an operator approves a re-run or
 * cancels: the job may have had side effects we cannot see).
 */
export function stallDecision(run: { attempts: number; maxAttempts: number }, onStall: OnStall, retry: RetryDefinition, nowMs: number): StallDecision {
  if (onStall === 'manual') return { status: 'MANUAL_REQUIRED' };
  if (onStall === 'fail') return { status: 'FAILED' };
  return nextAttemptDecision(run, retry, nowMs);
}

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

/**
 * How long after a lease's expiry the job of its attempt may still be dying, beyond the kill
 * grace: a timer or the reaper's read of its pipe running late on a loaded host, SIGKILL being
 * delivered, and clock skew between replicas on different hosts (each reads its own clock; on
 * one host they share it). See stallResolvableAtMs.
 */
export const STOP_MARGIN_MS = 1_000;

/** `cronform runner --kill-grace` by default. */
export const DEFAULT_KILL_GRACE_MS = 5_000;

/**
 * The instant at which a runner that cannot renew the lease stops the job (SIGTERM): `killGraceMs`
 * before the lease expires, so that SIGKILL lands inside the lease, but never before two
 * heartbeats (`leaseMs / 3` apart) have been missed, i.e. not before `expiry - leaseMs / 4`. When
 * the kill grace is longer than that, SIGKILL lands up to `killGraceMs - leaseMs / 4` after expiry;
 * stallResolvableAtMs counts the whole kill grace after expiry, so the retry waits for it either way.
 */
export function fenceDeadlineMs(leaseExpiresAtMs: number, leaseMs: number, killGraceMs: number): number {
  return leaseExpiresAtMs - Math.min(killGraceMs, leaseMs / 4);
}

/**
 * The earliest instant at which an expired lease may be declared stalled (and the run retried).
 * Until then the attempt's processes may still be alive, wherever its runner is:
 * - a runner cut off from the database stopped the job at its fence (above), SIGKILL at most
 *   `killGraceMs` after expiry;
 * - a runner killed with SIGKILL (its job process groups survive it) was killed before its lease
 *   expired; its reaper (bin/job-reaper.js) reads the end of the runner's pipe at once and sends
 *   SIGTERM, then SIGKILL `killGraceMs` later: again at most `killGraceMs` after expiry.
 * `killGraceMs` is the lease owner's (recorded with its runner row), and STOP_MARGIN_MS covers the
 * delays listed there. A runner whose event loop is frozen for longer than the margin while it
 * holds a lease is the one case left (docs/reliability.md, "Known limits").
 */
export function stallResolvableAtMs(leaseExpiresAtMs: number, ownerKillGraceMs: number): number {
  return leaseExpiresAtMs + ownerKillGraceMs + STOP_MARGIN_MS;
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

/**
 * Which of several runs put back in line may start now (SPEC §7 overlap), oldest slot first: with
 * `ALLOW` all of them; otherwise the first only when the schedule has no active run, and the rest
 * wait as PENDING, promoted one at a time by the runner when the schedule's active run ends.
 */
import type { Overlap } from '../../compile/definition.js';

export function requeueStatuses(count: number, overlap: Overlap, hasActiveRun: boolean): Array<'QUEUED' | 'PENDING'> {
  return Array.from({ length: count }, (_, position) => (overlap === 'ALLOW' || (!hasActiveRun && position === 0) ? 'QUEUED' : 'PENDING'));
}

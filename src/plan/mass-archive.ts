/**
 * Safety guards (SPEC §5): finding no manifests at all, or archiving more than 10 schedules or
 * 20% of them at once, is almost always a wrong directory or a broken checkout, not an intent.
 */
import type { Diagnostic } from '../shared/diagnostics.js';
import type { StoredScheduleSummary } from '../compile/stored-schedule.js';

export const MASS_ARCHIVE_MAX_COUNT = 10;
export const MASS_ARCHIVE_MAX_SHARE = 0.2;

export const GuardCodes = {
  NO_MANIFESTS: 'CF204',
  MASS_ARCHIVE: 'CF205',
} as const;

export function checkMassArchive(archiveCount: number, current: StoredScheduleSummary[], scheduleDocuments: number, allowMassArchive: boolean): Diagnostic[] {
  if (allowMassArchive) return [];
  const active = current.filter((s) => s.managed && s.status === 'ACTIVE').length;
  const hint = 'check --dir and the checkout; pass --allow-mass-archive if this is really intended';
  if (scheduleDocuments === 0 && active > 0) {
    return [{ severity: 'error', code: GuardCodes.NO_MANIFESTS, message: `no schedule manifests found: applying this would archive all ${active} schedules`, hint }];
  }
  if (archiveCount > MASS_ARCHIVE_MAX_COUNT || (archiveCount > 1 && archiveCount > active * MASS_ARCHIVE_MAX_SHARE)) {
    return [{ severity: 'error', code: GuardCodes.MASS_ARCHIVE, message: `refusing to archive ${archiveCount} of ${active} schedules at once (more than ${MASS_ARCHIVE_MAX_COUNT} or ${MASS_ARCHIVE_MAX_SHARE * 100}%)`, hint }];
  }
  return [];
}

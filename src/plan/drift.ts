/**
 * Drift: the database differs from what the last apply wrote — a pause made from the CLI, or a
 * definition edited outside cronform. Reported in its own section, never silently overwritten.
 */
import type { StoredScheduleSummary } from '../compile/stored-schedule.js';
import type { DriftItem } from './plan-types.js';

export const DriftCodes = {
  PAUSED: 'CF601',
  MODIFIED: 'CF602',
} as const;

export function findDrift(current: StoredScheduleSummary[]): DriftItem[] {
  const items: DriftItem[] = [];
  for (const stored of current) {
    if (stored.status !== 'ACTIVE') continue;
    if (stored.paused) {
      const until = stored.paused.until ? ` until ${stored.paused.until}` : '';
      const message = `paused${stored.paused.by ? ` by ${stored.paused.by}` : ''} at ${stored.paused.at}${until}${stored.paused.reason ? `: ${stored.paused.reason}` : ''}`;
      items.push({ name: stored.name, scheduleId: stored.id, kind: 'paused', message, finding: { code: DriftCodes.PAUSED, level: 'MEDIUM', message: `${stored.name} is ${message}; apply keeps it paused`, hint: `cronform resume ${stored.name} when the incident is over` } });
    }
    if (stored.versionDigest !== null && stored.versionDigest !== stored.digest) {
      const message = `definition differs from version ${stored.version} recorded by apply`;
      items.push({ name: stored.name, scheduleId: stored.id, kind: 'modified', message, finding: { code: DriftCodes.MODIFIED, level: 'HIGH', message: `${stored.name}: ${message} (changed outside cronform)`, hint: 'apply the manifests to restore the reviewed definition, or export the database state into the manifest' } });
    }
  }
  return items;
}

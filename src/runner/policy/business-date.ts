/**
 * `businessDate` (SPEC §3.1, §4): the local calendar date of the slot in the schedule's zone, shifted
 * by `offsetDays`. Computed once when the run row is created and never recomputed on retry, so a
 * job re-run days later still processes the date its slot stood for.
 */
import { civilFromDays, formatCivilDate, MS_PER_DAY } from '../../time/civil.js';
import { getZoneRules } from '../../time/zone.js';

/** YYYY-MM-DD. The local date is taken from the real offset at the slot instant, so DST days are exact. */
export function businessDateFor(slotMs: number, timezone: string, offsetDays: number): string {
  const localDay = Math.floor(getZoneRules(timezone).wallFromInstant(slotMs) / MS_PER_DAY);
  return formatCivilDate(civilFromDays(localDay + offsetDays));
}

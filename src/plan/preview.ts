/**
 * `cronform preview`: next slots of one compiled schedule in local time and UTC, with DST notes,
 * a human description and runs per day. Pure: the caller passes `fromMs`.
 */
import { DateTime } from 'luxon';
import type { CompiledSchedule } from '../compile/definition.js';
import { formatDurationMs } from '../compile/duration.js';
import { parseCron } from '../time/cron-parse.js';
import { calendarForDefinition } from '../time/timing-cache.js';
import { describeCron } from '../time/describe.js';
import { findDstExposure, formatSecondOfDay, type DstExposure } from '../time/dst-exposure.js';
import { countRunsPerDay, type RunsPerDay } from '../time/runs-per-day.js';
import { createSlotCalendar, nextSlots, type SlotCalendar } from '../time/slots.js';
import { MS_PER_DAY, MS_PER_SECOND, SECONDS_PER_DAY } from '../time/civil.js';

export interface PreviewSlot {
  utc: string;
  local: string;
  note?: string;
}

export interface Preview {
  name: string;
  /** Null: a dependent without slots of its own (`description` says what it follows). */
  cron: string | null;
  timezone: string;
  description: string;
  intervalLike: boolean;
  enabled: boolean;
  minInterval: string;
  runsPerDay: RunsPerDay;
  slots: PreviewSlot[];
  dst: DstExposure[];
}

export function calendarFor(schedule: CompiledSchedule): SlotCalendar {
  const { definition } = schedule;
  // A dependent without a cron has no slots: the timing cache answers it with a calendar of none.
  if (definition.cron === null) return calendarForDefinition(definition);
  const parsed = parseCron(definition.cron);
  if (!parsed.ok) throw new Error(`compiled schedule ${definition.name} has an invalid cron`);
  return createSlotCalendar({ cron: parsed.cron, timezone: definition.timezone, dst: definition.dst, dayMatch: definition.dayMatch ?? undefined });
}

function noteFor(calendar: SlotCalendar, slotMs: number): string | undefined {
  const wall = calendar.zone.wallFromInstant(slotMs);
  const day = Math.floor(wall / MS_PER_DAY);
  if (calendar.isRegularDay(day)) return undefined;
  const secondOfDay = Math.round((wall - day * MS_PER_DAY) / MS_PER_SECOND);
  const instants = calendar.zone.instantsForWall(wall);
  if (instants.length === 2) return instants[0] === slotMs ? 'DST: repeated hour, first pass' : 'DST: repeated hour, second pass';
  if (!calendar.times.includes(secondOfDay)) {
    const lengthSeconds = (calendar.zone.offsetAt(slotMs) - calendar.zone.offsetAt(slotMs - MS_PER_DAY)) / MS_PER_SECOND;
    // A gap at 23:00 (America/Nuuk) shifts a 23:30 slot past midnight, onto the next local day.
    const fromSecond = secondOfDay - lengthSeconds;
    const from = fromSecond < 0 ? `${formatSecondOfDay(fromSecond + SECONDS_PER_DAY)} the day before` : formatSecondOfDay(fromSecond);
    return `DST: shifted from ${from} (skipped hour)`;
  }
  return isTransitionDay(calendar, day) ? 'DST: transition day' : undefined;
}

/**
 * Whether local day `dayNumber` holds a skipped or repeated wall time. isRegularDay is also false
 * for the days next to a transition (their slots may interleave with it), which are ordinary days
 * for a reader.
 */
function isTransitionDay(calendar: SlotCalendar, dayNumber: number): boolean {
  const dayStartWall = dayNumber * MS_PER_DAY;
  // Wall and UTC differ by at most a day, so two days either side hold every candidate.
  for (const transition of calendar.zone.transitionsBetween(dayStartWall - 2 * MS_PER_DAY, dayStartWall + 3 * MS_PER_DAY)) {
    const before = transition.atMs + transition.offsetBeforeMs;
    const after = transition.atMs + transition.offsetAfterMs;
    if (Math.min(before, after) < dayStartWall + MS_PER_DAY && Math.max(before, after) > dayStartWall) return true;
  }
  return false;
}

export function buildPreview(schedule: CompiledSchedule, fromMs: number, count: number): Preview {
  const { definition } = schedule;
  const calendar = calendarFor(schedule);
  const slots = nextSlots(calendar, fromMs, count).map((ms) => {
    const note = noteFor(calendar, ms);
    return {
      utc: new Date(ms).toISOString(),
      local: DateTime.fromMillis(ms, { zone: definition.timezone }).toFormat('yyyy-MM-dd ccc HH:mm:ss ZZ'),
      ...(note ? { note } : {}),
    };
  });
  return {
    name: definition.name,
    cron: definition.cron,
    timezone: definition.timezone,
    description: definition.cron === null ? `after ${(definition.after ?? []).map((a) => a.schedule).join(', ')} succeeds` : describeCron(definition.cron, definition.timezone),
    intervalLike: schedule.intervalLike,
    enabled: definition.enabled,
    minInterval: formatDurationMs(schedule.minIntervalMs),
    runsPerDay: countRunsPerDay(calendar, fromMs),
    slots,
    dst: findDstExposure(calendar, fromMs),
  };
}

function formatAverage(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

export function renderPreview(preview: Preview): string {
  const lines = [
    `${preview.name}  "${preview.cron}"  ${preview.timezone}${preview.enabled ? '' : '  (disabled)'}`,
    preview.description,
    `runs/day: peak ${preview.runsPerDay.peak} (${preview.runsPerDay.peakDate}), average ${formatAverage(preview.runsPerDay.average)} over the next ${preview.runsPerDay.days} days · shortest interval ${preview.minInterval}${preview.intervalLike ? ' · interval-like' : ''}`,
    '',
    `next ${preview.slots.length} slots:`,
  ];
  const width = Math.max(...preview.slots.map((s) => s.local.length), 5);
  preview.slots.forEach((slot, index) => {
    lines.push(`  ${String(index + 1).padStart(3)}  ${slot.local.padEnd(width)}  ${slot.utc}${slot.note ? `  ${slot.note}` : ''}`);
  });
  lines.push('');
  if (preview.dst.length === 0) {
    lines.push('DST: no transition in the next 12 months touches this schedule');
  } else {
    lines.push('DST in the next 12 months:');
    for (const exposure of preview.dst) {
      lines.push(`  ${exposure.localDate} (${exposure.transitionAt}): ${exposure.description}`);
      for (const example of exposure.examples) lines.push(`      ${example.local} local → ${example.utc.length > 0 ? example.utc.join(', ') : 'no run'}`);
    }
  }
  return lines.join('\n');
}

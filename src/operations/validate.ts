/** Use case: load manifests from disk and compile them (no database). */
import { compileSources, type CompileResult } from '../compile/compile-sources.js';
import { loadManifestSources } from '../manifest/load.js';
import { calendarForDefinition } from '../time/timing-cache.js';
import { sortDiagnostics } from '../shared/diagnostics.js';
import { countRunsPerDay, type RunsPerDay } from '../time/runs-per-day.js';
import type { SlotCalendar } from '../time/slots.js';

export interface RunsPerDaySummary {
  /** Sum of the schedules' average runs per day over the next 35 local days. */
  averageTotal: number;
  /** Sum of each schedule's busiest day (an upper bound for any one day). */
  peakTotal: number;
  schedules: Array<{ name: string; peak: number; average: number }>;
}

export interface ValidateResult extends CompileResult {
  fileCount: number;
  runsPerDay?: RunsPerDaySummary;
}

/** Exact runs per day of every enabled schedule (analytic: a per-second cron costs what @daily does). */
export function summarizeRunsPerDay(compiled: CompileResult, nowMs: number): RunsPerDaySummary {
  // Schedules with the same timing share a calendar (calendarForDefinition), and its count.
  const countedByCalendar = new Map<SlotCalendar, RunsPerDay>();
  const countOnce = (calendar: SlotCalendar) => {
    let counted = countedByCalendar.get(calendar);
    if (!counted) {
      counted = countRunsPerDay(calendar, nowMs);
      countedByCalendar.set(calendar, counted);
    }
    return counted;
  };
  const schedules = compiled.schedules
    .filter((s) => s.definition.enabled)
    .map((s) => {
      const counted = countOnce(calendarForDefinition(s.definition));
      return { name: s.definition.name, peak: counted.peak, average: Math.round(counted.average * 100) / 100 };
    });
  const round = (n: number) => Math.round(n * 100) / 100;
  return { averageTotal: round(schedules.reduce((sum, s) => sum + s.average, 0)), peakTotal: schedules.reduce((sum, s) => sum + s.peak, 0), schedules };
}

export async function validateManifests(paths: string[], options: { cwd: string; nowMs: number; withRunsPerDay?: boolean }): Promise<ValidateResult> {
  const loaded = await loadManifestSources(paths, { cwd: options.cwd });
  const compiled = compileSources(loaded.sources, options.nowMs);
  const result: ValidateResult = { ...compiled, diagnostics: sortDiagnostics([...loaded.diagnostics, ...compiled.diagnostics]), fileCount: loaded.fileCount };
  if (options.withRunsPerDay) result.runsPerDay = summarizeRunsPerDay(compiled, options.nowMs);
  return result;
}

/**
 * Imported manifests go through the real compiler before anything is written: a crontab line that
 * cron accepted but cronform does not (an expression that never fires, `0 0 31 2 *`) is reported at
 * its crontab line, and only schedules that compile are kept.
 */
import { compileSources } from '../compile/compile-sources.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import type { ImportedSchedule } from './convert-crontab.js';
import { ImportCodes } from './import-codes.js';
import { renderImportedManifest } from './render-imported-yaml.js';

export interface VerifiedImport {
  schedules: ImportedSchedule[];
  diagnostics: Diagnostic[];
}

export function verifyImportedSchedules(schedules: readonly ImportedSchedule[], options: { file: string; nowMs: number }): VerifiedImport {
  const kept: ImportedSchedule[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const schedule of schedules) {
    const source = { file: `${schedule.manifest.metadata.name}.yaml`, text: renderImportedManifest(schedule) };
    const problems = compileSources([source], options.nowMs).diagnostics;
    for (const problem of problems) {
      diagnostics.push({
        severity: problem.severity,
        code: problem.severity === 'error' ? ImportCodes.INVALID_MANIFEST : problem.code,
        message: `${problem.code} ${problem.message}${problem.path ? ` (${problem.path})` : ''}`,
        ...(problem.hint ? { hint: problem.hint } : {}),
        file: options.file,
        line: schedule.line,
        column: 1,
      });
    }
    if (!problems.some((problem) => problem.severity === 'error')) kept.push(schedule);
  }
  return { schedules: kept, diagnostics };
}

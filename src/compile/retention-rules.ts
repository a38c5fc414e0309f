/**
 * The rule on `retention` (Policy or Schedule) that JSON Schema cannot express: `runs` at least
 * MIN_RETENTION_MS (CF037). `status` and the dashboard compute the success rate and start delays
 * of the last 7 days from the runs themselves; a shorter retention would delete runs they count and
 * change the figures under the reader (README "Retention"). Pure.
 */
import type { Retention } from '../manifest/schema-types.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import { DiagnosticCodes } from '../shared/diagnostic-codes.js';
import { MIN_RETENTION_MS } from './definition.js';
import { formatDurationMs, parseDurationMs } from './duration.js';

export function checkRetention(
  doc: { file: string; locate(path: ReadonlyArray<string | number>, target?: 'key' | 'value'): { line: number; column: number } },
  retention: Retention | undefined,
): Diagnostic[] {
  if (retention?.runs === undefined || parseDurationMs(retention.runs) >= MIN_RETENTION_MS) return [];
  const path = ['spec', 'retention', 'runs'];
  return [
    {
      severity: 'error',
      code: DiagnosticCodes.RETENTION_BELOW_MINIMUM,
      message: `retention.runs ${retention.runs} is below the minimum of ${formatDurationMs(MIN_RETENTION_MS)}: status and the dashboard read the last 7 days of runs`,
      hint: `keep runs for at least ${formatDurationMs(MIN_RETENTION_MS)}; lower retention.keepLast to bound a frequent schedule's history instead`,
      file: doc.file,
      ...doc.locate(path, 'value'),
      path: path.join('.'),
    },
  ];
}

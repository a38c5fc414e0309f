/** `retention` of a Policy or a Schedule (schema-valid): the fields written, durations in ms. */
import type { Retention } from '../manifest/schema-types.js';
import type { RetentionOverride } from './definition.js';
import { parseDurationMs } from './duration.js';

export function compileRetention(retention: Retention): RetentionOverride {
  return {
    ...(retention.runs === undefined ? {} : { runsMs: parseDurationMs(retention.runs) }),
    ...(retention.keepLast === undefined ? {} : { keepLast: retention.keepLast }),
  };
}

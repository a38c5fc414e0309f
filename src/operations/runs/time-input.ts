/**
 * Instants typed by operators: ISO-8601 with an explicit zone (`2026-03-01T09:00:00Z`,
 * `…+09:00`) or a bare date (UTC midnight), never the server's zone; or, where allowed, a
 * duration from now (`2h`, `7d`).
 */
import { parseDurationMs } from '../../compile/duration.js';
import { RunOperationError } from './run-operation-error.js';

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/i;
const DURATION = /^\d+(ms|s|m|h|d)$/;

export function parseInstant(text: string, flag: string): number {
  const ms = ISO_INSTANT.test(text) ? Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new RunOperationError(`${flag} must be an ISO-8601 instant with a zone, e.g. 2026-03-01T09:00:00Z or 2026-03-01T18:00:00+09:00 (got ${JSON.stringify(text)})`);
  }
  return ms;
}

/** A duration counts from `nowMs`: forward for a deadline (`until`), backward for a window (`since`). */
export function parseInstantOrDuration(text: string, flag: string, nowMs: number, direction: 'ahead' | 'ago'): number {
  if (DURATION.test(text)) {
    const durationMs = parseDurationMs(text);
    return direction === 'ahead' ? nowMs + durationMs : nowMs - durationMs;
  }
  try {
    return parseInstant(text, flag);
  } catch {
    throw new RunOperationError(`${flag} must be an ISO-8601 instant with a zone (2026-03-01T09:00:00Z) or a duration (30m, 2h, 7d) (got ${JSON.stringify(text)})`);
  }
}

/** A duration typed as a flag value (`90s`, `5m`, `24h`): a positive whole number and a unit. */
export function parseDurationFlag(text: string, flag: string): number {
  const ms = DURATION.test(text) ? parseDurationMs(text) : 0;
  if (ms <= 0) throw new RunOperationError(`${flag} must be a positive duration such as 90s, 5m, 24h or 7d (got ${JSON.stringify(text)})`);
  return ms;
}

/**
 * fast-check settings shared by the hostile-input suites: a fixed seed, so a CI failure reproduces
 * locally from its log, unless CRONFORM_FC_SEED asks for another exploration. On failure fast-check
 * prints the seed and path to replay.
 */
import type { Parameters } from 'fast-check';

const DEFAULT_SEED = 20_261_129;

export const FC_SEED = process.env.CRONFORM_FC_SEED ? Number(process.env.CRONFORM_FC_SEED) : DEFAULT_SEED;

export function runOptions<T>(numRuns: number, extra: Parameters<T> = {}): Parameters<T> {
  return { seed: FC_SEED, numRuns, ...extra };
}

/** 2026-11-29T12:00:00Z, the instant the plan/apply suites use. */
export const HOSTILE_NOW_MS = Date.parse('2026-11-29T12:00:00Z');

/** "Never hangs": generous, so only a real hang or blow-up fails it, even on a busy 2-core machine. */
export const MAX_COMPILE_MS = 2_000;

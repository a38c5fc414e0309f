
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

export const at = (iso: string): number => Date.parse(iso);
export const iso = (ms: number): string => new Date(ms).toISOString();

export { makeDefinition } from '../../support/definition.js';

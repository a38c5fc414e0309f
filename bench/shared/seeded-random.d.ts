/** Declarations for the TypeScript tests that reuse the benchmarks' seeded generator (seeded-random.js). */
export interface SeededRandom {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  between(min: number, max: number): number;
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T;
}
export function createRandom(seed: number): SeededRandom;

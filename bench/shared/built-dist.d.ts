/** Declarations for the TypeScript tests that reuse the benchmarks' check (built-dist.js). */
export function isDistStale(repoRoot: string, entry: string): boolean;

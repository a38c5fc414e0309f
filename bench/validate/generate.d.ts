/** Declarations for the TypeScript tests that reuse the benchmark's manifest generator (generate.js). */
export function generateManifests(
  directory: string,
  options?: { scheduleCount?: number; seed?: number },
): { schedules: number; files: number; bytes: number };

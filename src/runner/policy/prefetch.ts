/**
 * How far ahead of its free slots a worker claims (its local queue, see worker.ts): as many runs
 * as it will start within LOCAL_WAIT_MS at the job durations it has been seeing, so that a
 * claimed run never waits long while another replica has free slots. Pure: the worker feeds it
 * each finished job's duration.
 */

/** How long a run claimed ahead should wait in the local queue, at most, by recent job durations. */
export const LOCAL_WAIT_MS = 100;
/** Weight of the newest job duration in the moving average. */
const DURATION_WEIGHT = 0.2;
/** Below this a job counts as taking this long (0 ms jobs would make the target infinite). */
const MIN_DURATION_MS = 0.01;

/** The moving average of job durations after one more job; undefined before the first. */
export function nextAverageDurationMs(averageMs: number | undefined, durationMs: number): number {
  return averageMs === undefined ? durationMs : averageMs + DURATION_WEIGHT * (durationMs - averageMs);
}

/** Runs the local queue may hold: none until a job has ended, never more than `limit`. */
export function prefetchTarget(input: { limit: number; concurrency: number; averageDurationMs: number | undefined }): number {
  if (input.limit === 0 || input.averageDurationMs === undefined) return 0;
  return Math.min(input.limit, Math.floor((input.concurrency * LOCAL_WAIT_MS) / Math.max(input.averageDurationMs, MIN_DURATION_MS)));
}

import { systemClock } from '../../shared/clock.js';

/**
 * Calls `onFire` once after `delayMs` of real time (delays past setTimeout's limit are re-armed
 * in steps); the returned function cancels it (idempotent). The executors' timers (a job's
 * timeout, the kill grace between SIGTERM and SIGKILL, the output drain) stay on real time
 * whatever clock the runner was given: they bound a real process or socket, which keeps running
 * while a test's manual clock stands still, so a manual clock would make them never fire.
 */
export function startTimer(delayMs: number, onFire: () => void): () => void {
  return systemClock.setTimer(delayMs, onFire);
}

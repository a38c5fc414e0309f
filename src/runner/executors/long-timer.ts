/** setTimeout fires after 1 ms for delays above 2^31-1 ms (~24.8 days); longer timeouts are re-armed in steps. */
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/** Calls `onFire` once after `delayMs`; the returned function cancels it (idempotent). */
export function startTimer(delayMs: number, onFire: () => void): () => void {
  let handle: NodeJS.Timeout | undefined;
  const arm = (remainingMs: number): void => {
    const stepMs = Math.min(remainingMs, MAX_TIMER_DELAY_MS);
    handle = setTimeout(() => (remainingMs > stepMs ? arm(remainingMs - stepMs) : onFire()), stepMs);
  };
  arm(Math.max(0, delayMs));
  return () => clearTimeout(handle);
}

/**
 * Deterministic start jitter (SPEC §3.1 `jitter`): a stable function of (schedule, slot), so every
 * runner replica, every retry of the scheduler transaction and every re-plan of the same slot agree
 * on the same start, and it never reaches the next slot (two slots would otherwise swap order).
 */

/** 32-bit FNV-1a, finished with murmur3's fmix32 so that neighbouring slots spread over all bits. */
function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

const TWO_POW_32 = 4_294_967_296;

/**
 * Milliseconds to add to `slotMs`: in [0, jitterMs), and at most `nextSlotMs - slotMs - 1` so the
 * start stays strictly before the next slot. `nextSlotMs` null: the schedule has no next slot.
 */
export function jitterFor(name: string, slotMs: number, jitterMs: number, nextSlotMs: number | null): number {
  if (!(jitterMs > 0)) return 0;
  const spreadMs = Math.floor((hash32(`${name}:${new Date(slotMs).toISOString()}`) / TWO_POW_32) * jitterMs);
  const beforeNextMs = nextSlotMs === null ? Number.POSITIVE_INFINITY : nextSlotMs - slotMs - 1;
  return Math.max(0, Math.min(spreadMs, Math.ceil(jitterMs) - 1, beforeNextMs));
}

/**
 * mulberry32: small, fast and good enough to vary benchmark fixtures reproducibly from a seed.
 * Every generator in bench/ draws from this one, so a seed means the same corpus everywhere.
 */
export function createRandom(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min, max) => min + Math.floor(next() * (max - min + 1));
  const pick = (items) => items[Math.floor(next() * items.length)];
  const chance = (p) => next() < p;
  const between = (min, max) => min + next() * (max - min);
  /** items: [[value, weight], …] */
  const weighted = (items) => {
    const total = items.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = next() * total;
    for (const [value, weight] of items) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return items[items.length - 1][0];
  };
  return { next, int, pick, chance, between, weighted };
}

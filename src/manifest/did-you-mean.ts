/**
 * "did you mean …?" suggestions for misspelled field names and enum values.
 *
 * Distance is optimal string alignment (Levenshtein plus adjacent transpositions, so `tmiezone`
 * is one edit from `timezone`), compared case-insensitively so `skip_new` finds `SKIP_NEW`.
 */

/** The closest candidate within the edit budget, or undefined. Ties go to the earlier candidate. */
export function suggestClosest(word: string, candidates: readonly string[]): string | undefined {
  const lowered = word.toLowerCase();
  // Short words have few letters to spare: two edits would turn `env` into almost anything.
  const budget = lowered.length <= 3 ? 1 : 2;
  let best: string | undefined;
  let bestDistance = budget + 1;
  for (const candidate of candidates) {
    if (candidate === word) continue;
    const distance = measureEditDistance(lowered, candidate.toLowerCase(), bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * Optimal string alignment distance, giving up (returning `limit`) once every alignment of the
 * current row already costs `limit` or more: candidates are short but checked for every typo.
 */
export function measureEditDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let previousPrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMinimum = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (previousPrevious[j - 2] ?? 0) + 1);
      }
      current.push(value);
      rowMinimum = Math.min(rowMinimum, value);
    }
    if (rowMinimum >= limit) return limit;
    previousPrevious = previous;
    previous = current;
  }
  return Math.min(previous[b.length] ?? 0, limit);
}

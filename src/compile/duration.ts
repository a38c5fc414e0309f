/** Durations in manifests are `<n>ms|s|m|h|d` strings (the schema checks the shape). */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDurationMs(text: string): number {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text);
  if (!match) throw new Error(`invalid duration ${JSON.stringify(text)}`);
  return Number(match[1]) * UNIT_MS[match[2]!]!;
}

/** The shortest exact rendering: 90000 → "90s", 3600000 → "1h". */
export function formatDurationMs(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    const size = UNIT_MS[unit]!;
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

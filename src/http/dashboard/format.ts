/** Figures as the dashboard prints them: short, with units, in UTC. */

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
  return `${Math.floor(ms / 3_600_000)} h ${Math.round((ms % 3_600_000) / 60_000)} min`;
}

/** `2026-11-29 12:00:05 UTC`; the dashboard shows one zone, the database's. */
export function formatInstant(iso: string | Date | null): string {
  if (iso === null) return '—';
  const text = typeof iso === 'string' ? iso : iso.toISOString();
  return `${text.slice(0, 10)} ${text.slice(11, 19)} UTC`;
}

/** "in 5 min", "3 h ago". */
export function formatRelative(targetMs: number, nowMs: number): string {
  const deltaMs = targetMs - nowMs;
  const text = formatDuration(Math.abs(deltaMs)).replace(/ \d+ (s|min)$/, '');
  return deltaMs >= 0 ? `in ${text}` : `${text} ago`;
}

export function formatPercent(ratio: number | null): string {
  return ratio === null ? '—' : `${(ratio * 100).toFixed(ratio === 1 ? 0 : 1)} %`;
}

/** 850ms, 42s, 3m05s, 2h10m, 3d04h: for reading, not for parsing back. */
export function formatElapsed(ms: number | null): string {
  if (ms === null) return '-';
  if (ms < 1000) return `${ms}ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}m`;
  return `${Math.floor(seconds / 86_400)}d${String(Math.floor((seconds % 86_400) / 3600)).padStart(2, '0')}h`;
}

/**
 * Aligned text columns for `runs` and `status`. Its own module so that `status` does not load the
 * `runs` command (and what that imports) to print its table: start-up is a target (bench/cli-start).
 */
export function renderTable(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  return [header, ...rows].map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ').trimEnd());
}

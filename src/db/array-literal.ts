/**
 * PostgreSQL array literals (`{…}`), built here for the runner's batch statements, which send one
 * array per column for hundreds of runs at a time. The driver would otherwise quote and escape
 * every element with two regular expressions, a visible share of a busy runner's CPU. Each
 * function returns null when every element is null: `unnest` pads a NULL array with nulls, so
 * such a column costs nothing to send.
 */

/** Integers (ids, attempts, codes). */
export function integerArray(values: ReadonlyArray<number | null>): string | null {
  let allNull = true;
  let text = '{';
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    if (i > 0) text += ',';
    if (value === null || value === undefined) text += 'NULL';
    else {
      if (!Number.isSafeInteger(value)) throw new TypeError(`not an integer: ${value}`);
      text += value;
      allNull = false;
    }
  }
  return allNull ? null : `${text}}`;
}

/** Any text: every element quoted, with `\` and `"` escaped. */
export function textArray(values: ReadonlyArray<string | null>): string | null {
  let allNull = true;
  let text = '{';
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    if (i > 0) text += ',';
    if (value === null || value === undefined) text += 'NULL';
    else {
      text += `"${value.includes('\\') || value.includes('"') ? value.replace(/[\\"]/g, '\\$&') : value}"`;
      allNull = false;
    }
  }
  return allNull ? null : `${text}}`;
}

/** Instants, as ISO 8601 in UTC (no character there needs quoting). */
export function instantArray(values: ReadonlyArray<Date | number | null>): string | null {
  let allNull = true;
  let text = '{';
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    if (i > 0) text += ',';
    if (value === null || value === undefined) text += 'NULL';
    else {
      text += (typeof value === 'number' ? new Date(value) : value).toISOString();
      allNull = false;
    }
  }
  return allNull ? null : `${text}}`;
}

/**
 * PostgreSQL array literals (`{…}`), built here for the runner's batch statements, which send one
 * array per column for hundreds of runs at a time. The driver would otherwise quote and escape
 * every element with two regular expressions, a visible share of a busy runner's CPU. Each
 * function returns null when every element is null: `unnest` pads a NULL array with nulls, so
 * such a column costs nothing to send.
 */

/** `{a,b,NULL}` with each non-null element formatted; null when every element is null. */
function arrayLiteral<T>(values: ReadonlyArray<T | null>, format: (value: T) => string): string | null {
  let allNull = true;
  let text = '{';
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    if (i > 0) text += ',';
    if (value === null || value === undefined) text += 'NULL';
    else {
      text += format(value);
      allNull = false;
    }
  }
  return allNull ? null : `${text}}`;
}

/** Integers (ids, attempts, codes). */
export function integerArray(values: ReadonlyArray<number | null>): string | null {
  return arrayLiteral(values, (value) => {
    if (!Number.isSafeInteger(value)) throw new TypeError(`not an integer: ${value}`);
    return String(value);
  });
}

/** Any text: every element quoted, with `\` and `"` escaped. */
export function textArray(values: ReadonlyArray<string | null>): string | null {
  return arrayLiteral(values, (value) => `"${value.includes('\\') || value.includes('"') ? value.replace(/[\\"]/g, '\\$&') : value}"`);
}

/**
 * Instants, as ISO 8601 in UTC (no character there needs quoting). A batch repeats instants (one
 * claim instant for all its runs, outcomes ending in the same millisecond): each is formatted once.
 */
export function instantArray(values: ReadonlyArray<Date | number | null>): string | null {
  let lastMs = Number.NaN;
  let lastText = '';
  return arrayLiteral(values, (value) => {
    const ms = typeof value === 'number' ? value : value.getTime();
    if (ms !== lastMs) {
      lastText = new Date(ms).toISOString();
      lastMs = ms;
    }
    return lastText;
  });
}

/**
 * Column values as the two engines return them: node-postgres parses timestamps into Dates and
 * PGlite may hand back text, so the readers of `db/` convert through these.
 */
export const toDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));
export const toOptionalDate = (value: Date | string | null): Date | null => (value === null ? null : toDate(value));
/** A `date` column as YYYY-MM-DD. */
export const toDateOnly = (value: string | Date | null): string | null => (value === null ? null : value instanceof Date ? value.toISOString().slice(0, 10) : value.slice(0, 10));
export const toOptionalNumber = (value: number | string | null): number | null => (value === null ? null : Number(value));

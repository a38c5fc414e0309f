import { Flags } from '@oclif/core';

/**
 * Shared by every command that touches the database. The embedded database's directory is a flag
 * and an environment variable on all of them (and on `dev`, which owns it): a `dev --data-dir X`
 * is found by the others given the same `--data-dir X`, or once for the shell with
 * `export CRONFORM_DATA_DIR=X` (README, "Sharing the embedded database").
 */
export const databaseFlags = {
  'database-url': Flags.string({ description: 'PostgreSQL URL (default: $DATABASE_URL, else embedded PGlite in --data-dir)', env: 'DATABASE_URL' }),
  'data-dir': Flags.string({ description: 'embedded database directory, when there is no PostgreSQL URL (default: .cronform/db)', env: 'CRONFORM_DATA_DIR' }),
};

import { Flags } from '@oclif/core';

/** Shared by every command that touches the database. */
export const databaseFlags = {
  'database-url': Flags.string({ description: 'PostgreSQL URL (default: $DATABASE_URL, else embedded PGlite in .cronform/db)', env: 'DATABASE_URL' }),
};

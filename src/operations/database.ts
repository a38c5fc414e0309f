/**
 * Which database a command talks to: --database-url, then DATABASE_URL, else the embedded
 * PGlite in `.cronform/db` under the working directory.
 */
import path from 'node:path';
import { DEFAULT_DATA_DIR, openDatabase, type Database } from '../db/client.js';
import { ensureSchema } from '../db/migrate.js';

export interface DatabaseChoice {
  databaseUrl?: string | undefined;
  cwd: string;
  env?: NodeJS.ProcessEnv;
}

export async function openChosenDatabase(choice: DatabaseChoice, options: { migrate?: boolean } = {}): Promise<Database> {
  const url = choice.databaseUrl ?? (choice.env ?? process.env).DATABASE_URL;
  const database = await openDatabase(url ? { url } : { dataDir: path.join(choice.cwd, DEFAULT_DATA_DIR) });
  if (options.migrate === false) return database;
  try {
    await ensureSchema(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/** Open, run, and always close. */
export async function withDatabase<T>(choice: DatabaseChoice, run: (database: Database) => Promise<T>): Promise<T> {
  const database = await openChosenDatabase(choice);
  try {
    return await run(database);
  } finally {
    await database.close();
  }
}

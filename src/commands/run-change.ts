import { Flags } from '@oclif/core';
import type { Database } from '../db/client.js';
import { resolveAuthor, type ChangeAuthor } from '../operations/actor.js';
import { withDatabase } from '../operations/database.js';
import { systemClock } from '../shared/clock.js';
import { databaseFlags } from './database-flags.js';

/**
 * The flags of every command that changes runs or schedules and leaves an audit row: who, why, and
 * which database. `verb` completes "who …" in the help (`who triggers`, `who applies`).
 */
export function changeFlags(verb: string) {
  return {
    actor: Flags.string({ description: `who ${verb} (default: CI environment, then git user)` }),
    reason: Flags.string({ description: 'why, recorded in the audit log' }),
    ...databaseFlags,
  };
}

export interface RunChangeFlags {
  actor?: string | undefined;
  reason?: string | undefined;
  'database-url'?: string | undefined;
  'data-dir'?: string | undefined;
}

/**
 * The shell every run operation command shares: who (flags, then CI, then git), the database and
 * the clock read once. A refusal (RunOperationError) is left to CronformCommand.catch: exit 1.
 */
export async function performRunChange<T>(flags: RunChangeFlags, change: (database: Database, context: { nowMs: number; author: ChangeAuthor }) => Promise<T>, nowMs = systemClock.nowMs()): Promise<T> {
  const cwd = process.cwd();
  const author = resolveAuthor({ actor: flags.actor, reason: flags.reason }, process.env, cwd);
  return withDatabase({ databaseUrl: flags['database-url'], dataDir: flags['data-dir'], cwd }, (database) => change(database, { nowMs, author }));
}

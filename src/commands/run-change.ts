import type { Command } from '@oclif/core';
import type { Database } from '../db/client.js';
import { resolveAuthor, type ChangeAuthor } from '../operations/actor.js';
import { withDatabase } from '../operations/database.js';
import { RunOperationError } from '../operations/runs/run-operation-error.js';
import { systemClock } from '../shared/clock.js';
import { ExitCodes } from '../shared/exit-codes.js';

export interface RunChangeFlags {
  actor?: string | undefined;
  reason?: string | undefined;
  'database-url'?: string | undefined;
}

/**
 * The shell every run operation command shares: who (flags, then CI, then git), the database,
 * the clock read once, and refusals a user can fix printed as a message with exit 1.
 */
export async function performRunChange<T>(command: Command, flags: RunChangeFlags, change: (database: Database, context: { nowMs: number; author: ChangeAuthor }) => Promise<T>, nowMs = systemClock.nowMs()): Promise<T> {
  const cwd = process.cwd();
  const author = resolveAuthor({ actor: flags.actor, reason: flags.reason }, process.env, cwd);
  try {
    return await withDatabase({ databaseUrl: flags['database-url'], cwd }, (database) => change(database, { nowMs, author }));
  } catch (error) {
    if (error instanceof RunOperationError) command.error(error.message, { exit: ExitCodes.ERROR });
    throw error;
  }
}

/**
 * oclif "explicit" command discovery: the full table, every command loaded, for help, topics and
 * suggestions. Built from table.ts (the one place commands are registered); bin/run.js normally
 * gives oclif selected-table.ts instead, which loads only the command being run.
 */
import { commandLoaders, type CommandId } from './table.js';

const ids = Object.keys(commandLoaders) as CommandId[];
const modules = await Promise.all(ids.map((id) => commandLoaders[id]()));

export const commands: Record<CommandId, unknown> = Object.fromEntries(ids.map((id, index) => [id, modules[index]?.default])) as Record<CommandId, unknown>;

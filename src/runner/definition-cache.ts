/**
 * Definitions by (schedule, version), shared by the runner's scheduler and worker. Versions are
 * immutable rows, so an entry never goes stale; the least recently used are dropped beyond a
 * bound, so a long-lived runner over 100,000 schedules does not end up holding every definition
 * it has ever run. Whoever needs a definition past one await keeps its own reference.
 */
import type { Definition } from '../compile/definition.js';
import type { Executor } from '../db/client.js';
import { loadDefinitions } from '../db/worker-queries.js';

export interface DefinitionKey {
  scheduleId: number;
  version: number;
}

export class DefinitionCache {
  private readonly entries = new Map<string, Definition>();

  constructor(private readonly maxEntries = 10_000) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: DefinitionKey): Definition | undefined {
    const id = `${key.scheduleId}:${key.version}`;
    const definition = this.entries.get(id);
    if (definition) {
      // Map order is insertion order: re-inserting makes it the most recently used.
      this.entries.delete(id);
      this.entries.set(id, definition);
    }
    return definition;
  }

  /** Makes sure every key is cached (one query for the missing ones); returns them by key. */
  async require(executor: Executor, keys: DefinitionKey[]): Promise<Map<string, Definition>> {
    const found = new Map<string, Definition>();
    const missing: DefinitionKey[] = [];
    for (const key of keys) {
      const definition = this.get(key);
      if (definition) found.set(`${key.scheduleId}:${key.version}`, definition);
      else missing.push(key);
    }
    if (missing.length > 0) {
      for (const [id, definition] of await loadDefinitions(executor, missing)) {
        found.set(id, definition);
        this.entries.set(id, definition);
      }
      for (const id of this.entries.keys()) {
        if (this.entries.size <= this.maxEntries) break;
        this.entries.delete(id);
      }
    }
    return found;
  }
}

/**
 * What a database would hold right after applying a compiled repository: every schedule ACTIVE,
 * managed, at version 1, its stored digest the compiled one. For plan tests that need a "current"
 * side without a database; `paused` names the schedules paused outside cronform (drift).
 */
import type { CompileResult } from '../../src/compile/compile-sources.js';
import type { StoredSchedule } from '../../src/compile/stored-schedule.js';

export function storedAfterApply(compiled: CompileResult, paused: readonly string[] = []): StoredSchedule[] {
  return compiled.schedules.map((schedule, index) => ({
    id: index + 1,
    name: schedule.definition.name,
    version: 1,
    digest: schedule.digest,
    timing: schedule.definition,
    definition: schedule.definition,
    status: 'ACTIVE',
    managed: true,
    paused: paused.includes(schedule.definition.name) ? { at: '2026-03-01T00:00:00.000Z', by: 'ops', reason: null, until: null } : null,
    versionDigest: schedule.digest,
    nextRunAt: null,
  }));
}

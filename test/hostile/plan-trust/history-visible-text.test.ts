/**
 * Attack 6 in `history` and `diff`: an apply reason, an actor and a changed payload value with a lone CR,
 * an ANSI escape, a bidi override or a zero-width space reach the terminal written visibly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import DiffCommand from '../../../src/commands/diff.js';
import HistoryCommand from '../../../src/commands/history.js';
import type { Database } from '../../../src/db/client.js';
import { compileSources } from '../../../src/compile/compile-sources.js';
import { applyPlan } from '../../../src/operations/apply.js';
import { planAgainstDatabase } from '../../../src/operations/plan.js';
import { ManualClock } from '../../../src/shared/clock.js';
import { hasHiddenCharacters } from '../../../src/shared/visible-text.js';
import { scheduleManifest } from '../../support/apply-manifests.js';
import { createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../../support/databases.js';
import { runCommand } from '../../support/run-command.js';

const NOW_MS = Date.parse('2026-11-29T12:00:00Z');
const forged = 'ok\r\u001b[2J\u202Eevil\u200b';

async function applyWith(database: Database, description: string, nowMs: number): Promise<void> {
  const manifest = scheduleManifest('report', { cron: '0 6 * * *', payload: { note: description } });
  const desired = compileSources([{ file: 'schedules/report.yaml', text: manifest }], nowMs);
  const plan = await planAgainstDatabase(database, desired, { nowMs });
  await applyPlan(database, plan, { author: { actor: `mallory${forged}`, reason: `fix${forged}\nline two`, gitSha: null }, clock: new ManualClock(nowMs), lockTimeoutMs: 1_000 });
}

describe.runIf(postgresServerUrl)('history and diff write hidden characters visibly (PostgreSQL)', () => {
  let server: TestPostgres;
  beforeAll(async () => {
    server = await createPostgresDatabase();
    const database = await server.open();
    await applyWith(database, 'first', NOW_MS);
    await applyWith(database, `second${forged}`, NOW_MS + 60_000);
  });
  afterAll(() => server?.drop());

  it('history', async () => {
    const result = await runCommand(HistoryCommand, ['report', '--database-url', server.url]);
    expect(result.exitCode, result.message).toBe(0);
    expect(hasHiddenCharacters(result.stdout.replace(/\n/g, ''))).toBe(false);
    // Actor and reason both: the escape sequence, the override and the zero-width space as text.
    expect(result.stdout).toMatch(/malloryok\\r\\u001b\[2J\\u202Eevil\\u200B/i);
    expect(result.stdout).toMatch(/fixok\\r\\u001b\[2J\\u202Eevil\\u200B/i);
    expect(result.stdout).toContain('line two');
  });

  it('diff', async () => {
    const result = await runCommand(DiffCommand, ['report', '1', '2', '--database-url', server.url]);
    expect(result.exitCode, result.message).toBe(0);
    expect(hasHiddenCharacters(result.stdout.replace(/\n/g, ''))).toBe(false);
    expect(result.stdout).toMatch(/second.*\\u202E/i);
  });
});

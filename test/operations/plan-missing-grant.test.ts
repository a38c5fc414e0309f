/**
 * The plan role without its grants (issue 15: "a short, clear message when the plan role lacks a
 * grant"): plan names what was denied and the fix, and maps to exit 1, instead of a driver error.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeForError } from '../../src/commands/error-exit-codes.js';
import { MissingGrantError } from '../../src/operations/missing-grant-error.js';
import { planChanges } from '../../src/operations/plan.js';
import { repoRoot } from '../support/run-command.js';
import { createPostgresDatabase, postgresServerUrl, type TestPostgres } from '../support/databases.js';

describe.runIf(postgresServerUrl)('plan with a role that lacks its grants (PostgreSQL)', () => {
  const role = `cronform_plan_${randomBytes(4).toString('hex')}`;
  let server: TestPostgres;

  async function runAsAdmin(url: string, statement: string): Promise<void> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  }

  beforeAll(async () => {
    server = await createPostgresDatabase();
    await runAsAdmin(server.url, `create role ${role} login`);
  });
  afterAll(async () => {
    await server?.drop();
    await runAsAdmin(postgresServerUrl!, `drop role if exists ${role}`);
  });

  it('says which permission was denied and how to grant it, exit 1', async () => {
    const asRole = new URL(server.url);
    asRole.username = role;
    const error = await planChanges({ dir: 'schedules', cwd: repoRoot, nowMs: Date.parse('2026-11-29T12:00:00Z'), database: { databaseUrl: asRole.toString(), cwd: repoRoot } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingGrantError);
    expect((error as Error).message).toMatch(/^the database role cannot read what plan needs \(permission denied for (table|schema) \S+\): grant it USAGE and SELECT/);
    expect(exitCodeForError(error)).toBe(1);
  });

  it('plans once the documented grants are given', async () => {
    for (const statement of [`grant usage on schema public, drizzle to ${role}`, `grant select on all tables in schema public, drizzle to ${role}`]) await runAsAdmin(server.url, statement);
    const asRole = new URL(server.url);
    asRole.username = role;
    const plan = await planChanges({ dir: 'schedules', cwd: repoRoot, nowMs: Date.parse('2026-11-29T12:00:00Z'), database: { databaseUrl: asRole.toString(), cwd: repoRoot } });
    expect(plan.changes.length).toBeGreaterThan(0);
  });
});

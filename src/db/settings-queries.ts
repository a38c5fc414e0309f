/**
 * Repository-wide settings written by apply: the stored Policy (read by plan to diff and to judge
 * risk, and by runners for limits) and the stored risk acceptances (read by plan, to tell an
 * acceptance a reviewer already saw from one added by the change it judges).
 */
import { sql } from 'drizzle-orm/sql/sql';
import type { PolicyDefinition, RiskAcceptance } from '../compile/definition.js';
import { queryRows, type Executor, type StatementExecutor } from './client.js';

export type StoredPolicy = Omit<PolicyDefinition, 'source'>;
/** By schedule name: `metadata.riskAccepted` of each schedule that accepts any risk. */
export type StoredAcceptances = Record<string, RiskAcceptance[]>;

const POLICY_KEY = 'policy';
const RISK_ACCEPTANCES_KEY = 'risk-acceptances';

// Raw statements, not drizzle's builder on the `settings` table: `status` reads the Policy, and
// importing schema.ts (every table's definition) only for that cost its start-up (bench/cli-start).
// Both drivers parse jsonb into the value, as the builder's jsonb column did.
async function readSetting<T>(executor: StatementExecutor, key: string): Promise<{ value: T; digest: string } | null> {
  const [row] = await queryRows<{ value: T; digest: string }>(executor, sql`select value, digest from settings where key = ${key}`);
  return row ? { value: row.value, digest: row.digest } : null;
}

async function writeSetting(executor: Executor, key: string, value: unknown, digest: string, at: Date): Promise<void> {
  await executor.execute(
    sql`insert into settings (key, value, digest, updated_at) values (${key}, ${JSON.stringify(value)}::jsonb, ${digest}, ${at.toISOString()}::timestamptz)
        on conflict (key) do update set value = excluded.value, digest = excluded.digest, updated_at = excluded.updated_at`,
  );
}

export async function readStoredPolicy(executor: StatementExecutor): Promise<{ policy: StoredPolicy; digest: string } | null> {
  const row = await readSetting<StoredPolicy>(executor, POLICY_KEY);
  return row ? { policy: row.value, digest: row.digest } : null;
}

export async function writeStoredPolicy(executor: Executor, policy: StoredPolicy, digest: string, at: Date): Promise<void> {
  await writeSetting(executor, POLICY_KEY, policy, digest, at);
}

export async function readStoredRiskAcceptances(executor: StatementExecutor): Promise<{ acceptances: StoredAcceptances; digest: string } | null> {
  const row = await readSetting<StoredAcceptances>(executor, RISK_ACCEPTANCES_KEY);
  return row ? { acceptances: row.value, digest: row.digest } : null;
}

export async function writeStoredRiskAcceptances(executor: Executor, acceptances: StoredAcceptances, digest: string, at: Date): Promise<void> {
  await writeSetting(executor, RISK_ACCEPTANCES_KEY, acceptances, digest, at);
}

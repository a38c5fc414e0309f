/**
 * Repository-wide settings written by apply: the stored Policy (read by plan to diff and to judge
 * risk, and by runners for limits) and the stored risk acceptances (read by plan, to tell an
 * acceptance a reviewer already saw from one added by the change it judges).
 */
import { eq } from 'drizzle-orm';
import type { PolicyDefinition, RiskAcceptance } from '../compile/definition.js';
import type { Executor } from './client.js';
import { settings } from './schema.js';

export type StoredPolicy = Omit<PolicyDefinition, 'source'>;
/** By schedule name: `metadata.riskAccepted` of each schedule that accepts any risk. */
export type StoredAcceptances = Record<string, RiskAcceptance[]>;

const POLICY_KEY = 'policy';
const RISK_ACCEPTANCES_KEY = 'risk-acceptances';

async function readSetting<T>(executor: Executor, key: string): Promise<{ value: T; digest: string } | null> {
  const [row] = await executor.select().from(settings).where(eq(settings.key, key));
  return row ? { value: row.value as T, digest: row.digest } : null;
}

async function writeSetting(executor: Executor, key: string, value: unknown, digest: string, at: Date): Promise<void> {
  await executor
    .insert(settings)
    .values({ key, value, digest, updatedAt: at })
    .onConflictDoUpdate({ target: settings.key, set: { value, digest, updatedAt: at } });
}

export async function readStoredPolicy(executor: Executor): Promise<{ policy: StoredPolicy; digest: string } | null> {
  const row = await readSetting<StoredPolicy>(executor, POLICY_KEY);
  return row ? { policy: row.value, digest: row.digest } : null;
}

export async function writeStoredPolicy(executor: Executor, policy: StoredPolicy, digest: string, at: Date): Promise<void> {
  await writeSetting(executor, POLICY_KEY, policy, digest, at);
}

export async function readStoredRiskAcceptances(executor: Executor): Promise<{ acceptances: StoredAcceptances; digest: string } | null> {
  const row = await readSetting<StoredAcceptances>(executor, RISK_ACCEPTANCES_KEY);
  return row ? { acceptances: row.value, digest: row.digest } : null;
}

export async function writeStoredRiskAcceptances(executor: Executor, acceptances: StoredAcceptances, digest: string, at: Date): Promise<void> {
  await writeSetting(executor, RISK_ACCEPTANCES_KEY, acceptances, digest, at);
}

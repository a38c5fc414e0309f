/** The stored Policy: written by apply, read by plan (to diff) and by runners (limits, thresholds). */
import { eq } from 'drizzle-orm';
import type { PolicyDefinition } from '../compile/definition.js';
import type { Executor } from './client.js';
import { settings } from './schema.js';

export type StoredPolicy = Omit<PolicyDefinition, 'source'>;

export async function readStoredPolicy(executor: Executor): Promise<{ policy: StoredPolicy; digest: string } | null> {
  const [row] = await executor.select().from(settings).where(eq(settings.key, 'policy'));
  return row ? { policy: row.value as StoredPolicy, digest: row.digest } : null;
}

export async function writeStoredPolicy(executor: Executor, policy: StoredPolicy, digest: string, at: Date): Promise<void> {
  await executor
    .insert(settings)
    .values({ key: 'policy', value: policy, digest, updatedAt: at })
    .onConflictDoUpdate({ target: settings.key, set: { value: policy, digest, updatedAt: at } });
}

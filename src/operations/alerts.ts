/** Use case behind `cronform alerts`: the recorded alerts, newest first (README "Alerts"). */
import { listAlerts } from '../db/alert-queries.js';
import type { Database } from '../db/client.js';

export interface AlertEntry {
  id: number;
  rule: string;
  schedule: string | null;
  criticality: string | null;
  state: string;
  summary: string;
  details: Record<string, unknown>;
  openedAt: string;
  openedBy: string;
  resolvedAt: string | null;
  deliveries: number;
  deliveryAttempts: number;
  suppressed: number;
  lastDeliveryAt: string | null;
  lastError: string | null;
  /** Messages still owed to a target (not yet delivered, given up or skipped): a runner sends them. */
  pendingDeliveries: number;
}

export async function readAlerts(database: Database, options: { openOnly: boolean; limit: number }): Promise<AlertEntry[]> {
  const rows = await listAlerts(database.db, options);
  return rows.map((row) => ({
    id: row.id,
    rule: row.rule,
    schedule: row.scheduleName,
    criticality: row.criticality,
    state: row.state,
    summary: row.summary,
    details: row.details,
    openedAt: row.openedAt.toISOString(),
    openedBy: row.openedBy,
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    deliveries: row.deliveries,
    deliveryAttempts: row.deliveryAttempts,
    suppressed: row.suppressed,
    lastDeliveryAt: row.lastDeliveryAt?.toISOString() ?? null,
    lastError: row.lastError,
    pendingDeliveries: row.pendingDeliveries,
  }));
}

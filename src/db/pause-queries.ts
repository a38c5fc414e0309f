/** Pause and resume: the emergency kill switch (SPEC §7). Each change writes an audit row. */
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from './client.js';

/** Pauses whose `until` has passed end by themselves; recorded as resumed by cronform. */
export async function endExpiredPauses(executor: Executor, now: Date): Promise<number> {
  const rows = await queryRows<{ id: string | number }>(
    executor,
    sql`with ended as (
          update schedules set paused_at = null, paused_by = null, paused_reason = null, paused_until = null, updated_at = ${now.toISOString()}::timestamptz
          where paused_until is not null and paused_until <= ${now.toISOString()}::timestamptz
          returning id, name, version
        ),
        audited as (
          insert into audit_log (at, actor, action, schedule_id, schedule_name, version, reason)
          select ${now.toISOString()}::timestamptz, 'cronform', 'SCHEDULE_RESUMED', id, name, version, 'pause expired' from ended
        )
        select id from ended`,
  );
  return rows.length;
}

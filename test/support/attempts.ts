import { sql, type SQL } from 'drizzle-orm';
import { OPEN_ATTEMPT_COLUMNS, openAttempts } from '../../src/db/open-attempts.js';

/**
 * Every attempt as a relation with run_attempts' columns: its rows, and the running attempts that
 * have none yet (a job that started at its claim gets its row at its outcome: open-attempts.ts).
 */
export const everyAttempt: SQL = sql`(select ${OPEN_ATTEMPT_COLUMNS} from run_attempts union all ${openAttempts(sql`true`)})`;

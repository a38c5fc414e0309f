// Example job for schedules/reconciliation.yaml: matches settled payments against the ledger.
import { describeSecret, readOptions, reportRun } from './run-context.js';

const options = readOptions();
reportRun('reconcile-payments', { window: options.window ?? '15m', ledgerDatabase: describeSecret('LEDGER_DATABASE_URL') });

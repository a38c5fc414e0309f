import { Flags } from '@oclif/core';
import { withDatabase } from '../operations/database.js';
import { readAlerts, type AlertEntry } from '../operations/alerts.js';
import { makeVisible } from '../shared/visible-text.js';
import { CronformCommand } from './cronform-command.js';
import { databaseFlags } from './database-flags.js';

export default class Alerts extends CronformCommand {
  static override summary = 'List the alerts the runners recorded: rule, schedule, when opened and resolved, deliveries.';
  static override flags = {
    ...databaseFlags,
    open: Flags.boolean({ description: 'only alerts whose condition still holds' }),
    limit: Flags.integer({ description: 'most alerts listed, newest first', default: 50, min: 1 }),
  };

  async run(): Promise<AlertEntry[]> {
    const { flags } = await this.parse(Alerts);
    const alerts = await withDatabase({ databaseUrl: flags['database-url'], dataDir: flags['data-dir'], cwd: process.cwd() }, (database) => readAlerts(database, { openOnly: flags.open, limit: flags.limit }));
    if (alerts.length === 0) this.log(flags.open ? 'no open alerts' : 'no alerts recorded');
    // Summaries carry job errors: a terminal must show them, not obey them.
    for (const a of alerts) {
      const when = a.resolvedAt ? `${a.openedAt} → ${a.resolvedAt}` : `${a.openedAt} (open)`;
      const delivery = `delivered ${a.deliveries}, ${a.deliveryAttempts} requests${a.suppressed > 0 ? `, ${a.suppressed} rate-limited` : ''}${a.pendingDeliveries > 0 ? `, ${a.pendingDeliveries} owed` : ''}`;
      this.log(`#${a.id}  ${a.state.padEnd(8)}  ${a.rule.padEnd(20)}  ${when}  ${delivery}`);
      this.log(`      ${makeVisible(a.summary)}`);
      if (a.lastError) this.log(`      last error: ${makeVisible(a.lastError)}`);
    }
    return alerts;
  }
}

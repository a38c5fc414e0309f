import { withDatabase } from '../operations/database.js';
import { readScheduleStatus, type ScheduleStatusReport } from '../operations/runs/schedule-status.js';
import { systemClock } from '../shared/clock.js';
import { CronformCommand } from './cronform-command.js';
import { databaseFlags } from './database-flags.js';
import { formatElapsed, renderTable } from './runs.js';

export default class Status extends CronformCommand {
  static override summary = 'Per schedule: last result, next slot, 7-day success rate and p95 start delay, runs today (UTC), pause.';
  static override flags = { ...databaseFlags };

  async run(): Promise<ScheduleStatusReport> {
    const { flags } = await this.parse(Status);
    const report = await withDatabase({ databaseUrl: flags['database-url'], cwd: process.cwd() }, (database) => readScheduleStatus(database, { nowMs: systemClock.nowMs() }));
    if (report.schedules.length === 0) {
      this.log('No active schedules.');
      return report;
    }
    const rows = report.schedules.map((s) => [
      s.name,
      s.lastResult ? `${s.lastResult.status} ${s.lastResult.scheduledFor}` : '-',
      s.nextRunAt ?? '-',
      s.successRate === null ? '-' : `${(s.successRate * 100).toFixed(1)}% of ${s.finishedRuns}`,
      formatElapsed(s.p95StartDelayMs),
      String(s.runsToday),
      s.paused ? `PAUSED${s.paused.until ? ` until ${s.paused.until}` : ''} by ${s.paused.by ?? 'unknown'}: ${s.paused.reason ?? ''}` : s.enabled ? (s.activeRuns > 0 ? `active (${s.activeRuns})` : 'idle') : 'disabled',
    ]);
    const header = ['SCHEDULE', 'LAST RESULT', 'NEXT RUN', `SUCCESS ${report.windowDays}D`, 'P95 DELAY', `TODAY (UTC ${report.utcDay})`, 'STATE'];
    for (const line of renderTable(header, rows)) this.log(line);
    return report;
  }
}

import { Flags } from '@oclif/core';
import { withDatabase } from '../operations/database.js';
import { renderScheduleReportMarkdown, renderScheduleReportText } from '../operations/runs/render-schedule-report.js';
import { buildScheduleReport, type ScheduleReport } from '../operations/runs/schedule-report.js';
import { parseInstantOrDuration } from '../operations/runs/time-input.js';
import { systemClock } from '../shared/clock.js';
import { CronformCommand } from './cronform-command.js';
import { databaseFlags } from './database-flags.js';

export default class Report extends CronformCommand {
  static override summary = 'Per schedule over a window: runs, successes, failures, skips and misses, p95 start delay, and the age of the last success.';
  static override description = 'Runs count in the window by their slot; backfills are left out. A daily digest: `cronform report --since 24h --format markdown`.';
  static override examples = ['<%= config.bin %> report', '<%= config.bin %> report --since 7d --format markdown'];
  static override flags = {
    since: Flags.string({ description: 'window start: a duration back from now (24h, 7d) or an ISO 8601 instant', default: '24h' }),
    format: Flags.string({ description: 'output format (--json is --format json)', options: ['text', 'markdown', 'json'], default: 'text' }),
    ...databaseFlags,
  };

  async run(): Promise<ScheduleReport> {
    const { flags } = await this.parse(Report);
    const nowMs = systemClock.nowMs();
    const sinceMs = parseInstantOrDuration(flags.since, '--since', nowMs, 'ago');
    if (sinceMs >= nowMs) this.fail(`--since must be in the past (got ${JSON.stringify(flags.since)})`);
    const report = await withDatabase({ databaseUrl: flags['database-url'], dataDir: flags['data-dir'], cwd: process.cwd() }, (database) => buildScheduleReport(database, { sinceMs, nowMs }));
    // Under --json oclif prints the returned value, the same as --format json.
    if (flags.format === 'json') this.log(JSON.stringify(report, null, 2));
    else if (flags.format === 'markdown') this.log(renderScheduleReportMarkdown(report));
    else this.log(renderScheduleReportText(report));
    return report;
  }
}

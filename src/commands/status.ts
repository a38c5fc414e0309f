import { Flags } from '@oclif/core';
import { withStatementDatabase } from '../operations/database.js';
import { readScheduleStatus, type ScheduleStatusEntry, type ScheduleStatusReport } from '../operations/runs/schedule-status.js';
import { parseDurationFlag } from '../operations/runs/time-input.js';
import { systemClock } from '../shared/clock.js';
import { ExitCodes } from '../shared/exit-codes.js';
import { formatElapsed } from '../shared/format-elapsed.js';
import { makeVisible } from '../shared/visible-text.js';
import { CronformCommand } from './cronform-command.js';
import { databaseFlags } from './database-flags.js';
import { renderTable } from './render-table.js';

function describeState(s: ScheduleStatusEntry): string {
  if (s.paused) return `PAUSED${s.paused.until ? ` until ${s.paused.until}` : ''} by ${makeVisible(s.paused.by ?? 'unknown')}: ${makeVisible(s.paused.reason ?? '')}`;
  if (!s.enabled) return 'disabled';
  const activity = s.activeRuns > 0 ? `active (${s.activeRuns})` : 'idle';
  return s.overdue ? `OVERDUE ${formatElapsed(s.overdue.lateMs)}, ${activity}` : activity;
}

export default class Status extends CronformCommand {
  static override summary = 'Per schedule: last result, next slot, 7-day success rate and p95 start delay, runs today (UTC), pause, overdue; then the runners and whether any is alive.';
  static override description = `With --check, exits ${ExitCodes.UNHEALTHY} when no runner has heartbeated within --stale-after or a CRITICAL schedule is overdue, and says why: for an external cron or uptime probe. Exit 1 means the check itself could not run.`;
  static override examples = ['<%= config.bin %> status', '<%= config.bin %> status --check --json'];
  static override flags = {
    check: Flags.boolean({ description: `exit ${ExitCodes.UNHEALTHY} when no runner is alive or a CRITICAL schedule is overdue`, default: false }),
    'stale-after': Flags.string({ description: 'a runner silent for longer is not alive (runners heartbeat every third of their lease)', default: '90s' }),
    'overdue-after': Flags.string({ description: "lateness that makes a slot or a run overdue (default: the Policy's misfireThreshold)" }),
    ...databaseFlags,
  };

  async run(): Promise<ScheduleStatusReport> {
    const { flags } = await this.parse(Status);
    const staleAfterMs = parseDurationFlag(flags['stale-after'], '--stale-after');
    const overdueAfterMs = flags['overdue-after'] === undefined ? undefined : parseDurationFlag(flags['overdue-after'], '--overdue-after');
    // One connection: three read-only statements and no transaction (DatabaseChoice.maxConnections).
    const report = await withStatementDatabase({ databaseUrl: flags['database-url'], dataDir: flags['data-dir'], cwd: process.cwd(), maxConnections: 1 }, (database) => readScheduleStatus(database, { nowMs: systemClock.nowMs(), staleAfterMs, overdueAfterMs }));
    this.renderSchedules(report);
    this.log('');
    this.renderRunners(report);
    this.renderHandedOff(report);
    if (!flags.check) return report;
    for (const warning of report.health.warnings) this.logToStderr(`warning: ${makeVisible(warning)}`);
    if (report.health.healthy) {
      this.log('check: OK');
      return report;
    }
    for (const problem of report.health.problems) this.logToStderr(`check failed: ${makeVisible(problem)}`);
    return this.finish(report, ExitCodes.UNHEALTHY);
  }

  private renderSchedules(report: ScheduleStatusReport): void {
    if (report.schedules.length === 0) {
      this.log('No active schedules.');
      return;
    }
    const rows = report.schedules.map((s) => [
      s.name,
      s.lastResult ? `${s.lastResult.status} ${s.lastResult.scheduledFor}` : '-',
      s.nextRunAt ?? '-',
      s.successRate === null ? '-' : `${(s.successRate * 100).toFixed(1)}% of ${s.finishedRuns}`,
      formatElapsed(s.p95StartDelayMs),
      String(s.runsToday),
      describeState(s),
    ]);
    const header = ['SCHEDULE', 'LAST RESULT', 'NEXT RUN', `SUCCESS ${report.windowDays}D`, 'P95 DELAY', `TODAY (UTC ${report.utcDay})`, 'STATE'];
    for (const line of renderTable(header, rows)) this.log(line);
    for (const s of report.schedules) if (s.overdue) this.log(`! ${s.name} (${s.criticality}): ${s.overdue.message}`);
  }

  /** Only when some run is with an external queue, so the usual output is unchanged. */
  private renderHandedOff(report: ScheduleStatusReport): void {
    const handedOff = report.handedOff ?? [];
    if (handedOff.length === 0) return;
    this.log('');
    const rows = handedOff.map((h) => [
      String(h.runId),
      makeVisible(h.schedule),
      makeVisible(h.target),
      makeVisible(h.externalJobId ?? '-'),
      h.handedOffAt,
      h.lastReportAt ?? 'none yet',
      h.leaseExpiresAt ?? '-',
    ]);
    for (const line of renderTable(['HANDED OFF RUN', 'SCHEDULE', 'QUEUE', 'JOB ID', 'SINCE', 'LAST REPORT', 'ON STALL AT'], rows)) this.log(line);
  }

  private renderRunners(report: ScheduleStatusReport): void {
    if (report.runners.length > 0) {
      const rows = report.runners.map((r) => [
        makeVisible(r.id),
        makeVisible(r.hostname),
        String(r.pid),
        makeVisible(r.version),
        r.startedAt,
        `${formatElapsed(r.heartbeatAgeMs)} ago`,
        String(r.runsInFlight),
        r.state === 'alive' ? 'alive' : r.state === 'stale' ? `STALE (silent for over ${formatElapsed(report.staleAfterMs)})` : `stopped ${r.stoppedAt}`,
      ]);
      for (const line of renderTable(['RUNNER', 'HOST', 'PID', 'VERSION', 'STARTED', 'HEARTBEAT', 'IN FLIGHT', 'STATE'], rows)) this.log(line);
    }
    if (report.aliveRunners === 0) this.log(`No runner is alive (none has heartbeated in the last ${formatElapsed(report.staleAfterMs)}): nothing will run. Start one with \`cronform runner\`.`);
    else this.log(`${report.aliveRunners} runner(s) alive.`);
  }
}

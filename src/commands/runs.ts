import { Args, Flags } from '@oclif/core';
import { withDatabase } from '../operations/database.js';
import { DEFAULT_RUN_LIMIT, listRuns, type RunEntry } from '../operations/runs/list-runs.js';
import { parseInstantOrDuration } from '../operations/runs/time-input.js';
import { RUN_STATUSES } from '../db/run-vocabulary.js';
import { systemClock } from '../shared/clock.js';
import { formatElapsed } from '../shared/format-elapsed.js';
import { makeVisible } from '../shared/visible-text.js';
import { CronformCommand } from './cronform-command.js';
import { databaseFlags } from './database-flags.js';
import { renderTable } from './render-table.js';

/** A table cell stays one line: `runs show <id>` has the whole error. */
const MAX_REASON_CHARS = 120;

/** The reason on one visible line (an error may quote a job's output), cut at MAX_REASON_CHARS. */
export function summarizeReason(reason: string): string {
  const visible = makeVisible(reason);
  return visible.length <= MAX_REASON_CHARS ? visible : `${visible.slice(0, MAX_REASON_CHARS - 1)}…`;
}

export default class Runs extends CronformCommand {
  static override summary = 'List runs, newest slot first.';
  static override description = '`runs show <id>` is the details of one run, so a schedule named `show` is listed with `runs --schedule show`.';
  static override examples = ['<%= config.bin %> runs', '<%= config.bin %> runs daily-report --status FAILED --since 7d', '<%= config.bin %> runs --schedule show', '<%= config.bin %> runs show 42'];
  static override args = { name: Args.string({ description: 'schedule name (default: all schedules)', required: false }) };
  static override flags = {
    // A schedule named like a subcommand of runs (`show`) cannot be the argument: argv `runs show`
    // is `runs show <id>`. The flag names any schedule.
    schedule: Flags.string({ description: 'schedule name, as the argument: for a schedule named like a subcommand (`show`)' }),
    status: Flags.string({ description: 'only runs with this status', options: [...RUN_STATUSES] }),
    since: Flags.string({ description: 'only slots at or after this instant (ISO 8601) or within this duration (24h, 7d)' }),
    limit: Flags.integer({ description: 'at most this many runs', default: DEFAULT_RUN_LIMIT, min: 1 }),
    ...databaseFlags,
  };

  async run(): Promise<RunEntry[]> {
    const { args, flags } = await this.parse(Runs);
    if (args.name !== undefined && flags.schedule !== undefined && args.name !== flags.schedule) this.fail(`two schedule names: "${makeVisible(args.name)}" and --schedule "${makeVisible(flags.schedule)}"; give one`);
    const name = flags.schedule ?? args.name;
    const sinceMs = flags.since === undefined ? undefined : parseInstantOrDuration(flags.since, '--since', systemClock.nowMs(), 'ago');
    const runs = await withDatabase({ databaseUrl: flags['database-url'], dataDir: flags['data-dir'], cwd: process.cwd() }, (database) => listRuns(database, { name, status: flags.status, sinceMs, limit: flags.limit, nowMs: systemClock.nowMs() }));
    if (runs.length === 0) {
      this.log('No runs.');
    } else {
      const rows = runs.map((run) => [
        String(run.id),
        run.schedule,
        run.scheduledFor,
        run.trigger,
        `${run.status}${run.summarizedSlots ? ` ×${run.summarizedSlots}` : ''}`,
        `${run.attempts}/${run.maxAttempts}`,
        run.startedAt ?? '-',
        run.finishedAt ?? '-',
        formatElapsed(run.durationMs),
        run.statusReason === null ? '' : summarizeReason(run.statusReason),
      ]);
      for (const line of renderTable(['ID', 'SCHEDULE', 'SCHEDULED FOR', 'TRIGGER', 'STATUS', 'ATTEMPTS', 'STARTED', 'FINISHED', 'DURATION', 'REASON'], rows)) this.log(line);
    }
    return runs;
  }
}

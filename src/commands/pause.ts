import { Args, Command, Flags } from '@oclif/core';
import { resolveAuthor } from '../operations/actor.js';
import { withDatabase } from '../operations/database.js';
import { pauseSchedule, type PauseResult } from '../operations/runs/pause.js';
import { RunOperationError } from '../operations/runs/run-operation-error.js';
import { parseInstantOrDuration } from '../operations/runs/time-input.js';
import { systemClock } from '../shared/clock.js';
import { ExitCodes } from '../shared/exit-codes.js';
import { databaseFlags } from './database-flags.js';

export default class Pause extends Command {
  static override summary = 'Pause a schedule (emergency kill switch): its slots are skipped and its runs that have not started are skipped too.';
  static override description = 'A running attempt is left to finish (cronform cancel stops it). plan reports the pause as drift. Undo with cronform resume.';
  static override examples = ['<%= config.bin %> pause daily-report --reason "Notion API outage"', '<%= config.bin %> pause daily-report --reason "migration" --until 2h'];
  static override args = { name: Args.string({ description: 'schedule name', required: true }) };
  static override flags = {
    reason: Flags.string({ description: 'why (shown in status and recorded in the audit log)', required: true }),
    until: Flags.string({ description: 'end the pause by itself at this instant (ISO 8601) or after this duration (30m, 2h, 1d)' }),
    actor: Flags.string({ description: 'who pauses (default: CI environment, then git user)' }),
    json: Flags.boolean({ description: 'print as JSON' }),
    ...databaseFlags,
  };

  async run(): Promise<PauseResult> {
    const { args, flags } = await this.parse(Pause);
    const cwd = process.cwd();
    const author = resolveAuthor({ actor: flags.actor, reason: flags.reason }, process.env, cwd);
    const nowMs = systemClock.nowMs();
    let result: PauseResult;
    try {
      const untilMs = flags.until === undefined ? null : parseInstantOrDuration(flags.until, '--until', nowMs, 'ahead');
      result = await withDatabase({ databaseUrl: flags['database-url'], cwd }, (database) => pauseSchedule(database, { name: args.name, reason: flags.reason, untilMs, nowMs, author }));
    } catch (error) {
      if (error instanceof RunOperationError) this.error(error.message, { exit: ExitCodes.ERROR });
      throw error;
    }
    if (flags.json) {
      this.log(JSON.stringify(result, null, 2));
    } else {
      const skipped = result.skippedRunIds.length > 0 ? ` Skipped ${result.skippedRunIds.length} run(s) that had not started: ${result.skippedRunIds.join(', ')}.` : '';
      this.log(`Paused ${result.schedule} ${result.until ? `until ${result.until}` : 'until resumed'} (${result.reason}).${skipped}`);
    }
    return result;
  }
}

import { Args, Flags } from '@oclif/core';
import { pauseSchedule, type PauseResult } from '../operations/runs/pause.js';
import { parseInstantOrDuration } from '../operations/runs/time-input.js';
import { systemClock } from '../shared/clock.js';
import { CronformCommand } from './cronform-command.js';
import { changeFlags, performRunChange } from './run-change.js';

export default class Pause extends CronformCommand {
  static override summary = 'Pause a schedule (emergency kill switch): its slots are skipped and its runs that have not started are skipped too.';
  static override description = 'A running attempt is left to finish (cronform cancel stops it). plan reports the pause as drift. Undo with cronform resume.';
  static override examples = ['<%= config.bin %> pause daily-report --reason "Notion API outage"', '<%= config.bin %> pause daily-report --reason "migration" --until 2h'];
  static override args = { name: Args.string({ description: 'schedule name', required: true }) };
  static override flags = {
    ...changeFlags('pauses'),
    // A pause must say why: it is shown in status to whoever wonders why a schedule stopped.
    reason: Flags.string({ description: 'why (shown in status and recorded in the audit log)', required: true }),
    until: Flags.string({ description: 'end the pause by itself at this instant (ISO 8601) or after this duration (30m, 2h, 1d)' }),
  };

  async run(): Promise<PauseResult> {
    const { args, flags } = await this.parse(Pause);
    const nowMs = systemClock.nowMs();
    const untilMs = flags.until === undefined ? null : parseInstantOrDuration(flags.until, '--until', nowMs, 'ahead');
    const result: PauseResult = await performRunChange(flags, (database, context) => pauseSchedule(database, { name: args.name, reason: flags.reason, untilMs, ...context }), nowMs);
    const skipped = result.skippedRunIds.length > 0 ? ` Skipped ${result.skippedRunIds.length} run(s) that had not started: ${result.skippedRunIds.join(', ')}.` : '';
    this.log(`Paused ${result.schedule} ${result.until ? `until ${result.until}` : 'until resumed'} (${result.reason}).${skipped}`);
    return result;
  }
}

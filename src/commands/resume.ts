import { Args, Flags } from '@oclif/core';
import { resumeSchedule, type MissedMode, type ResumeResult } from '../operations/runs/resume.js';
import { CronformCommand } from './cronform-command.js';
import { changeFlags, performRunChange } from './run-change.js';

export default class Resume extends CronformCommand {
  static override summary = 'Resume a paused schedule, and choose what happens to the runs the pause skipped.';
  static override args = { name: Args.string({ description: 'schedule name', required: true }) };
  static override flags = {
    missed: Flags.string({ description: 'skip: leave them skipped; last: run the latest again; all: run them all again, oldest first', options: ['skip', 'last', 'all'], default: 'skip' }),
    ...changeFlags('resumes'),
  };

  async run(): Promise<ResumeResult> {
    const { args, flags } = await this.parse(Resume);
    const result: ResumeResult = await performRunChange(flags, (database, context) => resumeSchedule(database, { name: args.name, missed: flags.missed as MissedMode, ...context }));
    const requeued = result.requeued.length > 0 ? ` Re-queued ${result.requeued.length}: ${result.requeued.map((r) => `run ${r.runId} (${r.scheduledFor}, ${r.status})`).join(', ')}.` : '';
    const left = result.leftSkipped > 0 ? ` ${result.leftSkipped} run(s) of the pause stay SKIPPED.` : '';
    this.log(`Resumed ${result.schedule} (paused since ${result.pausedSince}).${requeued}${left}`);
    return result;
  }
}

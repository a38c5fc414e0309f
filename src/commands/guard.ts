import { Flags } from '@oclif/core';
import { answerGuard, type GuardAnswer } from '../operations/progress/report-progress.js';
import { ExitCodes } from '../shared/exit-codes.js';
import { CronformCommand } from './cronform-command.js';

export default class Guard extends CronformCommand {
  static override summary = 'Ask, inside a job, whether it may affect N records (spec.safety.maxAffected).';
  static override description =
    'Exits 0 when the job may proceed; 7 when N is more than the limit (the run then waits in MANUAL_REQUIRED for cronform approve, whatever the job exits with); 8 in a dry run (N is recorded, nothing may change). A job typically runs: cronform guard --affects "$n" || exit 0';
  static override examples = ['<%= config.bin %> guard --affects 12000 || exit 0'];
  static override flags = {
    affects: Flags.integer({ description: 'how many records the job is about to change', min: 0, required: true }),
  };

  async run(): Promise<GuardAnswer> {
    const { flags } = await this.parse(Guard);
    const answer = answerGuard(flags.affects, process.env);
    if (answer.proceed) this.log(answer.reason);
    else this.logToStderr(answer.reason);
    return this.finish(answer, answer.proceed ? ExitCodes.SUCCESS : answer.dryRun ? ExitCodes.DRY_RUN : ExitCodes.SAFETY_THRESHOLD);
  }
}

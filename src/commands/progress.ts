import { Flags } from '@oclif/core';
import { appendProgressLines, progressFileOf, progressLinesOf } from '../operations/progress/report-progress.js';
import { CronformCommand } from './cronform-command.js';

const count = (description: string) => Flags.integer({ description, min: 0 });

export default class Progress extends CronformCommand {
  static override summary = "Report a running job's progress and items to its runner (no database needed).";
  static override description =
    'Run inside a job: appends to the file the runner names in CRONFORM_PROGRESS_FILE. Counts are absolute (the last report wins). Items reported by key make the run\'s counts, and a retry re-runs only the failed ones (CRONFORM_RETRY_ITEMS_FILE).';
  static override examples = [
    '<%= config.bin %> progress --total 1000 --done 250 --failed 2',
    '<%= config.bin %> progress --item-done customer-42',
    '<%= config.bin %> progress --item-failed customer-43 --error "address rejected"',
    '<%= config.bin %> progress --would-affect 12000',
  ];
  static override flags = {
    total: count('items in all'),
    done: count('items done so far'),
    failed: count('items failed so far'),
    'would-affect': count('how many records the job would change (a dry run reports this)'),
    'item-done': Flags.string({ description: 'an item done, by key (repeatable)', multiple: true }),
    'item-failed': Flags.string({ description: 'an item failed, by key (repeatable)', multiple: true }),
    error: Flags.string({ description: 'why the --item-failed items failed' }),
  };

  async run(): Promise<{ recorded: boolean; lines: number }> {
    const { flags } = await this.parse(Progress);
    const lines = progressLinesOf({
      total: flags.total,
      done: flags.done,
      failed: flags.failed,
      wouldAffect: flags['would-affect'],
      itemDone: flags['item-done'] ?? [],
      itemFailed: flags['item-failed'] ?? [],
      error: flags.error,
    });
    const file = progressFileOf(process.env);
    if (file === undefined) {
      this.warn('not inside a cronform run (CRONFORM_PROGRESS_FILE is not set): nothing recorded');
      return { recorded: false, lines: lines.length };
    }
    appendProgressLines(file, lines);
    return { recorded: true, lines: lines.length };
  }
}

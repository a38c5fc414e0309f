import { Args, Flags } from '@oclif/core';
import { backfillRuns, MAX_BACKFILL_SLOTS, type BackfillResult } from '../operations/runs/backfill.js';
import type { Reprocess } from '../operations/runs/backfill-plan.js';
import { parseInstant } from '../operations/runs/time-input.js';
import { CronformCommand } from './cronform-command.js';
import { changeFlags, performRunChange } from './run-change.js';

export default class Backfill extends CronformCommand {
  static override summary = `Create BACKFILL runs for the past slots of a schedule in [--from, --to) (at most ${MAX_BACKFILL_SLOTS}); only missing slots by default.`;
  static override description = [
    'Priority and the default --concurrency come from the Policy (backfill: { priority, concurrency }).',
    '--concurrency N: the first N runs the backfill makes runnable are QUEUED, the rest PENDING; the runner promotes',
    "a schedule's oldest PENDING run whenever it has no active run, so at most N run at once, then one at a time, oldest first.",
  ].join('\n');
  static override examples = [
    '<%= config.bin %> backfill daily-report --from 2026-03-01T00:00:00Z --to 2026-03-08T00:00:00Z --dry-run',
    '<%= config.bin %> backfill daily-report --from 2026-03-01 --to 2026-03-08 --reprocess failed',
  ];
  static override args = { name: Args.string({ description: 'schedule name', required: true }) };
  static override flags = {
    from: Flags.string({ description: 'first instant, inclusive (ISO 8601 with a zone, or a date = UTC midnight)', required: true }),
    to: Flags.string({ description: 'last instant, exclusive; not in the future', required: true }),
    reprocess: Flags.string({ description: 'also re-run slots whose runs ended FAILED/MISSED/SKIPPED (failed) or ended at all (all)', options: ['failed', 'all'] }),
    'dry-run': Flags.boolean({ description: 'list what would be created; write nothing' }),
    concurrency: Flags.integer({ description: "runs of this backfill in flight at once (default: the Policy's backfill concurrency)", min: 1 }),
    ...changeFlags('backfills'),
  };

  async run(): Promise<BackfillResult> {
    const { args, flags } = await this.parse(Backfill);
    const fromMs = parseInstant(flags.from, '--from');
    const toMs = parseInstant(flags.to, '--to');
    // A progress line only for a human watching a terminal; nothing when piped or under --json.
    const progress = process.stderr.isTTY && !this.jsonEnabled() ? (done: number, total: number) => process.stderr.write(`\rbackfill ${args.name}: ${done}/${total} runs written`) : undefined;
    let result: BackfillResult;
    try {
      result = await performRunChange(flags, (database, { nowMs, author }) =>
        backfillRuns(database, { name: args.name, fromMs, toMs, reprocess: (flags.reprocess ?? 'none') as Reprocess, dryRun: flags['dry-run'], concurrency: flags.concurrency, nowMs, author, onProgress: progress }),
      );
    } finally {
      if (progress) process.stderr.write('\r\x1b[K');
    }
    const verb = result.dryRun ? 'would ' : '';
    for (const entry of result.dryRun ? result.entries : []) {
      const was = entry.previousStatus ? ` (run ${entry.runId}, was ${entry.previousStatus})` : '';
      this.log(`  ${entry.action === 'create' ? 'create ' : 'requeue'}  ${entry.scheduledFor}  business date ${entry.businessDate}  → ${entry.status}${was}`);
    }
    this.log(
      `Backfill ${result.schedule} [${result.from}, ${result.to}): ${result.slotsInRange} slot(s); ${verb}create ${result.created}, ${verb}re-queue ${result.requeued}` +
        ` (priority ${result.priority}, at most ${result.concurrency} at once)${result.dryRun ? '; dry run, nothing written' : ''}.`,
    );
    return result;
  }
}

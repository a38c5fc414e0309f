import { existsSync } from 'node:fs';
import { Args, Flags } from '@oclif/core';
import { validateManifests } from '../operations/validate.js';
import { buildPreview, renderPreview, type Preview } from '../plan/preview.js';
import { systemClock } from '../shared/clock.js';
import { formatDiagnostic } from '../shared/diagnostics.js';
import { CronformCommand } from './cronform-command.js';

export default class PreviewCommand extends CronformCommand {
  static override summary = 'Show the next slots of a schedule in local time and UTC, with DST notes.';
  static override examples = ['<%= config.bin %> preview daily-report', '<%= config.bin %> preview schedules/cleanup.yaml --count 5 --from 2026-03-01T00:00:00Z'];
  static override args = {
    target: Args.string({ description: 'schedule name (looked up in --dir) or manifest file', required: true }),
  };
  static override flags = {
    dir: Flags.string({ description: 'manifest directory to look names up in', default: 'schedules' }),
    count: Flags.integer({ description: 'number of slots to show', default: 10, min: 1, max: 10_000 }),
    from: Flags.string({ description: 'start instant (ISO 8601); default: now' }),
  };

  /** One schedule's preview, or a list when the file holds several: what --json prints. */
  async run(): Promise<Preview | Preview[]> {
    const { args, flags } = await this.parse(PreviewCommand);
    const fromMs = flags.from ? Date.parse(flags.from) : systemClock.nowMs();
    if (Number.isNaN(fromMs)) this.fail(`--from must be an ISO 8601 instant (got ${JSON.stringify(flags.from)})`);
    const isFile = /\.ya?ml$/i.test(args.target) && existsSync(args.target);
    const result = await validateManifests([isFile ? args.target : flags.dir], { cwd: process.cwd(), nowMs: fromMs });
    const schedules = isFile ? result.schedules : result.schedules.filter((s) => s.definition.name === args.target);
    if (schedules.length === 0) {
      const problems = result.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic);
      const reason = problems.length > 0 ? `\n${problems.join('\n')}` : isFile ? '' : `\nknown schedules: ${result.schedules.map((s) => s.definition.name).join(', ') || 'none'}`;
      this.fail(`no valid schedule ${isFile ? `in ${args.target}` : `named ${JSON.stringify(args.target)} in ${flags.dir}`}${reason}`);
    }
    const previews = schedules.map((schedule) => buildPreview(schedule, fromMs, flags.count));
    this.log(previews.map(renderPreview).join('\n\n'));
    return previews.length === 1 ? previews[0]! : previews;
  }
}

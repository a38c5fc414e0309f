import { Args } from '@oclif/core';
import { withDatabase } from '../operations/database.js';
import { diffVersions } from '../operations/history.js';
import type { FieldChange } from '../plan/plan-types.js';
import { renderFieldChange } from '../plan/render-field-diff.js';
import { makeVisible } from '../shared/visible-text.js';
import { CronformCommand } from './cronform-command.js';
import { databaseFlags } from './database-flags.js';

export default class Diff extends CronformCommand {
  static override summary = 'Show the field-level difference between two versions of a schedule.';
  static override examples = ['<%= config.bin %> diff daily-report 1 3'];
  static override args = {
    name: Args.string({ description: 'schedule name', required: true }),
    from: Args.integer({ description: 'older version', required: true, min: 1 }),
    to: Args.integer({ description: 'newer version', required: true, min: 1 }),
  };
  static override flags = { ...databaseFlags };

  async run(): Promise<FieldChange[]> {
    const { args, flags } = await this.parse(Diff);
    const changes = await withDatabase({ databaseUrl: flags['database-url'], dataDir: flags['data-dir'], cwd: process.cwd() }, (database) => diffVersions(database, args.name, args.from, args.to));
    if (changes.length === 0) this.log(`${makeVisible(args.name)}: v${args.from} and v${args.to} are identical`);
    // renderFieldChange makes every stored string visible: a definition's text never drives the terminal.
    for (const change of changes) {
      const rendered = renderFieldChange(change, { contextLines: 3, maxLines: 200, maxLineChars: 1000 });
      if (rendered.kind === 'inline') this.log(`  ${rendered.path}: ${rendered.before} → ${rendered.after}`);
      else this.log(`  ${rendered.path}:\n${rendered.lines.map((line) => `    ${line.kind} ${line.text}`).join('\n')}`);
    }
    return changes;
  }
}

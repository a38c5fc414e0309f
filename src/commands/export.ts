import path from 'node:path';
import { Flags } from '@oclif/core';
import { withDatabase } from '../operations/database.js';
import { exportSchedules, type ExportGrouping, type ExportResult } from '../operations/runs/export-schedules.js';
import { CronformCommand } from './cronform-command.js';
import { databaseFlags } from './database-flags.js';

export default class Export extends CronformCommand {
  static override summary = 'Write the database\'s active schedules (and Policy) as manifests, to adopt them into git.';
  static override description = 'Compiling the exported files gives back the stored definitions exactly, so plan on them shows no change. previousName and riskAccepted are not stored and so not exported.';
  static override examples = ['<%= config.bin %> export', '<%= config.bin %> export --out-dir schedules --group-by owner'];
  static override flags = {
    'out-dir': Flags.string({ description: 'directory to write into', default: 'schedules-export' }),
    'group-by': Flags.string({ description: 'one file per schedule (none), or one multi-document file per owner', options: ['none', 'owner'], default: 'none' }),
    force: Flags.boolean({ description: 'overwrite files that already exist' }),
    ...databaseFlags,
  };

  async run(): Promise<ExportResult> {
    const { flags } = await this.parse(Export);
    const cwd = process.cwd();
    const outDir = path.resolve(cwd, flags['out-dir']);
    const result = await withDatabase({ databaseUrl: flags['database-url'], dataDir: flags['data-dir'], cwd }, (database) => exportSchedules(database, { outDir, groupBy: flags['group-by'] as ExportGrouping, force: flags.force }));
    const count = result.files.reduce((sum, file) => sum + file.schedules.length, 0);
    this.log(`Exported ${count} schedule(s)${result.policy ? ' and the Policy' : ''} to ${path.relative(cwd, outDir) || '.'}:`);
    for (const file of result.files) this.log(`  ${file.file}${file.schedules.length > 0 ? `  ${file.schedules.join(', ')}` : ''}`);
    if (result.archivedLeftOut > 0) this.log(`${result.archivedLeftOut} archived schedule(s) left out.`);
    return result;
  }
}

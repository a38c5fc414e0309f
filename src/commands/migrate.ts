import { migrateDatabase, type MigrationResult } from '../db/migrate.js';
import { openChosenDatabase } from '../operations/database.js';
import { CronformCommand } from './cronform-command.js';
import { databaseFlags } from './database-flags.js';

export default class Migrate extends CronformCommand {
  static override summary = 'Apply pending database migrations.';
  static override flags = { ...databaseFlags };

  async run(): Promise<MigrationResult> {
    const { flags } = await this.parse(Migrate);
    const database = await openChosenDatabase({ databaseUrl: flags['database-url'], dataDir: flags['data-dir'], cwd: process.cwd() }, { migrate: false });
    try {
      const status = await migrateDatabase(database);
      this.log(describeMigration(database.label, status));
      return status;
    } finally {
      await database.close();
    }
  }
}

/** What this run did: the migrations it applied now, or that there was nothing to do. */
export function describeMigration(label: string, result: MigrationResult): string {
  const count = result.appliedNow.length;
  if (count === 0) return `${label}: schema up to date, nothing to apply (${result.applied} migration${result.applied === 1 ? '' : 's'} already applied)`;
  return `${label}: applied ${count} migration${count === 1 ? '' : 's'} (${result.appliedNow.join(', ')}); schema up to date`;
}

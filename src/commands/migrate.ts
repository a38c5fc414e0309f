import { migrateDatabase, type SchemaStatus } from '../db/migrate.js';
import { openChosenDatabase } from '../operations/database.js';
import { CronformCommand } from './cronform-command.js';
import { databaseFlags } from './database-flags.js';

export default class Migrate extends CronformCommand {
  static override summary = 'Apply pending database migrations.';
  static override flags = { ...databaseFlags };

  async run(): Promise<SchemaStatus> {
    const { flags } = await this.parse(Migrate);
    const database = await openChosenDatabase({ databaseUrl: flags['database-url'], cwd: process.cwd() }, { migrate: false });
    try {
      const status = await migrateDatabase(database);
      this.log(`${database.label}: schema up to date (${status.applied} migration${status.applied === 1 ? '' : 's'} applied)`);
      return status;
    } finally {
      await database.close();
    }
  }
}

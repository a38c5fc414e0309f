import { Args } from '@oclif/core';
import { withDatabase } from '../operations/database.js';
import { readHistory, type VersionEntry } from '../operations/history.js';
import { CronformCommand } from './cronform-command.js';
import { databaseFlags } from './database-flags.js';

export default class History extends CronformCommand {
  static override summary = 'List the versions of a schedule: who changed it, when, why, from which commit.';
  static override args = { name: Args.string({ description: 'schedule name', required: true }) };
  static override flags = { ...databaseFlags };

  async run(): Promise<VersionEntry[]> {
    const { args, flags } = await this.parse(History);
    const versions = await withDatabase({ databaseUrl: flags['database-url'], cwd: process.cwd() }, (database) => readHistory(database, args.name));
    if (versions.length === 0) this.fail(`no schedule named ${JSON.stringify(args.name)}`);
    for (const v of versions) {
      const name = v.name === args.name ? '' : ` (as ${v.name})`;
      this.log(`v${v.version}  ${v.createdAt}  ${v.status.padEnd(8)}  ${v.actor}${name}${v.gitSha ? `  ${v.gitSha.slice(0, 12)}` : ''}${v.planId ? `  ${v.planId}` : ''}${v.reason ? `\n      ${v.reason}` : ''}`);
    }
    return versions;
  }
}
